// LogGOPSim's simple network model on the schedule engine (docs/models/contention.md,
// "LogGOPSim's simple model"): hand cases worked from its rule (a message moves 1 byte per ns
// over the most messages on a link of its route, leaves when polled with nothing left), each
// checked against LogGOPSim built with its dot topologies (L = 100, o = 10, g = 5, G = O = 0
// unless said). Receivers finish o after they take a message.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/network/simple_network.hpp"
#include "engine/network/topology_keys.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/contention_keys.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::test::net_of;

namespace {

// L, o, g, G on `topology` under the simple model.
ScheduleNet simple_on(const std::string& topology, double L = 100, double o = 10, double G = 0,
                      std::uint64_t S = 65535) {
  ScheduleNet net = net_of(L, o, 5, G, 0, S);
  auto spec = std::make_shared<ContentionSpec>();
  spec->topology = parse_topology(topology);
  spec->model = ContentionModel::kSimple;
  net.contention = std::move(spec);
  return net;
}

// Each rank's finishing time (ns) of the GOAL `text` on `net`.
std::vector<double> finishes(const std::string& text, const ScheduleNet& net) {
  const Schedule s = read_goal_text(text, "simple.goal");
  QuietSchedule quiet;
  return simulate_schedule(s, net, quiet).finish;
}

// One rank of three on one switch (xgft(1; 3; 1): the star) receiving what the others send.
const std::string kStar = "xgft(1; 3; 1)";
std::string to_rank_2(const std::string& first, const std::string& second) {
  return "num_ranks 3\nrank 0 {\n" + first + "}\nrank 1 {\n" + second +
         "}\nrank 2 {\nl1: recv 10000b from 0 tag 0\nl2: recv 5000b from 1 tag 0\n}\n";
}

}  // namespace

TEST_CASE("simple network: one message moves a byte per ns, two on one link half as fast each") {
  // Alone: out of the network at 10000 (its arrival at o + L = 110 is polled again then).
  const std::string one =
      "num_ranks 3\nrank 0 {\nl1: send 10000b to 2 tag 0\n}\nrank 1 {\n}\n"
      "rank 2 {\nl1: recv 10000b from 0 tag 0\n}\n";
  CHECK(finishes(one, simple_on(kStar))[2] == 10010.0);
  // Without the network the same message is taken at its arrival, 110.
  CHECK(finishes(one, net_of(100, 10, 5, 0, 0, 65535))[2] == 120.0);
  // 10000 and 5000 bytes into rank 2 at once share its down-link: the smaller leaves at 10000
  // (5000 bytes at half speed), and frees it for the larger, out at 15000.
  const std::string two = to_rank_2("l1: send 10000b to 2 tag 0\n", "l1: send 5000b to 2 tag 0\n");
  CHECK(finishes(two, simple_on(kStar))[2] == 15010.0);
}

TEST_CASE("simple network: messages share only the links of their routes") {
  // Two leaf switches of two endpoints under one top switch: 0 -> 2 and 1 -> 3 both climb from
  // leaf 0 and descend to leaf 1, at half speed: out at 20000. 0 -> 1 and 2 -> 3 stay in their
  // leaves, apart: out at 10000.
  const std::string tree = "xgft(2; 2,2; 1,1)";
  const auto pairs = [](int a, int b, int c, int d) {
    std::string text = "num_ranks 4\n";
    for (int r = 0; r < 4; ++r) {
      text += "rank " + std::to_string(r) + " {\n";
      if (r == a) text += "l1: send 10000b to " + std::to_string(b) + " tag 0\n";
      if (r == c) text += "l1: send 10000b to " + std::to_string(d) + " tag 0\n";
      if (r == b) text += "l1: recv 10000b from " + std::to_string(a) + " tag 0\n";
      if (r == d) text += "l1: recv 10000b from " + std::to_string(c) + " tag 0\n";
      text += "}\n";
    }
    return text;
  };
  const auto crossing = finishes(pairs(0, 2, 1, 3), simple_on(tree));
  CHECK(crossing[2] == 20010.0);
  CHECK(crossing[3] == 20010.0);
  const auto apart = finishes(pairs(0, 1, 2, 3), simple_on(tree));
  CHECK(apart[1] == 10010.0);
  CHECK(apart[3] == 10010.0);
}

