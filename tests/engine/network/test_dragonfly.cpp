// Dragonflies (engine/network/dragonfly.hpp; docs/models/network.md): sizes, routes worked by
// hand on the smallest one, every route of two larger ones checked link by link (minimal and
// Valiant), a global link as the bottleneck of a butterfly, and bad shapes refused in one line.
#include <catch2/catch.hpp>
#include <vector>

#include "core/errors.hpp"
#include "engine/network/congestion.hpp"
#include "engine/network/dragonfly.hpp"
#include "engine/network/topology_keys.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

std::vector<LinkId> route_of(const Topology& t, std::uint64_t s, std::uint64_t d) {
  std::vector<LinkId> path(static_cast<std::size_t>(t.diameter()));
  path.resize(t.route(s, d, path));
  return path;
}

// Walks a route link by link from its source's router, decoding each link by the numbering of
// dragonfly.hpp; returns the global links' target groups in order, checking that each link
// starts where the last one ended and that the route ends at `d`.
std::vector<std::uint32_t> walk(const Dragonfly& t, std::uint32_t p, std::uint32_t a,
                                std::uint32_t h, std::uint64_t s, std::uint64_t d) {
  const std::uint64_t endpoints = t.endpoints();
  const std::uint64_t local_base = 2 * endpoints;
  const std::uint64_t global_base = local_base + t.switches() * (a - 1);
  const std::uint32_t k = t.links_between_groups();
  const std::vector<LinkId> path = route_of(t, s, d);
  REQUIRE(path.size() >= 2);
  CHECK(path.front() == 2 * s);
  CHECK(path.back() == 2 * d + 1);
  std::uint64_t router = s / p;  // global router index G a + r
  std::vector<std::uint32_t> groups;
  for (std::size_t i = 1; i + 1 < path.size(); ++i) {
    const std::uint64_t link = path[i];
    REQUIRE(link >= local_base);
    REQUIRE(link < t.links());
    if (link < global_base) {
      const std::uint64_t at = link - local_base;
      CHECK(at / (a - 1) == router);  // leaves the router it is at
      const auto from = static_cast<std::uint32_t>(router % a);
      const auto other = static_cast<std::uint32_t>(at % (a - 1));
      router = router - from + (other < from ? other : other + 1);
    } else {
      const std::uint64_t at = link - global_base;
      const auto group = static_cast<std::uint32_t>(at / (a * h));
      const auto port = static_cast<std::uint32_t>(at % (a * h));
      CHECK(std::uint64_t{group} * a + port / h == router);
      const std::uint32_t to = t.global_target(static_cast<LinkId>(link));
      const std::uint32_t back = (group < to ? group : group - 1) * k + port % k;
      router = std::uint64_t{to} * a + back / h;
      groups.push_back(to);
    }
  }
  CHECK(router == d / p);
  return groups;
}

}  // namespace

TEST_CASE("dragonfly sizes: endpoints, routers, links, diameter") {
  const Dragonfly small(1, 2, 1, 3, DragonflyRouting::kMinimal, "t");
  CHECK(small.endpoints() == 6);
  CHECK(small.switches() == 6);
  // 2 a endpoint, a local link each way between the 2 routers of each of 3 groups, 2 global
  // ports a group.
  CHECK(small.links() == 12 + 6 + 6);
  CHECK(small.diameter() == 5);
  CHECK(small.links_between_groups() == 1);
  const Dragonfly balanced(2, 4, 2, 9, DragonflyRouting::kMinimal, "t");
  CHECK(balanced.endpoints() == 72);
  CHECK(balanced.links() == 144 + 9 * 4 * 3 + 9 * 8);
  CHECK(Dragonfly(2, 4, 2, 5, DragonflyRouting::kValiant, "t").links_between_groups() == 2);
  CHECK(Dragonfly(2, 4, 2, 5, DragonflyRouting::kValiant, "t").diameter() == 7);
  CHECK(Dragonfly(3, 1, 4, 5, DragonflyRouting::kMinimal, "t").diameter() == 3);
  CHECK(small.describe() == "dragonfly(1, 2, 1, 3)");
}

