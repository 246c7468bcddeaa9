// The schedule engine (docs/models/schedules.md): LogGOPS semantics on small schedules worked
// by hand (each also checked against LogGOPSim 76451de), wildcards and deadlocks, the noiseless
// closed forms, the noise semantics, message delays and per-rank traces, and the release of a
// point's schedule.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/work_in_flight.hpp"
#include "distributions/exponential.hpp"
#include "distributions/latency_samples.hpp"
#include "engine/cycles/cycle_model.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/goal/goal_writer.hpp"
#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/same_operations.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::test::hand_net;

namespace {

std::vector<double> finish_of(const std::string& goal, const ScheduleNet& net = hand_net()) {
  const ScheduleRun run = run_schedule(read_goal_text(goal, "test.goal"), net);
  INFO(run.incomplete);
  REQUIRE(run.complete);
  return run.finish;
}

}  // namespace

TEST_CASE("schedules by hand: an eager message") {
  // Send at 0: the CPU is busy o = 100; the first byte arrives at o + L = 1100; the receiver's
  // CPU takes o + max((s-1)O, (s-1)G) = 100 + 7: rank 1 ends at 1207.
  const auto t = finish_of(R"(num_ranks 2
rank 0 {
l0: send 8b to 1 tag 0
}
rank 1 {
l0: recv 8b from 0 tag 0
}
)");
  CHECK(t == std::vector<double>{100, 1207});
}

TEST_CASE("schedules by hand: a rendezvous message waits for its receive") {
  // 70000 b > S: the send finishes when rank 1 posts its receive at 3000 (after its calc); the
  // message, arrived at 1100, is taken at 3000 (CPU busy until then): 3000 + 100 + 69999 G =
  // 73099. Rank 0's calc, which requires the send, runs from 3000 to 3500.
  const auto t = finish_of(R"(num_ranks 2
rank 0 {
l0: send 70000b to 1 tag 0
l1: calc 500
l1 requires l0
}
rank 1 {
l0: calc 3000
l1: recv 70000b from 0 tag 0
l1 requires l0
}
)");
  CHECK(t == std::vector<double>{3500, 73099});
}

TEST_CASE("schedules by hand: irequires and a second CPU") {
  // l1 may start when l0 starts (0), on CPU 1, and ends at 200; l2 requires l1 and waits for
  // CPU 0 (busy until 1000): 1300.
  const auto t = finish_of(R"(num_ranks 1
rank 0 {
l0: calc 1000
l1: calc 200 cpu 1
l2: calc 300
l1 irequires l0
l2 requires l1
}
)");
  CHECK(t == std::vector<double>{1300});
}

TEST_CASE("schedules by hand: tags matched out of order") {
  // Rank 0 sends tag 2 (0-100) then tag 1 (100-200); they arrive at 1100 and 1200. Tag 2 finds
  // no posted receive of its tag (the receive of tag 1 is posted): unexpected, CPU 1100-1207.
  // Tag 1 waits for the CPU, 1207-1314, and matches; the receive of tag 2 then takes the
  // unexpected message at once; the calc runs 1314-1324.
  const auto t = finish_of(R"(num_ranks 2
rank 0 {
l0: send 8b to 1 tag 2
l1: send 8b to 1 tag 1
}
rank 1 {
l0: recv 8b from 0 tag 1
l1: recv 8b from 0 tag 2
l2: calc 10
l1 requires l0
l2 requires l1
}
)");
  CHECK(t == std::vector<double>{200, 1324});
}

TEST_CASE("schedules: wildcards and an unmatched receive") {
  const auto t = finish_of(R"(num_ranks 3
rank 0 {
l0: send 8b to 2 tag 4
}
rank 1 {
l0: send 8b to 2 tag 9
}
rank 2 {
l0: recv 8b from -1 tag -1
l1: recv 8b from -1 tag 9
}
)");
  CHECK(t[2] == 1314);
  // Two receives, one message of a tag neither wants: never matched.
  const auto bad = read_goal_text(R"(num_ranks 2
rank 0 {
l0: send 8b to 1 tag 3
}
rank 1 {
l0: recv 8b from 0 tag 4
}
)",
                                  "t.goal");
  const ScheduleRun run = run_schedule(bad, hand_net());
  CHECK_FALSE(run.complete);
  CHECK_THAT(run.incomplete, Contains("rank 1"));
}

TEST_CASE("a deadlock names the receive that never matched, and no tag on a calc") {
  // Rank 0's calc waits for a receive whose message (another tag) never comes: the receive is
  // what is stuck, not the calc after it.
  const ScheduleRun stuck = run_schedule(read_goal_text(R"(num_ranks 2
rank 0 {
l0: calc 100
l1: recv 8b from 1 tag 5
l2: calc 6002
l2 requires l1
}
rank 1 {
l0: send 8b to 0 tag 6
}
)",
                                                        "stuck.goal"),
                                         hand_net());
  CHECK_FALSE(stuck.complete);
  CHECK(stuck.incomplete ==
        "rank 0's operation 1 (recv from 1, tag 5) never found a matching message");
  // How operations are named: a calc has neither peer nor tag.
  CHECK(operation_text({OpKind::kCalc, 6002, 0, 0}) == "calc 6002 ns");
  CHECK(operation_text({OpKind::kSend, 8, 3, 0}) == "send to 3 (8 b), tag 0");
  CHECK(operation_text({OpKind::kRecv, 8, kAnyPeer, kAnyTag}) == "recv from any (8 b), tag any");
}