TEST_CASE("simple network: a message counts on its links until polled, and G is charged on top") {
  // 100 bytes from rank 0 at 0 (L 1000, o 100: first polled at 1100) and 10000 bytes from rank
  // 1 at 50 into rank 2. The small one has moved its bytes by 150 but holds the link until
  // 1100, so the large one moves 525 bytes by then and is out at 1100 + 9475 = 10575.
  const std::string held =
      "num_ranks 3\nrank 0 {\nl1: send 100b to 2 tag 0\n}\n"
      "rank 1 {\nl1: calc 50\nl2: send 10000b to 2 tag 0\nl2 requires l1\n}\n"
      "rank 2 {\nl1: recv 100b from 0 tag 0\nl2: recv 10000b from 1 tag 0\n}\n";
  CHECK(finishes(held, simple_on(kStar, 1000, 100))[2] == 10675.0);
  // A message entering when another would leave uncongested (its start + s) polls it first:
  // 1000 bytes from rank 0 at 0 (first polled at 5010) are out at 1000, when rank 1's 10000
  // bytes enter, alone: out at 11000, not after 5010 at half speed.
  const std::string due =
      "num_ranks 3\nrank 0 {\nl1: send 1000b to 2 tag 0\n}\n"
      "rank 1 {\nl1: calc 1000\nl2: send 10000b to 2 tag 0\nl2 requires l1\n}\n"
      "rank 2 {\nl1: recv 1000b from 0 tag 0\nl2: recv 10000b from 1 tag 0\n}\n";
  CHECK(finishes(due, simple_on(kStar, 5000))[2] == 11010.0);
  // G = 6: the receiver still pays (s - 1)G on its CPU after the network's 10000 ns.
  const std::string one =
      "num_ranks 3\nrank 0 {\nl1: send 10000b to 2 tag 0\n}\nrank 1 {\n}\n"
      "rank 2 {\nl1: recv 10000b from 0 tag 0\n}\n";
  CHECK(finishes(one, simple_on(kStar, 100, 10, 6))[2] == 10000.0 + 10 + 9999 * 6);
  // Rendezvous (S = 100): the sender is released when the message is taken, at 10000.
  CHECK(finishes(one, simple_on(kStar, 100, 10, 0, 100))[0] == 10000.0);
}

TEST_CASE("simple network: small messages under the latency leave every time as without it") {
  // A recursive-doubling allreduce of 8 bytes on 16 ranks: every message is out of the network
  // (16 ns at most, at half speed) long before its arrival at o + L.
  AlgorithmParams p;
  p.ranks = 16;
  p.message_bytes = 8;
  const Schedule s = find_algorithm("recursive_doubling_allreduce")->generate(p);
  QuietSchedule quiet;
  const ScheduleNet plain = net_of(1000, 10, 5, 1, 0, 65535);
  ScheduleNet shared = plain;
  shared.contention = simple_on("xgft(2; 4,4; 1,2)").contention;
  const ScheduleRun a = simulate_schedule(s, plain, quiet);
  const ScheduleRun b = simulate_schedule(s, shared, quiet);
  CHECK(a.finish == b.finish);
  CHECK(b.network_repolls == 0);
}

TEST_CASE("simple network: a message due when others start is looked at once that instant") {
  // On one switch of 16 endpoints, 4 messages of 100 bytes from the even endpoints at 0, each
  // alone on its links: due to leave at 100 uncongested. At 100, 4 messages start from the odd
  // endpoints to the even ones: the first start finds the 4 due and out (they leave), and the
  // next three look at them no more (LogGOPSim's rule polls them at every start, each poll after
  // the first moving nothing in no time; a round of N starts at one instant cost N^2).
  const std::shared_ptr<const Topology> star = parse_topology("xgft(1; 16; 1)");
  SimpleNetwork net(*star);
  for (std::uint32_t k = 0; k < 4; ++k) net.start(k, 2 * k, 2 * k + 1, 100, 0.0);
  CHECK(net.due_polls() == 0);
  for (std::uint32_t k = 0; k < 4; ++k) net.start(4 + k, 2 * k + 1, 2 * k, 100, 100.0);
  CHECK(net.due_polls() == 4);
  // Off the links since 100: their first poll (their arrival) finds them out, and names its time.
  for (std::uint32_t k = 0; k < 4; ++k) {
    const NetworkPoll p = net.poll(k, 150.0, 0);
    CHECK(p.kind == NetworkPoll::Kind::kLeft);
    CHECK(p.left == 150.0);
  }
  // The second round is due at 200; a start then looks at its 4, once.
  net.start(8, 8, 9, 100, 200.0);
  net.start(9, 10, 11, 100, 200.0);
  CHECK(net.due_polls() == 8);
}