TEST_CASE("dragonfly routes by hand: dragonfly(1, 2, 1, 3)") {
  // Endpoint e is router e of group e / 2. Links: injection 2e, ejection 2e + 1; local
  // 12 + 2 G + r (router r of group G to the other one); global 18 + 2 G + q, port q on router q.
  // Group 0's port 0 leads to group 1, its port 1 to group 2; group 2's port 0 to group 0.
  const Dragonfly t(1, 2, 1, 3, DragonflyRouting::kMinimal, "t");
  CHECK(route_of(t, 0, 1) == std::vector<LinkId>{0, 12, 3});  // within group 0
  CHECK(route_of(t, 0, 2) == std::vector<LinkId>{0, 18, 5});  // router 0 holds the link to G1
  // To group 2 through router 1's port 1 (link 19), arriving at group 2's router 0, then its
  // local link to router 1 (16).
  CHECK(route_of(t, 0, 5) == std::vector<LinkId>{0, 12, 19, 16, 11});
  CHECK(t.global_target(18) == 1);
  CHECK(t.global_target(19) == 2);
  CHECK(t.global_target(22) == 0);
  CHECK(route_of(t, 3, 3).empty());
}

TEST_CASE("dragonfly routes: every pair, minimal and Valiant, link by link") {
  const Dragonfly minimal(2, 4, 2, 9, DragonflyRouting::kMinimal, "t");
  const Dragonfly valiant(2, 4, 2, 5, DragonflyRouting::kValiant, "t");
  for (std::uint64_t s = 0; s < minimal.endpoints(); ++s)
    for (std::uint64_t d = 0; d < minimal.endpoints(); ++d) {
      if (s == d) continue;
      const std::vector<std::uint32_t> groups = walk(minimal, 2, 4, 2, s, d);
      const auto from = static_cast<std::uint32_t>(s / 8), to = static_cast<std::uint32_t>(d / 8);
      CHECK(groups == (from == to ? std::vector<std::uint32_t>{} : std::vector{to}));
    }
  std::vector<int> via_count(5, 0);
  for (std::uint64_t s = 0; s < valiant.endpoints(); ++s)
    for (std::uint64_t d = 0; d < valiant.endpoints(); ++d) {
      if (s == d) continue;
      const std::vector<std::uint32_t> groups = walk(valiant, 2, 4, 2, s, d);
      const auto from = static_cast<std::uint32_t>(s / 8), to = static_cast<std::uint32_t>(d / 8);
      if (from == to) {
        CHECK(groups.empty());
        continue;
      }
      REQUIRE(groups.size() == 2);
      CHECK(groups[0] != from);
      CHECK(groups[0] != to);
      CHECK(groups[1] == to);
      ++via_count[groups[0]];
    }
  // Every group serves as an intermediate (40 endpoints a group pair's worth of traffic each).
  for (const int c : via_count) CHECK(c > 0);
}

TEST_CASE("dragonfly: a global link is the butterfly's bottleneck") {
  // Processes 0..3 on endpoints 0..3 of dragonfly(1, 2, 1, 3): round 0 stays in the groups
  // (four distinct local links: cost 1); in round 1, 0 -> 2 and 1 -> 3 both cross group 0's one
  // link to group 1 (link 18), 2 -> 0 and 3 -> 1 group 1's link back: load 2. Done at 1 + 2.
  auto t = std::make_shared<const Dragonfly>(1, 2, 1, 3, DragonflyRouting::kMinimal, "t");
  NetworkAllocation a;
  a.process_endpoint = {0, 1, 2, 3};
  const auto cost =
      CongestionModel(t, NetworkPattern::kButterfly, 0.0, std::nullopt).evaluate(a, {});
  CHECK(cost.quiet == 3.0);
}

TEST_CASE("dragonfly shapes are read from network.topology and bad ones refused") {
  CHECK(parse_topology("Dragonfly(1, 2, 1, 3)")->describe() == "dragonfly(1, 2, 1, 3)");
  CHECK(parse_topology("dragonfly(2,4,2,5; valiant)")->describe() ==
        "dragonfly(2, 4, 2, 5; valiant)");
  CHECK(parse_topology("dragonfly(2,4,2,9; minimal)")->family() == "dragonfly");
  CHECK_THROWS_WITH(parse_topology("dragonfly(1, 2, 1)"), Contains("needs 4 counts"));
  CHECK_THROWS_WITH(parse_topology("dragonfly(1, 2, 1, 4)"), Contains("g - 1 dividing"));
  CHECK_THROWS_WITH(parse_topology("dragonfly(1, 2, 1, 2; valiant)"),
                    Contains("at least 3 groups"));
  CHECK_THROWS_WITH(parse_topology("dragonfly(0, 2, 1, 3)"), Contains("p, a, h >= 1"));
  CHECK_THROWS_WITH(parse_topology("dragonfly(1, x, 1, 3)"), Contains("is not a count"));
  CHECK_THROWS_WITH(parse_topology("torus(99999999999999999999999, 2)"),
                    Contains("is not a count"));
}
