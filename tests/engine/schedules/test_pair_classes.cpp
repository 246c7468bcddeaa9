// Near and far rank pairs (docs/models/schedules.md, "Near and far rank pairs"): the classes from
// network.nodes_per_switch (with network.ranks_per_node) or a rank mapping file, each class's
// LogGOPS costs and measured pools, worked by hand on small schedules (hand_net: L 1000, o 100,
// g 50, G 1 ns per byte, O 0; the far class L 3000, G 2).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "distributions/latency_samples.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/pair_class_keys.hpp"
#include "engine/schedules/rank_mapping.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::test::hand_net;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  std::filesystem::create_directories("pair_classes");
  const std::string path = "pair_classes/" + name;
  std::ofstream(path) << text;
  return path;
}

// hand_net with classes: ranks r and q near iff floor(r / per_switch) = floor(q / per_switch);
// the far class L 3000 and G 2 (and S `far_S`).
ScheduleNet classed_net(std::uint32_t per_switch, std::uint64_t far_S = 65535) {
  ScheduleNet net = hand_net();
  auto classes = std::make_shared<PairClasses>();
  classes->switches.ranks_per_switch = per_switch;
  classes->far = hand_net();
  classes->far.L = 3000.0;
  classes->far.G = 2.0;
  classes->far.S = far_S;
  net.classes = std::move(classes);
  return net;
}

// Four ranks: rank 0 sends 100 bytes to rank 1, then 100 bytes to rank 2.
Schedule near_and_far() {
  return read_goal_text(
      "num_ranks 4\nrank 0 {\nl1: send 100b to 1 tag 0\nl2: send 100b to 2 tag 0\nl2 requires "
      "l1\n}\nrank 1 {\nl1: recv 100b from 0 tag 0\n}\nrank 2 {\nl1: recv 100b from 0 tag 0\n}\n"
      "rank 3 {\n}\n",
      "near_far.goal");
}

// Rank 1's finishing time after rank 0 sends it `bytes` bytes under `delays` on `net`, to a
// thousandth of a nanosecond.
double ping(const MessageDelays& delays, const ScheduleNet& net, std::uint64_t bytes,
            std::uint64_t key) {
  const Schedule s = read_goal_text("num_ranks 2\nrank 0 {\nl1: send " + std::to_string(bytes) +
                                        "b to 1 tag 0\n}\n" + "rank 1 {\nl1: recv " +
                                        std::to_string(bytes) + "b from 0 tag 0\n}\n",
                                    "ping.goal");
  QuietSchedule quiet;
  WithMessageDelays<QuietSchedule> noise(quiet, delays, key);
  return std::round(simulate_schedule(s, net, noise).finish[1] * 1000.0) / 1000.0;
}

// A latency pool of one `lat_us` one-way sample, and a bandwidth pool of 4096-byte messages at
// `g1` and `g2` ns per byte.
std::shared_ptr<const LatencySamples> pools(const std::string& name, double lat_us, double g1,
                                            double g2) {
  const auto lat = write_file(name + "-lat.out", "1\t" + std::to_string(lat_us) + "\n");
  const auto bw = write_file(name + "-bw.out", "4096\t" + std::to_string(4.096 * g1) + "\n4096\t" +
                                                   std::to_string(4.096 * g2) + "\n");
  return std::make_shared<const LatencySamples>(
      LatencySamples::from_files({lat, bw}, 1e-9, LatencyColumn::kOneWay));
}

}  // namespace

TEST_CASE("near and far pairs: each message charged its pair's class's LogGOPS") {
  const Schedule s = near_and_far();
  QuietSchedule quiet;
  // Rank 0's first send (near, to 1) at 0: its CPU busy to 100, its NIC to 50 + 99 G = 149; the
  // message arrives at o + L = 1100 and rank 1's receive ends at 1100 + 100 + 99 = 1299. The
  // second (far, to 2) starts at 149: it arrives at 149 + 100 + 3000 = 3249, and rank 2's
  // receive takes o + 99 * 2 = 298, to 3547.
  const ScheduleRun classed = simulate_schedule(s, classed_net(2), quiet);
  CHECK(classed.finish[1] == 1299.0);
  CHECK(classed.finish[2] == 3547.0);
  CHECK(classed.finish[0] == 249.0);
  // Without classes both are near: rank 2 done at 149 + 1100 + 199 = 1448.
  const ScheduleRun plain = simulate_schedule(s, hand_net(), quiet);
  CHECK(plain.finish[1] == 1299.0);
  CHECK(plain.finish[2] == 1448.0);
  // With 4 ranks per switch every pair is near: as without classes.
  CHECK(simulate_schedule(s, classed_net(4), quiet).finish == plain.finish);
  // The far class's S = 10: the far message goes by rendezvous, its sender released when rank
  // 2's posted receive takes it at 3249; the near one stays eager.
  const ScheduleRun rendezvous = simulate_schedule(s, classed_net(2, 10), quiet);
  CHECK(rendezvous.finish[0] == 3249.0);
  CHECK(rendezvous.finish[1] == 1299.0);
  CHECK(rendezvous.finish[2] == 3547.0);
}