TEST_CASE("simple network: its keys on a schedule point, and what they refuse") {
  ScheduleNet net = net_of(100, 10, 5, 0, 0, 65535);
  ParamReader none(ParamMap{});
  read_contention(none, net);
  CHECK_FALSE(net.contention);
  ParamReader both(ParamMap{{"network.topology", std::string("dragonfly(2, 2, 1, 3)")},
                            {"network.contention", std::string("simple")}});
  read_contention(both, net);
  REQUIRE(net.contention);
  CHECK(net.contention->topology->endpoints() == 12);
  CHECK(net.contention->model_name() == "simple");
  ScheduleNet other = net_of(100, 10, 5, 0, 0, 65535);
  ParamReader topology_only(ParamMap{{"network.topology", std::string("torus(4, 2)")}});
  CHECK_THROWS_WITH(read_contention(topology_only, other), Contains("network.contention"));
  ParamReader model_only(ParamMap{{"network.contention", std::string("simple")}});
  CHECK_THROWS_WITH(read_contention(model_only, other), Contains("network.topology"));
  // Too few endpoints for the schedule's ranks.
  const std::string four = "num_ranks 4\nrank 0 {\n}\nrank 1 {\n}\nrank 2 {\n}\nrank 3 {\n}\n";
  CHECK_THROWS_WITH(finishes(four, simple_on(kStar)), Contains("3 endpoints for 4 ranks"));
}

TEST_CASE("simple network: a run file's schedule point on a topology, its summary") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  write_text("contention-simple.toml", R"toml(name = "c"
seed = 4
samples = 4
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 16
message_bytes = 65536
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 5.0e-8
G = 0.0
[network]
topology = "xgft(2; 4,4; 1,2)"
contention = "simple"
[noise]
law = "periodic"
P = 1.0e-4
D = 5.0e-6
)toml");
  std::filesystem::remove("contention-simple.h5");
  const auto run =
      run_command_line("run contention-simple.toml --out contention-simple.h5 --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto summary = run_command_line("summary contention-simple.h5 --json").output;
  CHECK_THAT(summary, Contains("\"contention\": \"simple\"") &&
                          Contains("\"topology_family\": \"fat-tree\"") &&
                          Contains("\"noiseless_network_repolls\""));
  // The flow model from a run file: the same bits on 1 and 2 threads.
  using collnoise::testing::replace_text;
  write_text("contention-flows.toml",
             replace_text(replace_text(collnoise::testing::slurp("contention-simple.toml"),
                                       "\"simple\"", "\"flows\""),
                          "G = 0.0", "G = 1.0e-10"));
  std::filesystem::remove("contention-flows1.h5");
  std::filesystem::remove("contention-flows2.h5");
  REQUIRE(
      run_command_line("run contention-flows.toml --out contention-flows1.h5 --threads 1 --quiet")
          .code == 0);
  REQUIRE(
      run_command_line("run contention-flows.toml --out contention-flows2.h5 --threads 2 --quiet")
          .code == 0);
  const auto one = run_command_line("summary contention-flows1.h5 --json").output;
  CHECK(one == run_command_line("summary contention-flows2.h5 --json").output);
  CHECK_THAT(one, Contains("\"contention\": \"flows\""));
  // A critical path counts the network's time in a category of its own
  // (tests/engine/schedules/paths/test_network_path.cpp): accepted; its path sensitivities,
  // which no parameter's count gives, are refused, naming the keys.
  write_text("contention-paths.toml", R"toml(name = "c"
seed = 4
samples = 4
[output]
critical_path = true
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 16
[network]
topology = "xgft(2; 4,4; 1,2)"
contention = "simple"
)toml");
  const auto paths = run_command_line("run contention-paths.toml --validate-only");
  INFO(paths.output);
  CHECK(paths.code == 0);
  write_text("contention-path-sensitivities.toml",
             collnoise::testing::slurp("contention-paths.toml") +
                 "[sensitivity]\nparameters = [\"L\"]\nmethod = \"path\"\n");
  const auto sensitivities =
      run_command_line("run contention-path-sensitivities.toml --validate-only");
  CHECK(sensitivities.code == 2);
  CHECK_THAT(sensitivities.output,
             Contains("sensitivity.method") && Contains("network.contention"));
}

