#pragma once
// The critical path of one schedule sample (docs/models/critical-path.md): from the operation
// that finishes last, back to time zero, through what each step waited for (its CPU, its NIC, a
// message's arrival, a rendezvous), with every nanosecond of it put in one category.
//
// The recorder is an engine observer (engine/schedules/engine/engine_observer.hpp). It propagates
// forward: each CPU and NIC of each rank, and each message in flight, holds a reference to the
// last node of the path that ends at its time; a node is one segment (a category, its end time,
// the rank and operation it belongs to) and points to the node before it. Nodes are counted by
// reference and freed when no path holds them any more, so memory follows what is in flight
// (per rank), not the operations the sample runs.
//
// Which constraint binds (the tie rules): a calc starts when its CPU is free (the CPU's path); a
// send when its CPU and NIC both are (the CPU's path when both free at the same instant); a
// message is received when it has arrived and the receiver's CPU and NIC are free (the message's
// path first, then the CPU's, then the NIC's, at equal times). On a shared network a message the
// network held past its arrival binds through the network category, after the CPU and the NIC
// at a tie: a receiver busy until the network let the message go is not blamed on the network. A
// rendezvous send finishes when its receive takes the message: its rank's CPU and NIC continue from
// the message's path, the time from its arrival to that moment counted as rendezvous wait (only
// when later than the rank's own times: at a tie the rank keeps its own path).
//
// Segment end times are the engine's own doubles, so the path ends exactly at the sample's
// completion; each category adds the exact differences of its segments (error-free
// transformations into a double-double, engine/schedules/paths/path_sums.hpp), so the categories
// sum to the completion within an ulp. Attribution over many samples, which needs the sums and not
// the segments, carries them forward instead (path_composition.hpp), with the same bits.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/loggops/loggp_parameter.hpp"
#include "engine/schedules/engine/engine_observer.hpp"
#include "engine/schedules/paths/path_sums.hpp"

namespace collnoise {

/// Where a nanosecond of the critical path went.
enum class PathCategory : std::uint8_t {
  kCalc,        ///< computation (calc operations)
  kOverhead,    ///< CPU overhead of messages: o and (s-1)O
  kGap,         ///< NIC gap: g and (s-1)G
  kWire,        ///< latency L
  kNoise,       ///< detours and per-stage delays on CPUs; latency drawn above L by network noise
  kRendezvous,  ///< a rendezvous send waiting for its receive after its message arrived
  /// A message's time in a shared network after its first byte came out (its LogGP arrival,
  /// or later by a dot file's link latencies, which are wire): held by the simple model until
  /// the poll that let it go, its bytes' transfer at the shared rate under the flow model
  /// (docs/models/critical-path.md). Only runs on a network have it.
  kNetwork,
};
inline constexpr std::size_t kPathCategories = 7;
/// The categories a run without a shared network has (all but kNetwork): its tallies, fields
/// and files hold these only, as before the network category was added.
inline constexpr std::size_t kPathCategoriesWithoutNetwork = 6;
/// The categories a run has: with a shared network (network.contention) or without.
constexpr std::size_t path_categories(bool network) {
  return network ? kPathCategories : kPathCategoriesWithoutNetwork;
}
/// The categories' names in files ("calc", "overhead", "gap", "wire", "noise", "rendezvous",
/// "network").
std::string_view path_category_name(PathCategory c);

/// The most step buckets the path's noise is spread over.
inline constexpr std::size_t kPathBuckets = 64;

/// Where the composition recorder (path_composition.hpp) keeps each parameter's time along the
/// path: nowhere; in the place of the computation and rendezvous categories, for runs that have
/// neither (96 bytes a composition, as without); or beside all categories (128 bytes).
enum class ParameterTimesLayout : std::uint8_t { kNone, kCompact, kFull };

/// Which lane of a rank a segment occupies.
enum class PathLane : std::uint8_t { kCpu, kSendNic, kReceiveNic, kWire };

/// One segment of a critical path.
struct PathSegment {
  std::uint32_t rank;
  PathLane lane;
  PathCategory category;
  std::uint64_t index;  ///< the operation's index within its rank (a message: its send's)
  double start, end;    ///< ns
};

/// The critical path of a sample.
struct CriticalPath {
  double completion = 0.0;  ///< ns: the latest CPU end of any rank
  /// ns per PathCategory; they sum to `completion` within an ulp.
  std::array<double, kPathCategories> time{};
  /// ns of noise charged to all the sample's operations (CPU noise and network delays), on the
  /// path or not.
  double noise_total = 0.0;
  /// The ranks that finish at `completion` (several at a tie), increasing; the path ends at the
  /// first.
  std::vector<std::uint32_t> last_ranks;
  /// The path's noise (ns) by the step bucket of the operation it fell in (summed in single
  /// precision: they add up to the noise category to about 1e-7 of it).
  std::array<double, kPathBuckets> noise_by_bucket{};
  /// Each LogGOPS parameter's time along the path, ns (when the composition recorder was asked
  /// to sum them): its L's are the wire category, its o's and g's and its bytes' (s-1)O and
  /// (s-1)G the parts of the overhead and gap categories they charged.
  std::optional<ParameterTimes> parameter_ns;
  /// The path's segments in time order (when the recorder was asked to keep them).
  std::vector<PathSegment> segments;
  /// Binding constraints the recorder could not match to an engine time (0 unless the engine's
  /// rules and the recorder's disagree; tests check it).
  std::uint64_t unmatched = 0;
};

/// A path's fields known without the path: its completion (the latest of `finish`, every rank's
/// finishing time in ns), the ranks that finish then, the noise charged and the unmatched count.
CriticalPath path_ending_at(std::span<const double> finish, double noise_total,
                            std::uint64_t unmatched);

/// An operation whose step bucket a recorder asks for: its rank, its index within the rank, and
/// for a send its peer and tag (a calc has none).
struct StepOperation {
  std::uint32_t rank;
  std::uint64_t index;
  bool calc;
  std::uint32_t peer, tag;
};
/// The step bucket (< kPathBuckets) of an operation, or kSameStep: the bucket of the operation
/// before it on its CPU (a computation between two rounds counts in the round before it).
using StepBucket = std::function<std::uint8_t(const StepOperation&)>;
inline constexpr std::uint8_t kSameStep = 0xff;
/// The bucket `bucket` gives `op` (0 without one), `before` for kSameStep.
inline std::uint8_t step_bucket_of(const StepBucket& bucket, const StepOperation& op,
                                   std::uint8_t before) {
  if (!bucket) return 0;
  const std::uint8_t b = bucket(op);
  return b == kSameStep ? before : b;
}

/// Records the critical path of one engine run. Pass it to simulate_schedule as the observer,
/// then call result() with the run's finishing times.
class CriticalPathRecorder {
 public:
  static constexpr bool kActive = true;

