// The load of a shared network's links (engine/network/link_load.hpp; docs/timelines.md, "Link
// load"): hand cases of both models on a star, xgft(1; 3; 1) (endpoint e's up-link is link 2e,
// its down-link 2e + 1), with the exact step functions, busy times, means and utilisations,
// background counted; the links' names of every family.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "engine/network/contention_spec.hpp"
#include "engine/network/link_load.hpp"
#include "engine/network/simple_network.hpp"
#include "engine/network/topology_keys.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using collnoise::test::net_of;

namespace {

const std::string kStar = "xgft(1; 3; 1)";
constexpr LinkId kDownTo2 = 5;

// L = 100, o = 10, g = 5 on the star, told to `listener`; G = 1 for flows (links of 1 byte per
// ns), 0 for the simple model (whose receiver would pay (s-1)G again on its CPU).
ScheduleNet star_net(ContentionModel model, LinkLoadListener& listener,
                     std::vector<std::uint32_t> background = {}) {
  ScheduleNet net = net_of(100, 10, 5, model == ContentionModel::kFlows ? 1 : 0, 0, 65535);
  auto spec = std::make_shared<ContentionSpec>();
  spec->topology = parse_topology(kStar);
  spec->model = model;
  spec->bytes_per_ns = 1.0;
  spec->listener = &listener;
  if (!background.empty())
    spec->background_load = std::make_shared<const std::vector<std::uint32_t>>(background);
  net.contention = std::move(spec);
  return net;
}

ScheduleRun run_of(const std::string& text, const ScheduleNet& net) {
  const Schedule s = read_goal_text(text, "links.goal");
  QuietSchedule quiet;
  return simulate_schedule(s, net, quiet);
}

double completion(const ScheduleRun& run) {
  return *std::max_element(run.finish.begin(), run.finish.end());
}

const LinkLoadStats& stats_of(const std::vector<LinkLoadStats>& all, LinkId link) {
  const auto at =
      std::find_if(all.begin(), all.end(), [&](const auto& s) { return s.link == link; });
  REQUIRE(at != all.end());
  return *at;
}

std::vector<LinkId> every_link(std::uint64_t bound) {
  std::vector<LinkId> links(bound);
  for (std::size_t k = 0; k < links.size(); ++k) links[k] = static_cast<LinkId>(k);
  return links;
}

// Ranks 0 and 1 send `first` and `second` bytes to rank 2 at 0.
std::string two_into_2(int first, int second) {
  return "num_ranks 3\nrank 0 {\nl1: send " + std::to_string(first) +
         "b to 2 tag 0\n}\nrank 1 {\nl1: send " + std::to_string(second) +
         "b to 2 tag 0\n}\nrank 2 {\nl1: recv " + std::to_string(first) +
         "b from 0 tag 0\nl2: recv " + std::to_string(second) + "b from 1 tag 0\n}\n";
}

}  // namespace

TEST_CASE("link load, simple model: two senders' messages on one link, by hand") {
  // 10000 and 5000 bytes into rank 2 at 0 share its down-link: 2 messages there until the
  // smaller leaves at 10000 (5000 bytes at half a byte per ns), 1 until the larger leaves at
  // 15000; rank 2 takes it then and finishes at 15010. Each sender's up-link holds its own.
  LinkLoadRecorder recorder(6, every_link(6));
  const ScheduleRun run =
      run_of(two_into_2(10000, 5000), star_net(ContentionModel::kSimple, recorder));
  REQUIRE(run.complete);
  REQUIRE(completion(run) == 15010.0);
  const std::vector<LinkLoadStats> all = recorder.result(completion(run));
  // Busiest first: the shared down-link (15000 bytes), then rank 0's up-link, then rank 1's.
  REQUIRE(all.size() == 3);
  CHECK(all[0].link == kDownTo2);
  CHECK(all[1].link == 0);
  CHECK(all[2].link == 2);
  const LinkLoadStats& down = all[0];
  CHECK(down.steps == std::vector<LinkStep>{{0.0, 2, 0.0}, {10000.0, 1, 0.0}, {15000.0, 0, 0.0}});
  CHECK(down.bytes == 15000);
  CHECK(down.busy_ns == 15000.0);
  CHECK(down.max_messages == 2);
  CHECK(down.mean_messages == (2.0 * 10000 + 1.0 * 5000) / 15010.0);
  CHECK(down.bandwidth == 1.0);
  CHECK(down.utilisation == 15000.0 / 15010.0);
  CHECK(down.mean_rate == 0.0);
  CHECK(down.steps_end_ns == 15010.0);
  CHECK_FALSE(down.steps_truncated);
  CHECK(all[1].steps == std::vector<LinkStep>{{0.0, 1, 0.0}, {15000.0, 0, 0.0}});
  CHECK(all[1].busy_ns == 15000.0);
  CHECK(all[2].steps == std::vector<LinkStep>{{0.0, 1, 0.0}, {10000.0, 0, 0.0}});
  CHECK(all[2].bytes == 5000);
  CHECK(all[2].busy_ns == 10000.0);
}

