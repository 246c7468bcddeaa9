// Schedules (docs/models/schedules.md): GOAL text read and written, and the engine's LogGOPS
// semantics on small schedules worked by hand (each also checked against LogGOPSim 76451de).
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
#include "engine/schedules/goal_reader.hpp"
#include "engine/schedules/goal_writer.hpp"
#include "engine/schedules/schedule_engine_impl.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

// LogGOPSim's command-line values used in the hand computations: L=1000, o=100, g=50, G=1 ns,
// O=0, S=65535 bytes.
ScheduleNet hand_net() {
  ScheduleNet net;
  net.L = 1000;
  net.o = 100;
  net.g = 50;
  net.G = 1;
  net.O = 0;
  net.S = 65535;
  return net;
}

std::vector<double> finish_of(const std::string& goal, const ScheduleNet& net = hand_net()) {
  const ScheduleRun run = simulate_schedule(read_goal_text(goal, "test.goal"), net);
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
  const ScheduleRun run = simulate_schedule(bad, hand_net());
  CHECK_FALSE(run.complete);
  CHECK_THAT(run.incomplete, Contains("rank 1"));
}

TEST_CASE("a deadlock names the receive that never matched, and no tag on a calc") {
  // Rank 0's calc waits for a receive whose message (another tag) never comes: the receive is
  // what is stuck, not the calc after it.
  const ScheduleRun stuck = simulate_schedule(read_goal_text(R"(num_ranks 2
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

TEST_CASE("GOAL: parse errors name the line and column") {
  const auto error = [](const std::string& text) {
    try {
      read_goal_text(text, "bad.goal");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    FAIL("no error for:\n" << text);
    return std::string();
  };
  CHECK_THAT(error("num_ranks 2\nrank 0 {\nl0: send 8 to 1\n}\n"),
             Contains("bad.goal:3:12: expected 'b'"));
  CHECK_THAT(error("num_ranks 2\nrank 0 {\nl0: send 8b to 5\n}\n"),
             Contains("bad.goal:3:16: unknown peer 5"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 5\nl0 requires l9\n}\n"),
             Contains("bad.goal:4:1: label \"l9\" is not defined in rank 0"));
  CHECK_THAT(
      error("num_ranks 1\nrank 0 {\nl0: calc 5\nl1: calc 6\nl0 requires l1\nl1 requires l0\n}\n"),
      Contains("cycle"));
  CHECK_THAT(error("num_ranks 2\nrank 1 {\n}\n"),
             Contains("bad.goal:2:6: rank 1 comes out of order"));
  CHECK_THAT(error("num_ranks 2\nrank 0 {\n}\n"), Contains("ends after 1 rank block"));
  CHECK_THAT(error("rank 0 {\n}\n"),
             Contains("bad.goal:1:1: a rank block before the num_ranks line"));
  CHECK_THAT(error("num_ranks 2\nrank 0 {\nl0: send 8b to 1\n}\nrank 1 {\n}\n"),
             Contains("rank 1 posts 0 receive(s) but 1 message(s)"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 5 tag 3\n}\n"),
             Contains("bad.goal:3:12: unexpected \"tag\""));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 99999999999999999999\n}\n"),
             Contains("too large"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\n/* open\n"), Contains("inside a /* comment"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 5\nl0: calc 6\n}\n"),
             Contains("defined twice"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\na: calc 5\n  a requires zz\n}\n"),
             Contains("bad.goal:4:3: label \"zz\" is not defined in rank 0"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl3: calc 5\nl3 requires l3\n}\n"),
             Contains("bad.goal:4:1: \"l3\" depends on itself"));
  // Labels are text, as in LogGOPSim: "l07" is not "l7".
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl7: calc 5\nl8: calc 1\nl8 requires l07\n}\n"),
             Contains("bad.goal:5:1: label \"l07\" is not defined in rank 0"));
  const Schedule both = read_goal_text(
      "num_ranks 1\nrank 0 {\nl7: calc 5\nl07: calc 1\nl07 requires l7\n}\n", "ok.goal");
  CHECK(both.dependencies(1) == 1);
}

TEST_CASE("GOAL: comments, labels defined later, and a round trip through the writer") {
  const std::string text = R"(// a comment line
num_ranks 2 /* the ranks */
rank 0 {
  first requires second   // a label defined further down
  second: send 100b to 1 tag 3 cpu 1 nic 1
  first: calc 250
}
rank 1 {
  l0: recv 100b from -1 tag -1
}
)";
  const Schedule s = read_goal_text(text, "t.goal");
  REQUIRE(s.ranks() == 2);
  REQUIRE(s.operations() == 3);
  CHECK(s.cpus() == 2);
  CHECK(s.nics() == 2);
  CHECK(s.kind(0) == OpKind::kSend);
  CHECK(s.peer(2) == kAnyPeer);
  CHECK(s.tag(2) == kAnyTag);
  CHECK(s.dependencies(1) == 1);
  std::ostringstream out;
  write_goal(s, out);
  const Schedule back = read_goal_text(out.str(), "written.goal");
  std::ostringstream again;
  write_goal(back, again);
  CHECK(again.str() == out.str());
  CHECK(simulate_schedule(back, hand_net()).finish == simulate_schedule(s, hand_net()).finish);
}

#include <filesystem>

#include "distributions/exponential.hpp"
#include "distributions/latency_samples.hpp"
#include "engine/cycles/cycle_model.hpp"
#include "engine/schedules/algorithms.hpp"
#include "engine/schedules/generated_schedule.hpp"
#include "engine/schedules/message_delays.hpp"
#include "engine/schedules/schedule_noise.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/same_operations.hpp"

TEST_CASE("generated algorithms equal their GOAL export read back") {
  for (const auto& algorithm : algorithm_kinds())
    for (const std::uint32_t n : {1U, 2U, 5U, 8U, 13U})
      for (const auto order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
        INFO(algorithm.name << " on " << n << " ranks");
        AlgorithmParams p;
        p.ranks = n;
        p.message_bytes = 4000;
        p.k = 3;
        p.segments = 2;
        p.receives = order;
        const Schedule s = algorithm.generate(p);
        std::ostringstream goal;
        write_goal(s, goal);
        const Schedule back = read_goal_text(goal.str(), algorithm.name + ".goal");
        CHECK(back.operations() == s.operations());
        const ScheduleRun a = simulate_schedule(s, hand_net());
        const ScheduleRun b = simulate_schedule(back, hand_net());
        REQUIRE(a.complete);
        CHECK(a.finish == b.finish);
        CHECK(a.events == b.events);
      }
}

TEST_CASE("algorithms generated on the fly equal the stored ones, operation by operation") {
  std::size_t checked = 0;
  for (const auto& algorithm : algorithm_kinds()) {
    if (!algorithm.generate_on_the_fly) continue;
    for (std::uint32_t n = 1; n <= 40; ++n)
      for (const auto order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
        INFO(algorithm.name << " on " << n << " ranks");
        AlgorithmParams p;
        p.ranks = n;
        // A multiple of every power of two up to 64: Rabenseifner's blocks are then equal.
        p.message_bytes = 64 * 125;
        p.receives = order;
        const Schedule stored = algorithm.generate(p);
        const std::optional<GeneratedSchedule> generated = algorithm.generate_on_the_fly(p);
        REQUIRE(generated);
        const GeneratedSchedule& fly = *generated;
        test::expect_same_operations(stored, fly);
        const ScheduleRun x = simulate_schedule(stored, hand_net());
        const ScheduleRun y = simulate_schedule(fly, hand_net());
        REQUIRE(x.complete);
        CHECK(x.finish == y.finish);
        CHECK(x.events == y.events);
        ++checked;
      }
  }
  // Dissemination, Bruck, pairwise, recursive doubling, Rabenseifner, the tree barrier (counted
  // from the registry, so that a new algorithm needs no edit here).
  std::size_t on_the_fly = 0;
  for (const auto& algorithm : algorithm_kinds())
    if (algorithm.generate_on_the_fly) ++on_the_fly;
  CHECK(on_the_fly >= 6);
  CHECK(checked == on_the_fly * 40 * 2);
  // Rabenseifner's unequal blocks are stored instead.
  AlgorithmParams odd;
  odd.ranks = 8;
  odd.message_bytes = 12;
  CHECK_FALSE(find_algorithm("rabenseifner_allreduce")->generate_on_the_fly(odd));
  // Memory independent of N.
  AlgorithmParams big;
  big.ranks = 1U << 23;
  CHECK(find_algorithm("recursive_doubling_allreduce")->generate_on_the_fly(big)->memory_bytes() <
        8192);
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
    const ScheduleRun run = simulate_schedule(find_algorithm(name)->generate(p), net);
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

TEST_CASE("schedule runs: any thread count, same bits, and GOAL files next to the run file") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  std::filesystem::create_directories("sched-dir");
  REQUIRE(run_command_line(
              "schedule bruck_allgather --ranks 12 --bytes 64 --goal sched-dir/b.goal --force")
              .code == 0);
  write_text("sched-dir/s.toml", R"(name = "s"
seed = 4
samples = 12
[collective]
kind = "schedule"
goal = "b.goal"
[[case]]
"noise.law" = "periodic"
"noise.P" = 1.0e-4
"noise.D" = 5.0e-6
"noise.semantics" = "preempt"
[[case]]
"noise.law" = "periodic"
"noise.P" = 1.0e-4
"noise.D" = 5.0e-6
"noise.semantics" = "loggopsim"
[[case]]
"noise.law" = "pareto"
"noise.a" = 2.5
"noise.f" = 0.1
)");
  std::filesystem::remove("s1.h5");
  std::filesystem::remove("s3.h5");
  const auto one = run_command_line("run sched-dir/s.toml --out s1.h5 --threads 1 --quiet");
  INFO(one.output);
  REQUIRE(one.code == 0);
  REQUIRE(run_command_line("run sched-dir/s.toml --out s3.h5 --threads 3 --quiet").code == 0);
  // Every replication's progress in flight was taken back once its chunk was counted.
  CHECK(work_in_flight().units() == 0.0);
  const auto a = run_command_line("summary s1.h5 --json").output;
  CHECK(a == run_command_line("summary s3.h5 --json").output);
  CHECK(a.find("\"completion_mean\"") != std::string::npos);
  CHECK(a.find("\"noiseless_finish\"") != std::string::npos);
  CHECK(a.find("tail index 2.5 <= 4") != std::string::npos);
  // Refusals name the culprit.
  write_text("sched-bad.toml", R"(name = "b"
seed = 4
samples = 3
[collective]
kind = "schedule"
algorithm = "ring"
N = 8
)");
  const auto bad = run_command_line("run sched-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("collective.algorithm") != std::string::npos);
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
  // Whole: the sample replaces L (arrival 100 + 2000 or 100 + 4000).
  std::set<double> whole, excess;
  for (std::uint64_t key = 0; key < 64; ++key) {
    whole.insert(finish_with(MessageDelays(pools, true, 1000.0), key));
    excess.insert(finish_with(MessageDelays(pools, false, 1000.0), key));
  }
  CHECK(whole == std::set<double>{2207.0, 4207.0});
  // Excess: the sample less the pool's smallest (0 or 2000 ns) on top of L.
  CHECK(excess == std::set<double>{1207.0, 3207.0});
  // A size without its own pool borrows the nearest below and adds (s - s0) G: 2 us + 7 ns.
  const auto one_byte = std::make_shared<const LatencySamples>(
      std::map<std::uint64_t, std::vector<double>>{{1, {2e-6}}}, 1e-9, "test");
  CHECK(finish_with(MessageDelays(one_byte, true, 1000.0), 1) == 100.0 + 2007.0 + 107.0);
  // A law: exponential delays of mean 1 us; the mean of 20000 messages' delays within 5 sigma.
  const MessageDelays law(std::make_shared<const ExponentialLaw>(), 1000.0);
  double sum = 0.0;
  for (std::uint64_t key = 0; key < 20000; ++key) sum += finish_with(law, key) - 1207.0;
  CHECK(sum / 20000.0 == Approx(1000.0).margin(5.0 * 1000.0 / std::sqrt(20000.0)));
}

TEST_CASE("network noise and measured LogGP parameters from run files") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  std::filesystem::create_directories("net-dir");
  write_text(
      "net-dir/two.goal",
      "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 0\n}\nrank 1 {\nl1: recv 1b from 0 tag 0\n}\n");
  // A Netgauge LogGP file (us): at 1 byte L = 3, o_s = 0.4, o_r = 0.6 (o = 0.5), g = 1, G = 0.
  write_text("net-dir/ng_loggp.out",
             "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
             "1 16 6 30 120 3 0.4 0.6 -nan -nan 0\n"
             "1025 16 6 40 130 3 0.9 1.1 1 0 0\n");
  // Latencies (rtt, us): 10 and 14, one way 5 and 7: the excess is 0 or 2 us.
  write_text("net-dir/lat.out", "#size\trtt\n1\t10\n1\t14\n#size\trtt\n1\t10\n");
  write_text("net-dir/n.toml", R"(name = "n"
seed = 5
samples = 40
[collective]
kind = "schedule"
goal = "two.goal"
[loggops]
file = "ng_loggp.out"
[latency]
file = "lat.out"
)");
  std::filesystem::remove("n.h5");
  const auto run = run_command_line("run net-dir/n.toml --out n.h5 --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary n.h5 --json").output;
  INFO(json);
  // Noiseless: o + (L - 2 o) + o = L = 3 us (Netgauge's L is the whole small-message one-way
  // time), g = 1 us from the nearest usable gap row.
  const auto number_after = [&](const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + key.size() + 4));
  };
  CHECK(number_after("noiseless_completion") == Approx(3e-6).epsilon(1e-12));
  // Each sample is 3 or 5 us: the mean lies strictly between.
  const double mean = number_after("completion_mean");
  CHECK(mean > 3e-6);
  CHECK(mean < 5e-6);
  // Both L and the file: refused, naming the key.
  write_text("net-dir/bad.toml", R"(name = "b"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "two.goal"
[loggops]
file = "ng_loggp.out"
L = 1e-6
)");
  const auto bad = run_command_line("run net-dir/bad.toml --validate-only");
  INFO(bad.output);
  CHECK(bad.code == 2);
  CHECK(bad.output.find("loggops.L") != std::string::npos);
}

TEST_CASE("a sample's finishing times on request: their maxima are the samples' completions") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  const auto run_with = [&](int index) {
    write_text("finish.toml", fmt::format(R"(name = "f"
seed = 9
samples = 2
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 12
finish_sample = {}
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
)",
                                          index));
    std::filesystem::remove("finish.h5");
    const auto done = run_command_line("run finish.toml --out finish.h5 --quiet");
    REQUIRE(done.code == 0);
    return run_command_line("summary finish.h5 --json").output;
  };
  const auto numbers_of = [](const std::string& json, const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    std::vector<double> out;
    std::size_t i = json.find_first_of("[0123456789", at + key.size() + 3);
    const bool list = json[i] == '[';
    const std::size_t end = list ? json.find(']', i) : json.find_first_of(",\n}", i);
    std::stringstream text(json.substr(list ? i + 1 : i, end - (list ? i + 1 : i)));
    for (std::string item; std::getline(text, item, ',');) out.push_back(std::stod(item));
    return out;
  };
  const std::string first = run_with(0), second = run_with(1);
  const auto f0 = numbers_of(first, "sample_finish");
  const auto f1 = numbers_of(second, "sample_finish");
  REQUIRE(f0.size() == 12);
  REQUIRE(f1.size() == 12);
  const double mean = numbers_of(first, "completion_mean").at(0);
  CHECK(*std::max_element(f0.begin(), f0.end()) + *std::max_element(f1.begin(), f1.end()) ==
        Approx(2.0 * mean).epsilon(1e-14));
  CHECK(numbers_of(second, "completion_mean").at(0) == mean);  // not part of the identity
  // Beyond the samples: refused.
  write_text("finish-bad.toml", R"(name = "f"
seed = 9
samples = 2
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 12
finish_sample = 2
)");
  const auto bad = run_command_line("run finish-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("collective.finish_sample") != std::string::npos);
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

TEST_CASE("noise.measurements = per_rank from a run file, and its conflicts") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  write_text("two-measurements.txt", "# one\n0\t100\n5000\t100\n# two\n0\t2000\n9000\t50\n");
  const std::string head = R"(name = "m"
seed = 3
samples = 4
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 6
[noise]
law = "trace"
file = "two-measurements.txt"
measurements = "per_rank"
)";
  write_text("per-rank.toml", head);
  std::filesystem::remove("per-rank.h5");
  const auto ok = run_command_line("run per-rank.toml --out per-rank.h5 --quiet");
  INFO(ok.output);
  CHECK(ok.code == 0);
  write_text("per-rank-bad.toml", head + "measurement = 1\n");
  const auto bad = run_command_line("run per-rank-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("noise.measurement") != std::string::npos);
}