namespace {

// The star under the simple model, its ranks placed by the mapping file `name` of `lines`
// (L = 100, o = 10, g = 5, G = 0).
ScheduleNet star_placed_by(const std::string& name, const std::string& lines) {
  std::filesystem::create_directories("contention");
  const std::string path = "contention/" + name;
  testing::write_text(path, lines);
  ParamReader reader(ParamMap{{"network.topology", std::string(kStar)},
                              {"network.contention", std::string("simple")},
                              {"network.placement", std::string("mapping")},
                              {"network.mapping", path}});
  ScheduleNet net = net_of(100, 10, 5, 0, 0, 65535);
  read_contention(reader, net);
  return net;
}

}  // namespace

TEST_CASE("simple network: ranks placed by a mapping file's endpoints") {
  // Ranks 0 and 1 on endpoints 2 and 0 of the star, rank 2 on endpoint 1: rank 0's 10000 bytes
  // to rank 2 and rank 1's 5000 bytes to it still share the link down to rank 2's endpoint.
  const ScheduleNet net = star_placed_by("star.map", "0 0 0 2\n1 1 0 0\n2 2 0 1\n");
  REQUIRE(net.contention);
  CHECK(net.contention->endpoint_of == std::vector<std::uint32_t>{2, 0, 1});
  CHECK_THAT(net.contention->placement, Contains("star.map") && Contains("xxh3:"));
  const std::string two = to_rank_2("l1: send 10000b to 2 tag 0\n", "l1: send 5000b to 2 tag 0\n");
  CHECK(finishes(two, net)[2] == 15010.0);
  // Two ranks on one endpoint: their message leaves the endpoint not at all (an empty route),
  // at a byte per ns.
  const std::string near =
      "num_ranks 3\nrank 0 {\nl1: send 1000b to 1 tag 0\n}\nrank 1 {\nl1: recv 1000b from 0 tag "
      "0\n}\nrank 2 {\n}\n";
  CHECK(finishes(near, star_placed_by("shared.map", "0 0 0 0\n1 0 0 0\n2 1 0 1\n"))[1] == 1010.0);
  // Refusals: a mapping without endpoints, an endpoint beyond the topology, placement alone.
  CHECK_THROWS_WITH(star_placed_by("plain.map", "0 0 0\n1 1 0\n2 2 0\n"),
                    Contains("no endpoint column"));
  CHECK_THROWS_WITH(finishes(two, star_placed_by("far.map", "0 0 0 0\n1 1 0 1\n2 2 0 7\n")),
                    Contains("names endpoint 7"));
  ParamReader alone(ParamMap{{"network.placement", std::string("linear")}});
  ScheduleNet third = net_of(100, 10, 5, 0, 0, 65535);
  CHECK_THROWS_WITH(read_contention(alone, third), Contains("network.placement"));
}

namespace {

// L, o, g, G on `topology` under the flow model, links at 1/G.
ScheduleNet flows_on(const std::string& topology, double L = 100, double o = 10, double g = 5,
                     double G = 1, double O = 0) {
  ScheduleNet net = net_of(L, o, g, G, O, 65535);
  auto spec = std::make_shared<ContentionSpec>();
  spec->topology = parse_topology(topology);
  spec->model = ContentionModel::kFlows;
  spec->bytes_per_ns = 1.0 / G;
  net.contention = std::move(spec);
  return net;
}

ScheduleRun run_of(const std::string& text, const ScheduleNet& net) {
  const Schedule s = read_goal_text(text, "flows.goal");
  QuietSchedule quiet;
  return simulate_schedule(s, net, quiet);
}

}  // namespace