  /// `bucket`: the step bucket of an operation (empty: all in bucket 0); `keep_segments`: also
  /// return the path's segments (for timelines).
  explicit CriticalPathRecorder(StepBucket bucket = {}, bool keep_segments = false);

  void begin(std::uint32_t ranks, std::uint32_t cpus, std::uint32_t nics);
  void calc(const CalcSeen& c);
  void send(const SendSeen& s);
  void message(const MessageSeen& m);
  void receive(const ReceiveSeen&) {}
  void rendezvous(const RendezvousSeen& r);

  /// The path that ends at the latest of `finish` (every rank's finishing time, ns, as the run
  /// returned them).
  CriticalPath result(std::span<const double> finish) const;

  /// Nodes held at most during the run (memory: 32 bytes each).
  std::size_t peak_nodes() const { return nodes_.size(); }

 private:
  struct Node {
    double end;
    std::uint32_t parent;
    std::uint32_t refs;
    std::uint32_t rank;
    std::uint32_t index;
    PathCategory category;
    PathLane lane;
    std::uint8_t bucket;
  };
  static constexpr std::uint32_t kRoot = 0;

  std::uint32_t extend(std::uint32_t from, PathCategory category, PathLane lane, double end,
                       std::uint32_t rank, std::uint64_t index, std::uint8_t bucket);
  void hold(std::uint32_t node) { ++nodes_[node].refs; }
  void release(std::uint32_t node);
  void assign(std::uint32_t& slot, std::uint32_t node);
  std::uint32_t& cpu(std::uint32_t rank, std::uint8_t index) {
    return cpus_[std::size_t{rank} * cpus_per_rank_ + index];
  }
  std::uint32_t& send_nic(std::uint32_t rank, std::uint8_t index) {
    return send_nics_[std::size_t{rank} * nics_per_rank_ + index];
  }
  std::uint32_t& receive_nic(std::uint32_t rank, std::uint8_t index) {
    return receive_nics_[std::size_t{rank} * nics_per_rank_ + index];
  }
  /// The candidate whose end is `t`, the first in order at a tie; else the latest before it
  /// (counted as unmatched).
  std::uint32_t binding(double t, std::initializer_list<std::uint32_t> candidates);
  /// `work` of `length` (category) then noise up to `end`, from `from`.
  /// Noise after the work ending at `work`, up to `end` (none when it ends there).
  std::uint32_t noise_after(std::uint32_t work, PathLane lane, double end, std::uint32_t rank,
                            std::uint64_t index, std::uint8_t bucket);
  std::uint32_t occupy(std::uint32_t from, PathCategory category, PathLane lane, double start,
                       double length, double end, std::uint32_t rank, std::uint64_t index,
                       std::uint8_t bucket);
  /// The path of a message from its arrival node `arrived` to when the network let it go: wire
  /// up to m.emerged, then network up to m.left (either of no length: none).
  std::uint32_t through_network(std::uint32_t arrived, const MessageSeen& m, std::uint32_t rank,
                                std::uint32_t index, std::uint8_t bucket);
  std::uint8_t& cpu_step(std::uint32_t rank, std::uint8_t index) {
    return cpu_steps_[std::size_t{rank} * cpus_per_rank_ + index];
  }
  void add_noise(double amount);

  StepBucket bucket_;
  bool keep_segments_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> cpus_, send_nics_, receive_nics_;
  std::vector<std::uint8_t> cpu_steps_;  // the bucket of each CPU's last operation
  std::uint32_t cpus_per_rank_ = 1, nics_per_rank_ = 1;
  /// Messages in flight (and rendezvous messages waiting for their receive): the send's global
  /// index to the node at their arrival.
  struct Flight {
    std::uint32_t node;
    std::uint32_t index;  ///< the send's index within its rank
    std::uint8_t bucket;
  };
  std::unordered_map<std::uint64_t, Flight> flight_;
  path_sums::CompensatedSum noise_;
  std::uint64_t unmatched_ = 0;
};

}  // namespace collnoise