TEST_CASE("link load, simple model: the background counts on its link for good") {
  // One background message on rank 2's down-link: 1000 bytes from 0 to 2 at 0 move at half a
  // byte per ns and, polled at 2000, leave then. The link holds 2 messages over [0, 2000) and
  // its background's 1 to the end (3000); it was busy (ours) 2000 ns.
  const auto topology = parse_topology(kStar);
  std::vector<std::uint32_t> background(6, 0);
  background[kDownTo2] = 1;
  LinkLoadRecorder recorder(6, every_link(6));
  SimpleNetwork net(*topology, {}, background);
  net.set_listener(&recorder);
  net.start(1, 0, 2, 1000, 0.0);
  CHECK(net.poll(1, 1999.0, 0).kind == NetworkPoll::Kind::kAgain);
  CHECK(net.poll(1, 2000.0, 0).kind == NetworkPoll::Kind::kLeft);
  const std::vector<LinkLoadStats> all = recorder.result(3000.0);
  const LinkLoadStats& down = stats_of(all, kDownTo2);
  CHECK(down.steps == std::vector<LinkStep>{{0.0, 2, 0.0}, {2000.0, 1, 0.0}});
  CHECK(down.background == 1);
  CHECK(down.busy_ns == 2000.0);
  CHECK(down.max_messages == 2);
  CHECK(down.mean_messages == (2.0 * 2000 + 1.0 * 1000) / 3000.0);
  CHECK(down.utilisation == 1000.0 / 3000.0);
  // Rank 0's up-link has no background: 1 message, then none.
  CHECK(stats_of(all, 0).steps == std::vector<LinkStep>{{0.0, 1, 0.0}, {2000.0, 0, 0.0}});
  // Links with none of our messages are not listed, background or not.
  CHECK(all.size() == 2);
}

TEST_CASE("link load, flow model: two flows on one link share its bandwidth, by hand") {
  // 10001 and 5001 bytes into rank 2, both arriving at 110, share its down-link at half a byte
  // per ns each: their rates sum to its bandwidth, 1 byte per ns. The smaller ends at 10110,
  // the larger then takes the whole link, to 15110; rank 2 finishes at 15120. The flows carry
  // their s - 1 bytes: 15000.
  LinkLoadRecorder recorder(6, every_link(6));
  const ScheduleRun run =
      run_of(two_into_2(10001, 5001), star_net(ContentionModel::kFlows, recorder));
  REQUIRE(run.complete);
  REQUIRE(completion(run) == 15120.0);
  const std::vector<LinkLoadStats> all = recorder.result(completion(run));
  REQUIRE(all.size() == 3);
  const LinkLoadStats& down = all[0];
  CHECK(down.link == kDownTo2);
  CHECK(down.steps == std::vector<LinkStep>{
                          {0.0, 0, 0.0}, {110.0, 2, 1.0}, {10110.0, 1, 1.0}, {15110.0, 0, 0.0}});
  CHECK(down.bytes == 15000);
  CHECK(down.max_rate == down.bandwidth);
  CHECK(down.bandwidth == 1.0);
  CHECK(down.busy_ns == 15000.0);
  CHECK(down.utilisation == 15000.0 / (1.0 * 15120.0));
  CHECK(down.mean_rate == 15000.0 / 15120.0);
  CHECK(down.mean_messages == (2.0 * 10000 + 1.0 * 5000) / 15120.0);
  // Rank 1's up-link carries the smaller flow alone, at the half the shared link leaves it.
  const LinkLoadStats& up1 = stats_of(all, 2);
  CHECK(up1.steps == std::vector<LinkStep>{{0.0, 0, 0.0}, {110.0, 1, 0.5}, {10110.0, 0, 0.0}});
  CHECK(up1.bytes == 5000);
  CHECK(up1.max_rate == 0.5);
  CHECK(up1.utilisation == 5000.0 / 15120.0);
}

