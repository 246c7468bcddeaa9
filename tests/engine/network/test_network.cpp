// Network noise (docs/models/network.md): topology counts, hand-routed paths, and congestion worked
// out by hand in the manner of Hoefler et al.'s Section 3 walk-through.
#include <catch2/catch.hpp>
#include <set>

#include "core/errors.hpp"
#include "engine/network/congestion.hpp"
#include "engine/network/torus.hpp"
#include "engine/network/xgft.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {
std::vector<LinkId> route(const Topology& t, std::uint64_t s, std::uint64_t d) {
  std::vector<LinkId> path(static_cast<std::size_t>(t.diameter()) + 1);
  path.resize(t.route(s, d, path));
  return path;
}
}  // namespace

TEST_CASE("XGFT layouts of the paper's Table 1: endpoints, switches, links, diameter") {
  struct Row {
    std::vector<std::uint32_t> m, w;
    std::uint64_t endpoints, switches;
  };
  const Row rows[] = {{{12, 12}, {1, 6}, 144, 18},
                      {{12, 24}, {1, 12}, 288, 36},
                      {{12, 12, 8}, {1, 12, 4}, 1152, 240},
                      {{12, 12, 16}, {1, 12, 8}, 2304, 480},
                      {{12, 12, 24}, {1, 12, 12}, 3456, 720},
                      {{12, 12, 12, 6}, {1, 12, 12, 3}, 10368, 3024},
                      {{12, 12, 12, 12}, {1, 12, 12, 6}, 20736, 6048}};
  for (const auto& row : rows) {
    const Xgft t(row.m, row.w, "test");
    INFO(t.describe());
    CHECK(t.endpoints() == row.endpoints);
    CHECK(t.switches() == row.switches);
    CHECK(t.diameter() == 2 * static_cast<int>(row.m.size()));
    // Cables between levels l and l+1: one per up-port of every level-l node.
    std::uint64_t cables = 0;
    for (int l = 0; l < t.height(); ++l)
      cables += t.nodes_at(l) * row.w[static_cast<std::size_t>(l)];
    CHECK(t.links() == 2 * cables);
    // Every route is a valid, loop-free sequence of distinct links within the diameter.
    for (std::uint64_t s : {std::uint64_t{0}, std::uint64_t{7}, row.endpoints - 1})
      for (std::uint64_t d : {std::uint64_t{1}, row.endpoints / 2, row.endpoints - 2}) {
        const auto p = route(t, s, d);
        CHECK(p.size() <= static_cast<std::size_t>(t.diameter()));
        CHECK(std::set<LinkId>(p.begin(), p.end()).size() == p.size());
        for (LinkId l : p) CHECK(l < t.links());
      }
  }
  // XGFT(2; 12,12; 1,6): 144 endpoint cables + 12 leaves x 6 up-ports.
  CHECK(Xgft({12, 12}, {1, 6}, "t").links() == 2 * (144 + 72));
}

TEST_CASE("XGFT routes by hand: up by D-mod-K, then the unique way down") {
  // XGFT(2; 4,4; 1,4): 16 endpoints under 4 leaf switches, 4 top switches (8-port switches).
  // Link numbers: cable (lower node, up-port) of levels l/l+1 is base_l + lower * w_(l+1) + port,
  // up direction 2c, down 2c+1; base_0 = 0 (16 endpoint cables), base_1 = 16.
  const Xgft t({4, 4}, {1, 4}, "t");
  CHECK(t.endpoints() == 16);
  CHECK(t.switches() == 8);
  // 3 -> 7: leaf 0 to leaf 1; up-port at the leaf = 7 mod 4 = 3 (top switch 3).
  // Up: endpoint 3's cable (2*3 = 6), leaf 0 port 3 (2*(16+3) = 38); down: top 3 to leaf 1
  // (2*(16 + 1*4 + 3) + 1 = 47), leaf 1 to endpoint 7 (2*7 + 1 = 15).
  CHECK(route(t, 3, 7) == std::vector<LinkId>{6, 38, 47, 15});
  // Same leaf: up to the leaf switch and down.
  CHECK(route(t, 1, 2) == std::vector<LinkId>{2, 5});
  // 12 -> 1: up-port 1 mod 4 = 1: 2*12 = 24, 2*(16 + 3*4 + 1) = 58, 2*(16 + 0 + 1) + 1 = 35, 3.
  CHECK(route(t, 12, 1) == std::vector<LinkId>{24, 58, 35, 3});
  CHECK(route(t, 5, 5).empty());
}