TEST_CASE("near and far pairs: LogGP draws L and each block's G from the pair's class's pools") {
  // One rank per switch: the ping 0 -> 1 is far. Near pools: L 2 us, G 1 or 2 ns per byte; far
  // pools: L 3 us, G 3 or 5. Whole samples: the wire is the L sample less 2 o, the receive then
  // charged the drawn bytes' time, so a far ping of 4097 bytes ends at 100 + 2800 + 100 + 4096 G.
  const PoolDrawOptions block{.loggp = true, .per_block = true, .block_bytes = 1024};
  const auto near_pools = pools("near", 2.0, 1.0, 2.0), far_pools = pools("far", 3.0, 3.0, 5.0);
  const auto delays_on = [&](const ScheduleNet& net) {
    MessageDelays d(near_pools, true, hand_net(), block);
    d.set_far(net.classes,
              std::make_shared<const MessageDelays>(far_pools, true, net.classes->far, block));
    return d;
  };
  const ScheduleNet net = classed_net(1);
  const MessageDelays delays = delays_on(net);
  std::set<double> seen;
  for (std::uint64_t key = 0; key < 400; ++key) seen.insert(ping(delays, net, 4097, key));
  // Four blocks of 1024 bytes, each 3 or 5 ns per byte: 3000 + 4096 * 3 in steps of 2048.
  CHECK(seen == std::set<double>{15288.0, 17336.0, 19384.0, 21432.0, 23480.0});
  // The same pair near (two ranks per switch): the near pools, 2000 + 4096 in steps of 1024.
  seen.clear();
  const ScheduleNet near_net = classed_net(2);
  const MessageDelays near_delays = delays_on(near_net);
  for (std::uint64_t key = 0; key < 400; ++key) seen.insert(ping(near_delays, near_net, 4097, key));
  CHECK(seen == std::set<double>{6096.0, 7120.0, 8144.0, 9168.0, 10192.0});
  CHECK(&delays.of_pair(0, 1) == delays.far().get());
  CHECK(&delays.of_pair(0, 0) == &delays);
}

TEST_CASE("near and far pairs: the keys, the far values over the near ones, the refusals") {
  ScheduleNet net = hand_net();
  ScheduleNet large = hand_net();
  large.o = 400.0;
  net.size_limits = {1024, 1u << 30};
  net.by_size = {hand_net(), large};
  ParamReader reader(ParamMap{{"network.nodes_per_switch", std::int64_t{2}},
                              {"network.ranks_per_node", std::int64_t{3}},
                              {"loggops.far.L", 3e-6},
                              {"loggops.far.S", std::int64_t{10}}});
  read_pair_classes(reader, net);
  REQUIRE(net.classes);
  const PairClasses& c = *net.classes;
  // Nodes of 3 ranks, 2 nodes a switch: ranks 0-5 near each other, 6 far from them.
  CHECK(c.switches.ranks_per_switch == 6);
  CHECK(c.switches.near(0, 5));
  CHECK_FALSE(c.switches.near(5, 6));
  CHECK_THAT(c.switches.rule, Contains("nodes_per_switch = 2") && Contains("ranks_per_node = 3"));
  // The far L and S at every size; o stays the near one's, per size.
  CHECK(c.far.L == 3000.0);
  CHECK(c.far.S == 10);
  REQUIRE(c.far.by_size.size() == 2);
  CHECK(c.far.by_size[1].L == 3000.0);
  CHECK(c.far.by_size[1].o == 400.0);
  CHECK(c.far.by_size[1].S == 10);
  CHECK(&loggopsim::for_pair(net, 0, 6, 2048) == &c.far.by_size[1]);
  CHECK(&loggopsim::for_pair(net, 0, 5, 2048) == &net.by_size[1]);
  CHECK(net.L == 1000.0);
  // Without classes the net stays as it is, and the far keys are refused.
  ScheduleNet plain = hand_net();
  ParamReader none(ParamMap{});
  read_pair_classes(none, plain);
  CHECK_FALSE(plain.classes);
  ParamReader far_only(ParamMap{{"loggops.far.G", 2e-9}});
  CHECK_THROWS_WITH(read_pair_classes(far_only, plain),
                    Contains("loggops.far.G") && Contains("network.nodes_per_switch"));
  ParamReader per_node(ParamMap{{"network.ranks_per_node", std::int64_t{2}}});
  CHECK_THROWS_WITH(read_pair_classes(per_node, plain), Contains("network.ranks_per_node"));
  const auto map = write_file("both.map", "0 0 0\n");
  ParamReader both(
      ParamMap{{"network.nodes_per_switch", std::int64_t{2}}, {"network.mapping", map}});
  CHECK_THROWS_WITH(read_pair_classes(both, plain), Contains("not both"));
}