TEST_CASE("link load, flow model: background flows count on the link and take its share") {
  // One background flow on rank 2's down-link: 1001 bytes from 0 arrive at 110 and flow at half
  // the link's byte per ns, to 2110; rank 2 finishes at 2120. The link holds 1 (background),
  // then 2, then 1; our rate 0.5.
  std::vector<std::uint32_t> background(6, 0);
  background[kDownTo2] = 1;
  LinkLoadRecorder recorder(6, every_link(6));
  const std::string one =
      "num_ranks 3\nrank 0 {\nl1: send 1001b to 2 tag 0\n}\nrank 1 {\n}\n"
      "rank 2 {\nl1: recv 1001b from 0 tag 0\n}\n";
  const ScheduleRun run = run_of(one, star_net(ContentionModel::kFlows, recorder, background));
  REQUIRE(completion(run) == 2120.0);
  const std::vector<LinkLoadStats> all = recorder.result(completion(run));
  const LinkLoadStats& down = stats_of(all, kDownTo2);
  CHECK(down.steps == std::vector<LinkStep>{{0.0, 1, 0.0}, {110.0, 2, 0.5}, {2110.0, 1, 0.0}});
  CHECK(down.background == 1);
  CHECK(down.max_messages == 2);
  CHECK(down.max_rate == 0.5);
  CHECK(down.busy_ns == 2000.0);
  CHECK(down.mean_messages == (1.0 * 110 + 2.0 * 2000 + 1.0 * 10) / 2120.0);
}

TEST_CASE("link load: a run without a listener gives the same times, and steps stop at a bound") {
  // The listener watches; it changes nothing.
  LinkLoadRecorder recorder(6, every_link(6));
  const std::string text = two_into_2(10001, 5001);
  ScheduleNet told = star_net(ContentionModel::kFlows, recorder);
  ScheduleNet plain = told;
  auto spec = std::make_shared<ContentionSpec>(*plain.contention);
  spec->listener = nullptr;
  plain.contention = spec;
  CHECK(run_of(text, told).finish == run_of(text, plain).finish);
  // Two change points kept of the down-link's four: it says so, and where they stop; its
  // statistics still cover the whole run.
  LinkLoadRecorder bounded(6, every_link(6), 2);
  const ScheduleRun run = run_of(text, star_net(ContentionModel::kFlows, bounded));
  const std::vector<LinkLoadStats> kept = bounded.result(completion(run));
  const LinkLoadStats& down = stats_of(kept, kDownTo2);
  CHECK(down.steps == std::vector<LinkStep>{{0.0, 0, 0.0}, {110.0, 2, 1.0}});
  CHECK(down.steps_truncated);
  CHECK(down.steps_end_ns == 10110.0);
  CHECK(down.busy_ns == 15000.0);
  // Untraced links keep their statistics, not their steps.
  LinkLoadRecorder untraced(6, {});
  const ScheduleRun again = run_of(text, star_net(ContentionModel::kFlows, untraced));
  const std::vector<LinkLoadStats> table = untraced.result(completion(again));
  const LinkLoadStats& quiet = stats_of(table, kDownTo2);
  CHECK(quiet.steps.empty());
  CHECK(quiet.busy_ns == 15000.0);
}

TEST_CASE("link names: each family names its links by its own parts") {
  const auto star = parse_topology(kStar);
  CHECK(star->link_name(0) == "up: endpoint 0 -> level-1 switch 0 (up-port 0)");
  CHECK(star->link_name(5) == "down: level-1 switch 0 -> endpoint 2 (up-port 0)");
  // Two levels, two up-ports at the top: endpoint 3 (leaf 1) reaches top switch 1 by port 1.
  const auto tree = parse_topology("xgft(2; 2,2; 1,2)");
  CHECK(tree->link_name(2 * 3) == "up: endpoint 3 -> level-1 switch 1 (up-port 0)");
  // Level-1 cables from 4 on: leaf 1's port 1 is cable 4 + 1 * 2 + 1 = 7.
  CHECK(tree->link_name(2 * 7) == "up: level-1 switch 1 -> level-2 switch 1 (up-port 1)");
  CHECK(tree->link_name(2 * 7 + 1) == "down: level-2 switch 1 -> level-1 switch 1 (up-port 1)");
  const auto torus = parse_topology("torus(4, 2)");
  // Endpoint 5 = (1, 1): its dimension-1 link in the - direction leads to (1, 0) = 1.
  CHECK(torus->link_name((5 * 2 + 1) * 2 + 1) == "endpoint 5 -> 1 (dimension 1, -)");
  CHECK(torus->link_name((5 * 2 + 0) * 2) == "endpoint 5 -> 6 (dimension 0, +)");
  const auto dragonfly = parse_topology("dragonfly(1, 2, 1, 3)");
  // 6 endpoints: injection 0..11; local links from 12 (each router its other one); global from
  // 12 + 6.
  CHECK(dragonfly->link_name(2 * 3) == "injection: endpoint 3 -> group 1 router 1");
  CHECK(dragonfly->link_name(2 * 3 + 1) == "ejection: group 1 router 1 -> endpoint 3");
  CHECK(dragonfly->link_name(12 + 3) == "local: group 1 router 1 -> router 0");
  CHECK(dragonfly->link_name(18 + 3) == "global: group 1 port 1 (router 1) -> group 2");
}