TEST_CASE("flow model: a message alone is charged as LogGOPSim charges it") {
  // 10001 bytes arrive at o + L = 110; the other 10000 flow at 1 byte per ns to 10110; the
  // receiver pays o: 10120 = 110 + o + (s-1)G. With O = 2 its copy overlaps the transfer:
  // 10110 + 10 + (20000 - 10000) = 20120 = 110 + o + max((s-1)O, (s-1)G).
  const std::string one =
      "num_ranks 3\nrank 0 {\nl1: send 10001b to 2 tag 0\n}\nrank 1 {\n}\n"
      "rank 2 {\nl1: recv 10001b from 0 tag 0\n}\n";
  CHECK(run_of(one, flows_on(kStar)).finish[2] == 10120.0);
  CHECK(run_of(one, net_of(100, 10, 5, 1, 0, 65535)).finish[2] == 10120.0);
  CHECK(run_of(one, flows_on(kStar, 100, 10, 5, 1, 2)).finish[2] == 20120.0);
  CHECK(run_of(one, net_of(100, 10, 5, 1, 2, 65535)).finish[2] == 20120.0);
  // A recursive-doubling allreduce on a star: each rank's one message a round in and out of its
  // own links, never shared: the times without contention, to the bit.
  AlgorithmParams p;
  p.ranks = 16;
  p.message_bytes = 4096;
  const Schedule rd = find_algorithm("recursive_doubling_allreduce")->generate(p);
  QuietSchedule quiet;
  const ScheduleRun plain = simulate_schedule(rd, net_of(1000, 10, 5, 1, 0, 65535), quiet);
  const ScheduleRun shared = simulate_schedule(rd, flows_on("xgft(1; 16; 1)", 1000), quiet);
  CHECK(plain.finish == shared.finish);
}

TEST_CASE("flow model: two flows share a link, and one ending frees it at that instant") {
  // 10001 and 5001 bytes into rank 2, both arriving at 110, share its down-link at half a byte
  // per ns: the smaller ends at 110 + 10000 = 10110, the larger then moves its last 5000 bytes
  // alone, to 15110. Two of its wakes came up stale: the first (10110: alone on its links, it
  // took its rate at once, before the other arrived in the same instant) and the second (20110,
  // at half speed).
  const std::string two =
      "num_ranks 3\nrank 0 {\nl1: send 10001b to 2 tag 0\n}\n"
      "rank 1 {\nl1: send 5001b to 2 tag 0\n}\n"
      "rank 2 {\nl1: recv 10001b from 0 tag 0\nl2: recv 5001b from 1 tag 0\n}\n";
  const ScheduleRun run = run_of(two, flows_on(kStar));
  CHECK(run.complete);
  CHECK(run.finish[2] == 15120.0);
  CHECK(run.network_repolls == 2);
  // The receiver busy until 20000 takes both then, once each (o apart).
  const std::string busy =
      "num_ranks 3\nrank 0 {\nl1: send 10001b to 2 tag 0\n}\n"
      "rank 1 {\nl1: send 5001b to 2 tag 0\n}\n"
      "rank 2 {\nl0: calc 20000\nl1: recv 10001b from 0 tag 0\n"
      "l2: recv 5001b from 1 tag 0\nl1 requires l0\nl2 requires l0\n}\n";
  const ScheduleRun late = run_of(busy, flows_on(kStar));
  CHECK(late.complete);
  CHECK(late.finish[2] == 20020.0);
}