TEST_CASE("without noise, schedules give the cycle engines' closed forms") {
  // Chen & Suda's parameters: L = 1 us, o = 1 ns, G = 1 ns per byte, 8-byte messages.
  ScheduleNet net;
  net.L = 1000;
  net.o = 1;
  net.G = 1;
  for (const auto& [name, n, algorithm] :
       {std::tuple{"dissemination_barrier", 100U, CycleAlgorithm::kDissemination},
        std::tuple{"recursive_doubling_allreduce", 64U, CycleAlgorithm::kButterfly}}) {
    AlgorithmParams p;
    p.ranks = n;
    const ScheduleRun run = run_schedule(find_algorithm(name)->generate(p), net);
    CycleSetup setup;
    setup.algorithm = algorithm;
    setup.ranks = n;
    setup.cycles = 1;
    setup.net.L = 1e-6;
    setup.net.o = 1e-9;
    setup.net.G = 1e-9;
    const double completion = *std::max_element(run.finish.begin(), run.finish.end()) * 1e-9;
    CHECK(completion == Approx(*noiseless_closed_form(setup)).epsilon(1e-12));
  }
}

TEST_CASE("noise semantics: LogGOPSim's rule misses the detour that starts in the stretched work") {
  // One detour of 50 ns every 1000 ns. Work of 960 ns starting 10 ns into a detour: exact
  // preemption waits 40 ns, runs 950 ns to the next detour, waits 50 and runs the last 10 ns:
  // it ends 1050 ns after the start of the first detour plus 10. LogGOPSim's rule charges only
  // the 40 ns in progress (no detour starts within the 960 unstretched ns): 50 ns less.
  const DetourPattern pattern({{0.0, 50.0}}, 1000.0, "test");
  PatternScheduleNoise preempt(pattern, TimeSemantics::kPreempt, 99, 1, 1);
  PatternScheduleNoise loggopsim(pattern, TimeSemantics::kLogGOPSim, 99, 1, 1);
  PatternScheduleNoise::RankSlot a, b;
  const double phase = preempt.offset(0);
  const double t = phase + 10.0;
  const double exact = preempt.end(0, a, Busy::kCalc, 0, t, 960.0, 960.0);
  const double charged = loggopsim.end(0, b, Busy::kCalc, 0, t, 960.0, 960.0);
  CHECK(exact == Approx(phase + 1060.0).epsilon(1e-15));
  CHECK(charged == Approx(phase + 1010.0).epsilon(1e-15));
  // Where no detour starts in the stretched part, both agree: 1200 ns from the same start.
  CHECK(preempt.end(0, a, Busy::kCalc, 0, phase + 2010.0, 1200.0, 1200.0) ==
        Approx(loggopsim.end(0, b, Busy::kCalc, 0, phase + 2010.0, 1200.0, 1200.0)).epsilon(1e-15));
}

