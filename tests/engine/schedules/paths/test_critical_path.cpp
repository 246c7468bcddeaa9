// The critical path of a schedule sample (engine/schedules/paths/critical_path.hpp) on cases worked
// by hand, and its two invariants on every generated algorithm under noise: the categories sum to
// the completion time, and every binding constraint is one of the engine's times. Each case also
// runs the recorder that carries the sums forward (path_composition.hpp): the same sums.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

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

// L = 1000, o = 10, g = 5 ns, no per-byte costs, eager up to 65535 bytes.
ScheduleNet path_net() {
  ScheduleNet net;
  net.L = 1000;
  net.o = 10;
  net.g = 5;
  net.G = 0;
  net.O = 0;
  net.S = 65535;
  return net;
}

// Noise placed by hand: a delay after given operations' CPU work, and on given sends' messages.
struct HandNoise {
  std::map<std::uint64_t, double> after;    // global operation -> ns
  std::map<std::uint64_t, double> latency;  // send -> ns added to L
  double end(std::uint32_t, Busy, std::uint64_t op, double t, double length, double) const {
    const auto it = after.find(op);
    return t + length + (it == after.end() ? 0.0 : it->second);
  }
  double message_delay(std::uint64_t send, std::uint64_t, std::uint32_t, std::uint32_t) const {
    const auto it = latency.find(send);
    return it == latency.end() ? 0.0 : it->second;
  }
};

double category(const CriticalPath& p, PathCategory c) {
  return p.time[static_cast<std::size_t>(c)];
}

template <class Noise>
CriticalPath path_of(const Schedule& s, Noise& noise, const ScheduleNet& net = path_net()) {
  ScheduleEngineMemory memory;
  CriticalPathRecorder recorder({}, true);
  PathCompositionRecorder composition({}, 1);
  BothObservers<CriticalPathRecorder, PathCompositionRecorder> both{recorder, composition};
  const ScheduleRun run = simulate_schedule(s, net, noise, memory, both);
  INFO(run.incomplete);
  REQUIRE(run.complete);
  CriticalPath path = recorder.result(run.finish);
  CHECK(path.unmatched == 0);
  // The recorder that carries sums forward (for attribution) finds the same path's sums.
  const CriticalPath sums = composition.result(run.finish);
  CHECK(sums.unmatched == 0);
  CHECK(sums.time == path.time);
  CHECK(sums.noise_total == path.noise_total);
  CHECK(sums.last_ranks == path.last_ranks);
  return path;
}

CriticalPath path_of(const std::string& goal, HandNoise noise = {}) {
  return path_of(read_goal_text(goal, "hand.goal"), noise);
}

// Rank 0 computes 300 ns and rank 1 100 ns, then each sends to rank 2, which computes 10 ns once
// both arrived. Global operations: 0 calc, 1 send (rank 0); 2 calc, 3 send (rank 1); 4, 5 recv,
// 6 calc (rank 2).
const char* const kJoin = R"(num_ranks 3
rank 0 {
l0: calc 300
l1: send 8b to 2 tag 0
l1 requires l0
}
rank 1 {
l0: calc 100
l1: send 8b to 2 tag 1
l1 requires l0
}
rank 2 {
l0: recv 8b from 0 tag 0
l1: recv 8b from 1 tag 1
l2: calc 10
l2 requires l0
l2 requires l1
}
)";

}  // namespace

TEST_CASE("critical path by hand: a chain") {
  // Rank 0: calc 0-100, send at 100 (CPU to 110), first byte at 100 + 10 + 1000 = 1110; rank 1
  // takes it 1110-1120, then computes 1120-1170.
  const CriticalPath p = path_of(R"(num_ranks 2
rank 0 {
l0: calc 100
l1: send 8b to 1 tag 0
l1 requires l0
}
rank 1 {
l0: recv 8b from 0 tag 0
l1: calc 50
l1 requires l0
}
)");
  CHECK(p.completion == 1170);
  CHECK(p.last_ranks == std::vector<std::uint32_t>{1});
  CHECK(category(p, PathCategory::kCalc) == 150);
  CHECK(category(p, PathCategory::kOverhead) == 20);
  CHECK(category(p, PathCategory::kWire) == 1000);
  CHECK(category(p, PathCategory::kGap) == 0);
  CHECK(category(p, PathCategory::kNoise) == 0);
  CHECK(p.noise_total == 0);
  REQUIRE(p.segments.size() == 5);
  CHECK(p.segments.front().rank == 0);
  CHECK(p.segments.front().start == 0);
  CHECK(p.segments.back().rank == 1);
  CHECK(p.segments.back().end == 1170);
  for (std::size_t i = 1; i < p.segments.size(); ++i)
    CHECK(p.segments[i].start == p.segments[i - 1].end);
}

TEST_CASE("critical path by hand: a join follows the later branch") {
  // Rank 1's message is taken 1110-1120, rank 0's arrives at 1310 and is taken 1310-1320; the
  // calc runs 1320-1330.
  const CriticalPath p = path_of(kJoin);
  CHECK(p.completion == 1330);
  CHECK(p.last_ranks == std::vector<std::uint32_t>{2});
  CHECK(category(p, PathCategory::kCalc) == 310);
  CHECK(category(p, PathCategory::kOverhead) == 20);
  CHECK(category(p, PathCategory::kWire) == 1000);
  CHECK(p.segments.front().rank == 0);
}