TEST_CASE("torus layouts and routes by hand") {
  const Torus t3(9, 3, "t");  // the paper's "9-ary 3-cube, 728" has 729 endpoints
  CHECK(t3.endpoints() == 729);
  CHECK(t3.links() == 2 * 3 * 729);
  CHECK(t3.diameter() == 12);
  const Torus t2(100, 2, "t");
  CHECK(t2.endpoints() == 10000);
  CHECK(t2.diameter() == 100);
  CHECK(Torus(20, 3, "t").endpoints() == 8000);
  // 4-ary 2-cube. Link of endpoint e, dimension j, direction (+ 0, - 1): 2 (2 e + j) + dir.
  const Torus t(4, 2, "t");
  CHECK(route(t, 0, 2) == std::vector<LinkId>{0, 4});  // two steps either way: ties go +
  CHECK(route(t, 0, 3) == std::vector<LinkId>{1});     // one step the negative way
  CHECK(route(t, 0, 5) == std::vector<LinkId>{0, 6});  // dimension 0, then dimension 1 from 1
  CHECK(route(t, 6, 1) == std::vector<LinkId>{2 * (2 * 6) + 1, 2 * (2 * 5 + 1) + 1});
  for (std::uint64_t s = 0; s < 16; ++s)
    for (std::uint64_t d = 0; d < 16; ++d) CHECK(route(t, s, d).size() <= 4);
  CHECK_THROWS_WITH(Torus(1, 2, "network.topology"), Contains("network.topology"));
  CHECK_THROWS_WITH(Xgft({4, 4}, {1}, "network.topology"), Contains("network.topology"));
  CHECK_THROWS_WITH(Xgft({4, 0}, {1, 4}, "network.topology"), Contains("m_2"));
}

TEST_CASE("congestion worked by hand: binomial tree on 8 processes, 16-endpoint fat-tree") {
  // The setting of Hoefler et al.'s Section 3 (their figures were lost): XGFT(2; 4,4; 1,4), the
  // paper's mapping pi = (3, 6, 5, 13, 7, 9, 0, 10) and background pairs
  // C = {(1,4), (2,11), (4,15), (8,12), (11,14), (12,1), (14,8), (15,2)}. Endpoint e sits on leaf
  // e/4 at position e%4; a route between leaves goes through top switch (destination mod 4).
  // Background uses each leaf-to-top link (L0,t0) (L0,t3) (L1,t3) (L2,t0) (L2,t2) (L3,t1)
  // (L3,t0) (L3,t2) and each top-to-leaf link t0>L1 t3>L2 t3>L3 t0>L3 t2>L3 t1>L0 t0>L2 t2>L0
  // once. Broadcast rounds (processes -> endpoints):
  //   r0: 0->1 (3->6: L0,t2 / t2>L1): load 1.
  //   r1: 0->2 (3->5: L0,t1), 1->3 (6->13: L1,t1): 1 and 1.
  //   r2: 0->4 (3->7: L0,t3 shared with 2->11): 2; 1->5 (6->9): 1; 2->6 (5->0): 1;
  //       3->7 (13->10: L3,t2 shared with 15->2): 2.
  // Longest paths: quiet 0-1-3-7 = 3; perturbed 0-1-3-7 = 1 + 1 + 2 = 4.
  auto fat = std::make_shared<const Xgft>(std::vector<std::uint32_t>{4, 4},
                                          std::vector<std::uint32_t>{1, 4}, "t");
  NetworkAllocation a;
  a.process_endpoint = {3, 6, 5, 13, 7, 9, 0, 10};
  a.background = {{1, 4}, {2, 11}, {4, 15}, {8, 12}, {11, 14}, {12, 1}, {14, 8}, {15, 2}};
  const CongestionModel bcast(fat, NetworkPattern::kBinomialBroadcast, 0.5, std::nullopt);
  const auto b = bcast.evaluate(a, {});
  CHECK(b.quiet == 3.0);
  CHECK(b.perturbed == 4.0);
  CHECK(b.clean == 3.0);
  // Binomial reduce to rank 0 on the same allocation:
  //   r0: 1->0 (6->3: L1,t3) 2; 3->2 (13->5: L3,t1) 2; 5->4 (9->7) 1; 7->6 (10->0: L2,t0) 2.
  //   r1: 2->0 (5->3: L1,t3) 2; 6->4 (0->7: L0,t3) 2.   r2: 4->0 (7->3: L1,t3) 2.
  // Quiet: every message 1, the root done at 3. Perturbed: ready(0) = 2, ready(2) = 2,
  // ready(4) = 1, ready(6) = 2; then ready(0) = max(2, 2 + 2) = 4, ready(4) = max(1, 2 + 2) = 4;
  // then ready(0) = max(4, 4 + 2) = 6.
  const CongestionModel reduce(fat, NetworkPattern::kBinomialReduce, 0.5, std::nullopt);
  const auto r = reduce.evaluate(a, {});
  CHECK(r.quiet == 3.0);
  CHECK(r.perturbed == 6.0);
  // OS delays add to the sender's step: delay 0.5 on process 3's round-2 send (3->7) lengthens
  // the broadcast's longest path by 0.5 in both evaluations, not in the clean one.
  std::vector<double> delays(3 * 8, 0.0);
  delays[2 * 8 + 3] = 0.5;
  const auto d = bcast.evaluate(a, delays);
  CHECK(d.quiet == 3.5);
  CHECK(d.perturbed == 4.5);
  CHECK(d.clean == 3.0);
}

