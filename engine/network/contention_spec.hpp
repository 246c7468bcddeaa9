#pragma once
// Contention for the schedule engine's messages (docs/models/contention.md): the topology they
// share, where each rank sits on it, and the model that shares its links. A point's spec is
// read once (engine/schedules/contention_keys.hpp); each run makes its own network from it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/network/link_load.hpp"
#include "engine/network/message_network.hpp"
#include "engine/network/topology.hpp"

namespace collnoise {

/// How messages share a link.
enum class ContentionModel : std::uint8_t {
  /// LogGOPSim's `simple` network (--network-type simple): a message moves one byte per ns
  /// divided by the largest number of messages on a link of its route (simple_network.hpp).
  kSimple,
  /// Flows that share each link's bandwidth max-min fairly, recomputed as flows start and end
  /// (flow_network.hpp).
  kFlows,
};

/// The models' names in run files (network.contention), in ContentionModel's order.
std::vector<std::string> contention_model_names();
/// The model of a name of contention_model_names(). Precondition: it is one of them.
ContentionModel contention_model_named(const std::string& name);

struct ContentionSpec {
  std::shared_ptr<const Topology> topology;  ///< not null
  ContentionModel model = ContentionModel::kSimple;
  /// Each rank's endpoint (a mapping file's, or a sample's random draw); empty: rank r on
  /// endpoint r.
  std::vector<std::uint32_t> endpoint_of;
  /// How the ranks were placed, for the summary ("linear", "random", or the mapping file and
  /// its checksum).
  std::string placement = "linear";
  /// Whether each sample places the ranks anew (network.placement = "random"), on endpoints
  /// drawn with its background (engine/network/allocation.hpp).
  bool random_placement = false;
  /// network.rho, and the endpoints it gives: each sample draws that many endpoints that send
  /// background traffic (each to another, a derangement), none of them a rank's.
  double rho = 0.0;
  std::uint64_t background = 0;
  /// A sample's background messages on each link (LinkId-indexed); null: none. Set by
  /// for_sample.
  std::shared_ptr<const std::vector<std::uint32_t>> background_load;
  /// kFlows: every link's bandwidth, bytes per ns (> 0).
  double bytes_per_ns = 0.0;
  /// Told of every change of a link's load in the runs of this spec (a replay's link-load
  /// recorder, engine/network/link_load.hpp); null: none, and the runs pay nothing for it.
  LinkLoadListener* listener = nullptr;

  /// The model's name in run files and summaries ("simple").
  std::string model_name() const;
  /// Whether samples differ in placement or background (then each run takes for_sample's).
  bool draws() const { return random_placement || background > 0; }
  /// The spec of one sample of `ranks` ranks keyed `key`: its placement and background drawn
  /// (draw_network_allocation). InputError when the topology has too few endpoints for the ranks
  /// and the background.
  std::shared_ptr<const ContentionSpec> for_sample(std::uint64_t key, std::uint32_t ranks) const;
  /// A network for one run of `ranks` ranks, placed by endpoint_of. InputError when the
  /// placement lists fewer ranks, or names an endpoint the topology does not have.
  std::unique_ptr<MessageNetwork> start_run(std::uint32_t ranks) const;
  /// InputError when the placement lists fewer than `ranks` ranks, or names an endpoint the
  /// topology does not have (or, linear, the topology has fewer endpoints than ranks).
  void check_fits(std::uint32_t ranks) const;
};

}  // namespace collnoise