TEST_CASE("network noise: each message's latency from measured samples or a law, by hand") {
  // Rank 0 sends 8 bytes to rank 1 (hand_net: L 1000, o 100, G 1 ns): noiseless, the message
  // arrives at 1100 and rank 1 finishes at 1100 + o + 7 G = 1207.
  const Schedule s = read_goal_text(
      "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\n"
      "rank 1 {\nl1: recv 8b from 0 tag 0\n}\n",
      "one.goal");
  const auto finish_with = [&](const MessageDelays& delays, std::uint64_t key) {
    QuietSchedule quiet;
    WithMessageDelays<QuietSchedule> noise(quiet, delays, key);
    return simulate_schedule(s, hand_net(), noise).finish[1];
  };
  // One-way samples of 2 and 4 us for 8-byte messages.
  const auto pools = std::make_shared<const LatencySamples>(
      std::map<std::uint64_t, std::vector<double>>{{8, {2e-6, 4e-6}}}, 1e-9, "test");
  // Whole: the sample is the message's one-way time, send start to receive end: its wire term is
  // the sample less o + o + 7 G = 207 ns, so rank 1 finishes at exactly the sample.
  std::set<double> whole, excess;
  for (std::uint64_t key = 0; key < 64; ++key) {
    whole.insert(finish_with(MessageDelays(pools, true, hand_net()), key));
    excess.insert(finish_with(MessageDelays(pools, false, hand_net()), key));
  }
  CHECK(whole == std::set<double>{2000.0, 4000.0});
  CHECK(MessageDelays(pools, true, hand_net()).charged_elsewhere_ns(8) == 207.0);
  CHECK(MessageDelays(pools, true, hand_net()).floored_share(8) == 0.0);
  // Excess: the sample less the pool's smallest (0 or 2000 ns) on top of L.
  CHECK(excess == std::set<double>{1207.0, 3207.0});
  CHECK(MessageDelays(pools, false, hand_net()).floored_share(8) == 0.0);
  // A size without its own pool borrows the nearest below and adds (s - s0) G: 2 us + 7 ns.
  const auto one_byte = std::make_shared<const LatencySamples>(
      std::map<std::uint64_t, std::vector<double>>{{1, {2e-6}}}, 1e-9, "test");
  CHECK(finish_with(MessageDelays(one_byte, true, hand_net()), 1) == 2007.0);
  // A whole sample shorter than the 207 ns charged elsewhere gets a wire of 0 (floored): 100 ns
  // gives 100 + 0 + 107; half the draws are floored.
  const auto short_pool = std::make_shared<const LatencySamples>(
      std::map<std::uint64_t, std::vector<double>>{{8, {1e-7, 2e-6}}}, 1e-9, "test");
  std::set<double> floored;
  for (std::uint64_t key = 0; key < 64; ++key)
    floored.insert(finish_with(MessageDelays(short_pool, true, hand_net()), key));
  CHECK(floored == std::set<double>{207.0, 2000.0});
  CHECK(MessageDelays(short_pool, true, hand_net()).floored_share(8) == 0.5);
  CHECK(floored_share_of(MessageDelays(short_pool, true, hand_net()), AnySchedule(s)) == 0.5);
  // A law: exponential delays of mean 1 us; the mean of 20000 messages' delays within 5 sigma.
  const MessageDelays law(std::make_shared<const ExponentialLaw>(), 1000.0);
  double sum = 0.0;
  for (std::uint64_t key = 0; key < 20000; ++key) sum += finish_with(law, key) - 1207.0;
  CHECK(sum / 20000.0 == Approx(1000.0).margin(5.0 * 1000.0 / std::sqrt(20000.0)));
}

TEST_CASE("a trace's measurements, one per rank: rank r replays measurement r mod their number") {
  // Measurement A is busy 999 ns of every 1000; B one ns in a second. 10 ns of work take about
  // 10000 ns under A and 10 ns under B (unless it starts in B's one busy ns: chance 1e-8).
  const DetourPattern a({{0.0, 999.0}}, 1000.0, "A");
  const DetourPattern b({{0.0, 1.0}}, 1e9, "B");
  PatternScheduleNoise noise(std::vector<const DetourPattern*>{&a, &b}, TimeSemantics::kPreempt, 7,
                             4, 1);
  for (std::uint32_t rank = 0; rank < 4; ++rank) {
    PatternScheduleNoise::RankSlot slot;
    const double took = noise.end(rank, slot, Busy::kCalc, 0, 5000.0, 10.0, 10.0) - 5000.0;
    INFO("rank " << rank);
    if (rank % 2 == 0) {
      CHECK(took > 9000.0);
      CHECK(took < 11000.0);
    } else {
      CHECK(took == 10.0);
    }
  }
}

TEST_CASE("a point's schedule is released after its samples and rebuilt, same numbers, on use") {
  int builds = 0;
  ScheduleSource source;
  source.make = [&builds] {
    ++builds;
    return AnySchedule(read_goal_text(R"(num_ranks 2
rank 0 {
l0: calc 300
l1: send 8b to 1 tag 0
l1 requires l0
}
rank 1 {
l0: recv 8b from 0 tag 0
l1: calc 200
l1 requires l0
}
)",
                                      "two.goal"));
  };
  source.ranks = 2;
  source.operations = 4;
  source.description = "two ranks";
  ScheduleNoiseSpec noise;
  noise.cpu = PatternCpuNoise{.pattern = std::make_shared<const DetourPattern>(
                                  std::vector<Detour>{{0.0, 70.0}}, 500.0, "test")};
  const ScheduleStudy study(source, hand_net(), noise);
  // Without noise: rank 0 computes 300 ns and sends; the message arrives at 300 + o + L = 1400 ns,
  // rank 1 spends o + (8 - 1) G = 107 ns on it, then computes 200 ns: 1707 ns.
  CHECK(study.noiseless_completion() * 1e9 == Approx(1707.0).epsilon(1e-12));
  CHECK(builds == 1);
  const double first = study.replicate(3);
  CHECK(first > study.noiseless_completion());
  study.release_working_memory();
  CHECK(builds == 1);  // nothing rebuilt until used
  CHECK(study.replicate(3) == first);
  CHECK(builds == 2);
  CHECK(study.replicate(3) == first);
  CHECK(builds == 2);
  // A schedule given built (a GOAL file, read once) is kept.
  ScheduleSource given = source;
  given.built = std::make_shared<const AnySchedule>(source.make());
  const int before = builds;
  const ScheduleStudy kept(given, hand_net(), noise);
  const auto held = kept.schedule();
  kept.release_working_memory();
  CHECK(kept.schedule() == held);
  CHECK(builds == before);
}