TEST_CASE("congestion worked by hand: application traffic alone on a ring of four") {
  // 4-ary 1-cube, processes on endpoints 0..3, no background. Butterfly round 0: 0<->1, 2<->3,
  // all single hops on distinct links: cost 1. Round 1: 0<->2 and 1<->3 are two hops each way
  // and ties go the positive way, so all four messages go round clockwise: each link (e,+)
  // carries two of them, every message costs 2. Done at 1 + 2 = 3. The broadcast: 0->1 costs 1;
  // then 0->2 and 1->3 share link (1,+): 2 each; rank 3 done at 1 + 2 = 3.
  auto ring = std::make_shared<const Torus>(4, 1, "t");
  NetworkAllocation a;
  a.process_endpoint = {0, 1, 2, 3};
  const auto bfly =
      CongestionModel(ring, NetworkPattern::kButterfly, 0.0, std::nullopt).evaluate(a, {});
  CHECK(bfly.quiet == 3.0);
  CHECK(bfly.perturbed == 3.0);
  const auto bcast =
      CongestionModel(ring, NetworkPattern::kBinomialBroadcast, 0.0, std::nullopt).evaluate(a, {});
  CHECK(bcast.quiet == 3.0);
}

TEST_CASE("allocations: disjoint roles, a derangement, reproducible, bad rho is refused") {
  auto fat = std::make_shared<const Xgft>(std::vector<std::uint32_t>{12, 12},
                                          std::vector<std::uint32_t>{1, 6}, "t");
  const CongestionModel model(fat, NetworkPattern::kBinomialBroadcast, 0.5, std::nullopt);
  CHECK(model.perturbing() == 72);
  CHECK(model.processes() == 72);
  for (std::uint64_t key : {1u, 2u, 3u}) {
    const auto a = model.draw_allocation(key);
    std::set<std::uint32_t> used(a.process_endpoint.begin(), a.process_endpoint.end());
    std::set<std::uint32_t> senders, receivers;
    for (const auto& [s, d] : a.background) {
      CHECK(s != d);
      senders.insert(s);
      receivers.insert(d);
      CHECK_FALSE(used.contains(s));
    }
    CHECK(used.size() == 72);
    CHECK(senders.size() == 72);
    CHECK(senders == receivers);
    CHECK(model.draw_allocation(key).process_endpoint == a.process_endpoint);
    const auto s = model.sample(key);
    CHECK(s.perturbed >= s.quiet);
    CHECK(s.quiet >= model.rounds());
  }
  CHECK_THROWS_WITH(CongestionModel(fat, NetworkPattern::kBinomialBroadcast, 1.0, std::nullopt),
                    Contains("network.rho"));
  CHECK_THROWS_WITH(
      CongestionModel(fat, NetworkPattern::kBinomialBroadcast, 1.0 / 144, std::nullopt),
      Contains("single background endpoint"));
  const CongestionModel butterfly(fat, NetworkPattern::kButterfly, 0.5, std::nullopt);
  CHECK(butterfly.active_processes() == 64);  // 72 processes: 8 stay idle
  CHECK(butterfly.rounds() == 6);
}