TEST_CASE("flow model: max-min shares, not one over the most crowded link's count") {
  // On a star of 5 (o = g = 0, so every message arrives at L = 100): X 0 -> 1 and Y 0 -> 2
  // share rank 0's up-link; Y, Z 3 -> 2 and W 4 -> 2 share rank 2's down-link. That link fixes
  // Y, Z, W at 1/3; X takes the rest of the up-link, 2/3: its 3000 bytes end at 100 + 4500.
  // (LogGOPSim's rule would give X 1/2.) Y, Z, W end at 100 + 9000.
  const std::string text =
      "num_ranks 5\nrank 0 {\nl1: send 3001b to 1 tag 0\nl2: send 3001b to 2 tag 0\n}\n"
      "rank 1 {\nl1: recv 3001b from 0 tag 0\n}\n"
      "rank 2 {\nl1: recv 3001b from 0 tag 0\nl2: recv 3001b from 3 tag 0\n"
      "l3: recv 3001b from 4 tag 0\n}\n"
      "rank 3 {\nl1: send 3001b to 2 tag 0\n}\nrank 4 {\nl1: send 3001b to 2 tag 0\n}\n";
  const ScheduleRun run = run_of(text, flows_on("xgft(1; 5; 1)", 100, 0, 0));
  CHECK(run.finish[1] == Approx(4600.0).epsilon(1e-12));
  CHECK(run.finish[2] == Approx(9100.0).epsilon(1e-12));
}

namespace {

// Rank 0 sends 1001 bytes to each of ranks 1..k and ranks k+1..2k each send 1001 bytes to rank 1,
// all at time 0 (o = g = 0), arriving at L = 100 on a star.
std::string fan_out_and_in(int k) {
  std::string text = fmt::format("num_ranks {}\nrank 0 {{\n", 2 * k + 1);
  for (int r = 1; r <= k; ++r) text += fmt::format("l{}: send 1001b to {} tag 0\n", r, r);
  text += "}\nrank 1 {\nl0: recv 1001b from 0 tag 0\n";
  for (int r = k + 1; r <= 2 * k; ++r) text += fmt::format("l{}: recv 1001b from {} tag 0\n", r, r);
  text += "}\n";
  for (int r = 2; r <= k; ++r)
    text += fmt::format("rank {} {{\nl1: recv 1001b from 0 tag 0\n}}\n", r);
  for (int r = k + 1; r <= 2 * k; ++r)
    text += fmt::format("rank {} {{\nl1: send 1001b to 1 tag 0\n}}\n", r);
  return text;
}

}  // namespace

TEST_CASE("flow model: max-min shares of a few constraints and of many (scanned, or on a heap)") {
  // Rank 1's down-link carries k + 1 flows, the least share, 1/(k + 1): 1000 bytes end at
  // 100 + 1000 (k + 1). Rank 0's up-link gives its other k - 1 flows the rest, k/(k + 1), shared:
  // k / ((k + 1)(k - 1)) each, ending at 100 + 1000 (k + 1)(k - 1) / k. k = 4: 2 shared links and
  // 8 flows, few enough to be scanned; k = 40: 82 constraints, filled on the heap.
  for (const int k : {4, 40}) {
    CAPTURE(k);
    const ScheduleRun run =
        run_of(fan_out_and_in(k), flows_on(fmt::format("xgft(1; {}; 1)", 2 * k + 1), 100, 0, 0));
    REQUIRE(run.complete);
    const double kk = k;
    CHECK(run.finish[1] == Approx(100.0 + 1000.0 * (kk + 1)).epsilon(1e-12));
    for (int r = 2; r <= k; ++r)
      CHECK(run.finish[static_cast<std::size_t>(r)] ==
            Approx(100.0 + 1000.0 * (kk + 1) * (kk - 1) / kk).epsilon(1e-12));
  }
}

TEST_CASE("flow model: a dragonfly's global link is the bottleneck") {
  // dragonfly(1, 2, 1, 3): one global cable between any two groups. 0 -> 2 and 1 -> 3 both
  // cross group 0's cable to group 1, at half a byte per ns each: 1000 bytes end at
  // 100 + 2000. 4 -> 5 stays in group 2, alone: 100 + 1000.
  const std::string text =
      "num_ranks 6\nrank 0 {\nl1: send 1001b to 2 tag 0\n}\nrank 1 {\nl1: send 1001b to 3 tag 0\n}"
      "\nrank 2 {\nl1: recv 1001b from 0 tag 0\n}\nrank 3 {\nl1: recv 1001b from 1 tag 0\n}\n"
      "rank 4 {\nl1: send 1001b to 5 tag 0\n}\nrank 5 {\nl1: recv 1001b from 4 tag 0\n}\n";
  const ScheduleRun run = run_of(text, flows_on("dragonfly(1, 2, 1, 3)", 100, 0, 0));
  CHECK(run.finish[2] == 2100.0);
  CHECK(run.finish[3] == 2100.0);
  CHECK(run.finish[5] == 1100.0);
}