#include "engine/schedules/schedule_study.hpp"

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
  noise.pattern =
      std::make_shared<const DetourPattern>(std::vector<Detour>{{0.0, 70.0}}, 500.0, "test");
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

TEST_CASE("the estimate counts a linear gather's searches of its posted receives") {
  // Under noise the messages reach the root of a linear gather in any order, and each searches
  // half the receives still posted: (N - 1)^2 / 4 entries, 1.7e10 at 2^18 ranks, about 17 s a
  // sample at 1 ns each (15 s measured), where a binomial reduce of as many operations costs a
  // tenth of a second. Beyond 2^46 entries (2^25 ranks) a point is refused.
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  const auto estimate = [](const std::string& algorithm, int log2_n) {
    write_text("linear-estimate.toml", fmt::format(R"(name = "e"
seed = 1
samples = 2
[collective]
kind = "schedule"
algorithm = "{}"
log2_N = {}
[noise]
law = "periodic"
P = 1.0e-3
D = 2.5e-5
)",
                                                   algorithm, log2_n));
    return run_command_line("run linear-estimate.toml --validate-only --threads 1");
  };
  const auto gather = estimate("linear_gather", 18);
  REQUIRE(gather.code == 0);
  // Two noisy samples: 2 x 1.7e10 x 1 ns, 34 s.
  CHECK_THAT(gather.output, Contains("estimated work 34"));
  CHECK_THAT(gather.output, Contains("core-seconds"));
  const auto reduce = estimate("binomial_reduce", 18);
  REQUIRE(reduce.code == 0);
  CHECK_THAT(reduce.output, Contains("estimated work 0."));
  const auto refused = estimate("linear_gather", 25);
  CHECK(refused.code != 0);
  CHECK_THAT(refused.output, Contains("linear_gather on 33554432 ranks"));
  CHECK_THAT(refused.output, Contains("entries per sample"));
}