TEST_CASE("critical path by hand: a detour in slack is absorbed, on the path it is not") {
  SECTION("in slack: 150 ns after rank 1's calc, whose message still comes first") {
    HandNoise noise;
    noise.after[2] = 150;
    const CriticalPath p = path_of(kJoin, noise);
    CHECK(p.completion == 1330);
    CHECK(p.noise_total == 150);
    CHECK(category(p, PathCategory::kNoise) == 0);
  }
  SECTION("on the path: 150 ns after rank 0's calc") {
    HandNoise noise;
    noise.after[0] = 150;
    const CriticalPath p = path_of(kJoin, noise);
    CHECK(p.completion == 1480);
    CHECK(p.noise_total == 150);
    CHECK(category(p, PathCategory::kNoise) == 150);
    CHECK(category(p, PathCategory::kCalc) == 310);
  }
  SECTION("partly absorbed: 250 ns after rank 1's calc overtakes rank 0's branch by 50") {
    // Rank 1's message arrives at 100 + 250 + 10 + 1000 = 1360, after rank 0's (1310).
    HandNoise noise;
    noise.after[2] = 250;
    const CriticalPath p = path_of(kJoin, noise);
    CHECK(p.completion == 1380);
    CHECK(p.noise_total == 250);
    CHECK(category(p, PathCategory::kNoise) == 250);
    CHECK(category(p, PathCategory::kCalc) == 110);
  }
}

TEST_CASE("critical path by hand: a rendezvous send waits for its receive") {
  // 70000 b > S: the message reaches rank 1 at 10 + 1000 = 1010 while rank 1 computes until
  // 3000; it is taken 3000-3010 and rank 1 posts its receive at 3000, which finishes the send:
  // rank 0's CPU moves to 3000 and its calc runs 3000-3020.
  const CriticalPath p = path_of(R"(num_ranks 2
rank 0 {
l0: send 70000b to 1 tag 0
l1: calc 20
l1 requires l0
}
rank 1 {
l0: calc 3000
l1: recv 70000b from 0 tag 0
l1 requires l0
}
)");
  CHECK(p.completion == 3020);
  CHECK(p.last_ranks == std::vector<std::uint32_t>{0});
  CHECK(category(p, PathCategory::kOverhead) == 10);
  CHECK(category(p, PathCategory::kWire) == 1000);
  CHECK(category(p, PathCategory::kRendezvous) == 1990);
  CHECK(category(p, PathCategory::kCalc) == 20);
}

TEST_CASE("critical path by hand: a message delayed by network noise") {
  HandNoise noise;
  noise.latency[1] = 500;  // rank 0's send
  const CriticalPath p = path_of(R"(num_ranks 2
rank 0 {
l0: calc 100
l1: send 8b to 1 tag 0
l1 requires l0
}
rank 1 {
l0: recv 8b from 0 tag 0
l1: calc 50
l1 requires l0
}
)",
                                 noise);
  CHECK(p.completion == 1670);
  CHECK(category(p, PathCategory::kWire) == 1000);
  CHECK(category(p, PathCategory::kNoise) == 500);
  CHECK(p.noise_total == 500);
}

TEST_CASE("critical path by hand: a NIC gap binds back-to-back sends") {
  // g = 50 > o = 10: the second send starts when the NIC frees at 50, its message arrives at
  // 50 + 10 + 1000 = 1060 and rank 2 takes it 1060-1070.
  ScheduleNet net = path_net();
  net.g = 50;
  HandNoise none;
  const CriticalPath p = path_of(read_goal_text(R"(num_ranks 3
rank 0 {
l0: send 8b to 1 tag 0
l1: send 8b to 2 tag 0
l1 requires l0
}
rank 1 {
l0: recv 8b from 0 tag 0
}
rank 2 {
l0: recv 8b from 0 tag 0
}
)",
                                                "gap.goal"),
                                 none, net);
  CHECK(p.completion == 1070);
  CHECK(p.last_ranks == std::vector<std::uint32_t>{2});
  CHECK(category(p, PathCategory::kGap) == 50);
  CHECK(category(p, PathCategory::kOverhead) == 20);
  CHECK(category(p, PathCategory::kWire) == 1000);
}

TEST_CASE("critical path: categories sum to the completion on every algorithm under noise") {
  // Periodic detours (700 ns every 3000 ns), preempting, independent offsets, per-byte costs and
  // both protocols: every constraint binds at one of the engine's times, and the exact category
  // sums round to the completion.
  const DetourPattern periodic({{0.0, 700.0}}, 3000.0, "periodic");
  ScheduleNet net = path_net();
  net.G = 0.25;
  net.O = 0.125;
  for_each_small_schedule([&](const Schedule& s, std::uint32_t ranks) {
    PatternScheduleNoise noise(periodic, TimeSemantics::kPreempt, 11, ranks, 1);
    const CriticalPath path = path_of(s, noise, net);
    double sum = 0.0;
    for (const double t : path.time) sum += t;
    const double ulp = std::nextafter(path.completion, INFINITY) - path.completion;
    CHECK(std::abs(sum - path.completion) <= 2 * ulp);
    CHECK(path.time[static_cast<std::size_t>(PathCategory::kNoise)] <=
          path.noise_total * (1 + 1e-15));
    CHECK(path.segments.front().start == 0);
    CHECK(path.segments.back().end == path.completion);
  });
}