TEST_CASE("contention on a dot file's topology: its routes, and its links' bandwidth for flows") {
  // Two switches joined by one cable, two hosts on each (LogGOPSim's format: routes in the
  // edges' comments): 0 -> 2 and 1 -> 3 both cross S0 -> S1, at half speed each.
  std::filesystem::create_directories("contention");
  testing::write_text("contention/two.dot", R"dot(digraph two {
  edge [comment="*"];
  H0; H1; H2; H3; S0; S1;
  H0 -> S0; H1 -> S0; H2 -> S1; H3 -> S1;
  S0 -> H0 [comment="H0"]; S0 -> H1 [comment="H1"]; S0 -> S1 [comment="H2, H3", bandwidth=0.25];
  S1 -> H2 [comment="H2"]; S1 -> H3 [comment="H3"]; S1 -> S0 [comment="H0 H1"];
}
)dot");
  const auto net_for = [](const std::string& model) {
    ParamReader reader(ParamMap{{"network.topology_file", std::string("contention/two.dot")},
                                {"network.contention", model}});
    ScheduleNet net = net_of(100, 10, 5, 1, 0, 65535);
    read_contention(reader, net);
    return net;
  };
  const std::string crossing =
      "num_ranks 4\nrank 0 {\nl1: send 10001b to 2 tag 0\n}\nrank 1 {\nl1: send 10001b to 3 tag "
      "0\n}\nrank 2 {\nl1: recv 10001b from 0 tag 0\n}\nrank 3 {\nl1: recv 10001b from 1 tag "
      "0\n}\n";
  // The simple model ignores the bandwidth: 1 byte per ns over 2, then (s-1)G on top.
  const ScheduleNet simple = net_for("simple");
  CHECK(simple.contention->topology->family() == "dot file");
  CHECK(finishes(crossing, simple)[2] == 20002.0 + 10 + 10000);
  // Flows: the cable's 0.25 byte per ns shared by two, 10000 bytes each from 110: 110 + 80000.
  CHECK(finishes(crossing, net_for("flows"))[2] == 80110.0 + 10);
  // The cable's latency of 500 ns (ours; LogGOPSim ignores it) delays the first bytes of both
  // under flows, by 500 from 110, and is not the simple model's.
  testing::write_text("contention/two-latency.dot",
                      testing::replace_text(testing::slurp("contention/two.dot"), "bandwidth=0.25",
                                            "bandwidth=0.25, latency=500"));
  const auto with_latency = [](const std::string& model) {
    ParamReader reader(
        ParamMap{{"network.topology_file", std::string("contention/two-latency.dot")},
                 {"network.contention", model}});
    ScheduleNet net = net_of(100, 10, 5, 1, 0, 65535);
    read_contention(reader, net);
    return net;
  };
  CHECK(finishes(crossing, with_latency("flows"))[2] == 80610.0 + 10);
  CHECK(finishes(crossing, with_latency("simple"))[2] == 20002.0 + 10 + 10000);
  // A 1-byte message leaves at the end of the hops: 110 + 500, its receiver o later.
  const std::string one_byte =
      "num_ranks 4\nrank 0 {\nl1: send 1b to 2 tag 0\n}\nrank 1 {\n}\nrank 2 {\nl1: recv 1b "
      "from 0 tag 0\n}\nrank 3 {\n}\n";
  CHECK(finishes(one_byte, with_latency("flows"))[2] == 620.0);
  CHECK(finishes(one_byte, net_for("flows"))[2] == 120.0);
  ParamReader both(ParamMap{{"network.topology_file", std::string("contention/two.dot")},
                            {"network.topology", std::string("torus(4, 1)")},
                            {"network.contention", std::string("flows")}});
  ScheduleNet refused = net_of(100, 10, 5, 1, 0, 65535);
  CHECK_THROWS_WITH(read_contention(both, refused), Contains("not both"));
}
