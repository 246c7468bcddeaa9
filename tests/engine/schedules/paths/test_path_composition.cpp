// The recorder that carries a critical path's sums forward
// (engine/schedules/paths/path_composition.hpp) against the one that keeps the path's segments
// (critical_path.hpp), in the same engine run: the same sums to the bit on every generated
// algorithm, under CPU noise and network noise, both protocols and step buckets; and its memory
// follows the ranks, not the operations.
#include <catch2/catch.hpp>

#include "distributions/exponential.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/paths/path_composition.hpp"
#include "engine/schedules/paths/timeline_recorder.hpp"
#include "engine/schedules/schedule/generated_schedule.hpp"
#include "tests/fixtures/small_schedules.hpp"

using namespace collnoise;

namespace {

// L = 1000, o = 10, g = 5 ns, per-byte costs, eager up to 65535 bytes.
ScheduleNet composition_net() {
  ScheduleNet net;
  net.L = 1000;
  net.o = 10;
  net.g = 5;
  net.G = 0.25;
  net.O = 0.125;
  net.S = 65535;
  return net;
}

// Buckets of 3 operations of a rank, at most 8; a calc in its CPU's bucket before it.
std::uint8_t bucket_of_index(const StepOperation& op) {
  if (op.calc) return kSameStep;
  return static_cast<std::uint8_t>(std::min<std::uint64_t>(op.index / 3, 7));
}

void check_same(const CriticalPath& segments, const CriticalPath& sums) {
  CHECK(segments.unmatched == 0);
  CHECK(sums.unmatched == 0);
  CHECK(sums.completion == segments.completion);
  CHECK(sums.time == segments.time);
  CHECK(sums.noise_by_bucket == segments.noise_by_bucket);
  CHECK(sums.noise_total == segments.noise_total);
  CHECK(sums.last_ranks == segments.last_ranks);
  CHECK(sums.segments.empty());
}

// A path's parameter times split its categories: its L's are the wire, its o's, g's and bytes'
// (s-1)G and (s-1)O the overhead and gap (no bytes' time drawn here).
void check_parameter_times(const CriticalPath& path) {
  REQUIRE(path.parameter_ns.has_value());
  const ParameterTimes& t = *path.parameter_ns;
  const auto category = [&](PathCategory c) { return path.time[static_cast<std::size_t>(c)]; };
  CHECK(t[index_of(LogGPParameter::kL)] == category(PathCategory::kWire));
  const double split = t[index_of(LogGPParameter::kSmallO)] + t[index_of(LogGPParameter::kSmallG)] +
                       t[index_of(LogGPParameter::kBigG)] + t[index_of(LogGPParameter::kBigO)];
  const double whole = category(PathCategory::kOverhead) + category(PathCategory::kGap);
  CHECK(split == Approx(whole).epsilon(1e-12).margin(1e-9));
  for (const double x : t) CHECK(x >= 0.0);
}

// Runs the compact layout could not keep (a computation or a rendezvous in them).
std::size_t compact_refused = 0;

// Four recorders on one run of `s` with buckets `bucket` (at most 8): the composition's path,
// checked against the segments', and the same with parameter times in both layouts (its
// categories the same bits, its parameters splitting them).
template <class Sched, class Noise>
CriticalPath compare(const Sched& s, Noise& noise, const StepBucket& bucket = bucket_of_index) {
  CriticalPathRecorder segments(bucket);
  PathCompositionRecorder sums(bucket, 8);
  PathCompositionRecorder timed(bucket, 8, ParameterTimesLayout::kFull);
  PathCompositionRecorder compact(bucket, 8, ParameterTimesLayout::kCompact);
  BothObservers<CriticalPathRecorder, PathCompositionRecorder> both{segments, sums};
  BothObservers<PathCompositionRecorder, PathCompositionRecorder> times{timed, compact};
  BothObservers<decltype(both), decltype(times)> all{both, times};
  ScheduleEngineMemory memory;
  const ScheduleRun run = simulate_schedule(s, composition_net(), noise, memory, all);
  REQUIRE(run.complete);
  CriticalPath path = sums.result(run.finish);
  const CriticalPath segment_path = segments.result(run.finish);
  check_same(segment_path, path);
  const CriticalPath timed_path = timed.result(run.finish);
  check_same(segment_path, timed_path);
  check_parameter_times(timed_path);
  CHECK_FALSE(path.parameter_ns.has_value());
  // The compact layout, where it has room (no computation, no rendezvous): the same numbers.
  const bool room = path.time[static_cast<std::size_t>(PathCategory::kCalc)] == 0.0 &&
                    path.time[static_cast<std::size_t>(PathCategory::kRendezvous)] == 0.0;
  if (!compact.needs_full()) {
    const CriticalPath compact_path = compact.result(run.finish);
    check_same(segment_path, compact_path);
    CHECK(compact_path.parameter_ns == timed_path.parameter_ns);
  } else {
    ++compact_refused;
  }
  if (!room) CHECK(compact.needs_full());
  return path;
}

}  // namespace