TEST_CASE("rank mapping files: read, and damaged or incomplete ones refused with file:line") {
  // Two nodes of two ranks on switch 0, and rank 4 alone on switch 7 (in any order, comments).
  const auto good = write_file("good.map",
                               "# rank node switch\n0 0 0\n1 0 0\n\n3 1 0  # node 1\n2 1 0\n"
                               "4\t2\t7\n");
  const RankMapping m = read_rank_mapping(good);
  CHECK(m.node_of == std::vector<std::uint32_t>{0, 0, 1, 1, 2});
  CHECK(m.switch_of == std::vector<std::uint32_t>{0, 0, 0, 0, 7});
  CHECK_THROWS_WITH(read_rank_mapping(write_file("gap.map", "0 0 0\n2 1 0\n")),
                    Contains("gap.map") && Contains("rank 1 is missing"));
  CHECK_THROWS_WITH(read_rank_mapping(write_file("bad.map", "0 0 0\n1 0\n")),
                    Contains("bad.map:2") && Contains("rank node switch"));
  CHECK_THROWS_WITH(read_rank_mapping(write_file("word.map", "0 0 0\n1 x 0\n")),
                    Contains("word.map:2"));
  CHECK_THROWS_WITH(read_rank_mapping(write_file("twice.map", "0 0 0\n# again\n0 1 0\n")),
                    Contains("twice.map:3") && Contains("first at line 1"));
  CHECK_THROWS_WITH(read_rank_mapping(write_file("split.map", "0 0 0\n1 0 1\n")),
                    Contains("split.map:2") && Contains("node 0"));
  CHECK_THROWS_WITH(read_rank_mapping(write_file("empty.map", "# nothing\n")),
                    Contains("empty.map") && Contains("no ranks"));
  CHECK(m.endpoint_of.empty());
  // A fourth column places each node on a topology's endpoint; every line has it then, and a
  // node has one endpoint.
  const RankMapping placed =
      read_rank_mapping(write_file("placed.map", "0 0 0 5\n1 0 0 5\n2 1 0 3\n"));
  CHECK(placed.endpoint_of == std::vector<std::uint32_t>{5, 5, 3});
  CHECK_THROWS_WITH(read_rank_mapping(write_file("short.map", "0 0 0 5\n1 1 0\n")),
                    Contains("short.map:2") && Contains("rank node switch endpoint"));
  CHECK_THROWS_WITH(read_rank_mapping(write_file("long.map", "0 0 0\n1 1 0 4\n")),
                    Contains("long.map:2") && Contains("three whole numbers"));
  CHECK_THROWS_WITH(read_rank_mapping(write_file("moved.map", "0 0 0 5\n1 0 0 6\n")),
                    Contains("moved.map:2") && Contains("node 0 on endpoint 6"));
  // Read as network.mapping: near iff on one switch; a schedule of more ranks is refused.
  ScheduleNet net = hand_net();
  ParamReader reader(ParamMap{{"network.mapping", write_file("three.map", "0 0 0\n1 1 0\n2 2 1\n")},
                              {"loggops.far.L", 3e-6},
                              {"loggops.far.G", 2e-9}});
  read_pair_classes(reader, net);
  REQUIRE(net.classes);
  CHECK(net.classes->switches.near(0, 1));
  CHECK_FALSE(net.classes->switches.near(0, 2));
  CHECK_THAT(net.classes->switches.rule, Contains("3 ranks on 2 switches"));
  QuietSchedule quiet;
  CHECK_THROWS_WITH(simulate_schedule(near_and_far(), net, quiet),
                    Contains("three.map") && Contains("3 ranks") && Contains("has 4"));
  // Four ranks, two a switch: the hand computation of the first test.
  ParamReader four(
      ParamMap{{"network.mapping", write_file("four.map", "0 0 0\n1 1 0\n2 2 1\n3 3 1\n")},
               {"loggops.far.L", 3e-6},
               {"loggops.far.G", 2e-9}});
  ScheduleNet mapped = hand_net();
  read_pair_classes(four, mapped);
  CHECK(simulate_schedule(near_and_far(), mapped, quiet).finish[2] == 3547.0);
}
