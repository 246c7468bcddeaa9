#pragma once
// Network noise (docs/models/network.md; Hoefler, Schneider, Lumsdaine, Section 3): in each sample
// a fraction rho of the endpoints, chosen at random, exchange large messages along a uniform random
// derangement (the background traffic); the other endpoints run the application, with a random
// process-to-endpoint mapping. The collective proceeds in rounds; each round's application
// messages are routed together with all background messages, a link's load is the number of
// messages crossing it, and a message costs the maximum load on its path (1 when alone). The
// collective's cost is the longest path through its dependency graph, in units of one
// uncongested message. The same allocation without background traffic gives the quiet cost;
// their ratio is the sample's slowdown.
//
// Patterns: binomial-tree broadcast from rank 0 (ceil(log2 P) rounds; in round r rank i < 2^r
// sends to i + 2^r), binomial reduce to rank 0 (round r: ranks i with i mod 2^(r+1) = 2^r send
// to i - 2^r, once they have every child's data), and the butterfly over the largest power of two
// P2 <= P processes (round r: i and i XOR 2^r exchange; the other P - P2 stay idle). A send
// depends on the sender's previous receives only (the root's sends are not serialised).
//
// Optional OS noise: each process's send in each round is delayed by a per-stage noise draw,
// s eta message-times (s = f/(1-f) for the f-laws: the stage is one message-time), the same in the
// quiet and the perturbed evaluation of a sample, which are thus paired.
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "distributions/law_spec.hpp"
#include "engine/network/allocation.hpp"
#include "engine/network/topology.hpp"

namespace collnoise {

enum class NetworkPattern { kBinomialBroadcast, kBinomialReduce, kButterfly };

/// Costs of one sample, in message-times.
struct NetworkSample {
  double quiet = 0.0;      ///< without background traffic (with the OS delays, if any)
  double perturbed = 0.0;  ///< with background traffic (same OS delays)
  double clean = 0.0;      ///< neither background traffic nor OS delays
};

class CongestionModel {
 public:
  /// Preconditions (checked: InputError naming the key): 0 <= rho < 1, round(rho E) != 1, at
  /// least two application processes (at least two active ones for the butterfly).
  CongestionModel(std::shared_ptr<const Topology> topology, NetworkPattern pattern, double rho,
                  std::optional<StageNoise> os_noise);

  std::uint64_t endpoints() const { return topology_->endpoints(); }
  std::uint64_t perturbing() const { return perturbing_; }
  std::uint64_t processes() const { return processes_; }
  /// Processes taking part (the butterfly leaves P - P2 idle).
  std::uint64_t active_processes() const;
  int rounds() const;
  const Topology& topology() const { return *topology_; }
  NetworkPattern pattern() const { return pattern_; }
  /// Tail index of the OS noise on each step (infinity without OS noise or for light tails).
  double os_tail_index() const {
    return os_noise_ && os_noise_->scale > 0.0 ? os_noise_->eta->tail_index()
                                               : std::numeric_limits<double>::infinity();
  }

  /// The allocation of the sample keyed `key` (draw_network_allocation).
  NetworkAllocation draw_allocation(std::uint64_t key) const;
  /// Costs of one sample (its allocation and OS delays drawn from `key`).
  NetworkSample sample(std::uint64_t key) const;
  /// Costs for a given allocation and per-(round, process) OS delays (empty: none).
  NetworkSample evaluate(const NetworkAllocation& allocation,
                         const std::vector<double>& os_delays) const;

 private:
  struct Message {
    std::uint32_t from;  // processes
    std::uint32_t to;
  };
  std::vector<Message> round_messages(int round) const;

  std::shared_ptr<const Topology> topology_;
  NetworkPattern pattern_;
  std::uint64_t perturbing_;
  std::uint64_t processes_;
  std::optional<StageNoise> os_noise_;
};

}  // namespace collnoise