TEST_CASE("path composition: the same sums as the segments on every algorithm under noise") {
  // Periodic detours (700 ns every 3000 ns) and, in a second run, exponential message delays of
  // mean 300 ns on top: the sums, bucket by bucket, are the segments' to the bit.
  const DetourPattern periodic({{0.0, 700.0}}, 3000.0, "periodic");
  const MessageDelays delays(std::make_shared<ExponentialLaw>(), 300.0);
  for_each_small_schedule([&](const Schedule& s, std::uint32_t ranks) {
    PatternScheduleNoise cpu(periodic, TimeSemantics::kPreempt, 11, ranks, 1);
    compare(s, cpu);
    PatternScheduleNoise cpu_again(periodic, TimeSemantics::kPreempt, 11, ranks, 1);
    WithMessageDelays<PatternScheduleNoise> network(cpu_again, delays, 5);
    compare(s, network);
  });
  // The rendezvous sizes had no room in the compact layout; the eager ones did.
  CHECK(compact_refused > 0);
}

TEST_CASE("path composition: memory follows the ranks, not the operations") {
  // Recursive doubling at 2^12 ranks under periodic noise: no two ranks' paths merge, so the
  // segments held grow with the operations (12 rounds), while the compositions stay about one
  // per rank and per message in flight.
  const std::uint32_t ranks = 1U << 12;
  AlgorithmParams params;
  params.ranks = ranks;
  params.message_bytes = 8;
  const GeneratedSchedule s =
      *find_algorithm("recursive_doubling_allreduce")->generate_on_the_fly(params);
  const DetourPattern periodic({{0.0, 700.0}}, 3000.0, "periodic");
  PatternScheduleNoise noise(periodic, TimeSemantics::kPreempt, 3, ranks, 1);
  CriticalPathRecorder segments;
  PathCompositionRecorder sums({}, 1);
  BothObservers<CriticalPathRecorder, PathCompositionRecorder> both{segments, sums};
  ScheduleEngineMemory memory;
  const ScheduleRun run = simulate_schedule(s, composition_net(), noise, memory, both);
  REQUIRE(run.complete);
  check_same(segments.result(run.finish), sums.result(run.finish));
  CHECK(segments.peak_nodes() > 12 * std::size_t{ranks});
  CHECK(sums.peak_compositions() <= 3 * std::size_t{ranks});
}

TEST_CASE("path composition: a computation's noise counts in the round before it") {
  // Rank 0 sends in round 3 (its tag); rank 1 takes the message, then computes 50 ns with a
  // 40 ns detour after it, on the path: the detour is in bucket 3, in both recorders.
  struct DetourAfterCalc {
    double end(std::uint32_t, Busy what, std::uint64_t, double t, double length, double) const {
      return t + length + (what == Busy::kCalc ? 40.0 : 0.0);
    }
  } noise;
  const Schedule s = read_goal_text(R"(num_ranks 2
rank 0 {
l0: send 8b to 1 tag 3
}
rank 1 {
l0: recv 8b from 0 tag 3
l1: calc 50
l1 requires l0
}
)",
                                    "rounds.goal");
  const CriticalPath path = compare(s, noise, [](const StepOperation& op) {
    return op.calc ? kSameStep : static_cast<std::uint8_t>(op.tag);
  });
  CHECK(path.time[static_cast<std::size_t>(PathCategory::kNoise)] == 40.0);
  for (std::size_t b = 0; b < kPathBuckets; ++b)
    CHECK(path.noise_by_bucket[b] == (b == 3 ? 40.0 : 0.0));
}
