// The schedule engine's match lists (engine/schedules/engine/match_lists.hpp) against a reference:
// a std::deque searched from the front. Entries are taken from the front, the middle and the end of
// chains that cross chunk boundaries, lists share one pool, and freed chunks are reused.
#include <catch2/catch.hpp>

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "engine/schedules/engine/match_lists.hpp"

namespace {

using collnoise::MatchPool;
using collnoise::PendingMatch;

bool same(const PendingMatch& a, const PendingMatch& b) {
  return a.src == b.src && a.tag == b.tag && a.op == b.op;
}

}  // namespace

TEST_CASE("match lists: first match in FIFO order, as a deque searched from the front gives") {
  std::mt19937_64 rng(7);
  MatchPool pool;
  constexpr int kLists = 5;
  std::vector<MatchPool::List> lists(kLists);
  std::vector<std::deque<PendingMatch>> reference(kLists);
  std::uint32_t op = 0;
  for (int step = 0; step < 200000; ++step) {
    const auto l = static_cast<std::size_t>(rng() % kLists);
    // Lists grow to a few dozen entries (several chunks), then shrink.
    const bool grow = (step / 5000) % 2 == 0 ? rng() % 3 != 0 : rng() % 3 == 0;
    if (grow) {
      const PendingMatch e{static_cast<std::uint32_t>(rng() % 4),
                           static_cast<std::uint32_t>(rng() % 3), op++};
      pool.push_back(lists[l], e);
      reference[l].push_back(e);
    } else {
      const auto src = static_cast<std::uint32_t>(rng() % 4);
      const auto tag = static_cast<std::uint32_t>(rng() % 3);
      const auto wanted = [&](const PendingMatch& x) { return x.src == src && x.tag == tag; };
      PendingMatch got{};
      const bool found = pool.take_first(lists[l], wanted, got);
      auto it = reference[l].begin();
      while (it != reference[l].end() && !wanted(*it)) ++it;
      REQUIRE(found == (it != reference[l].end()));
      if (found) {
        REQUIRE(same(got, *it));
        reference[l].erase(it);
      }
    }
    REQUIRE(lists[l].empty() == reference[l].empty());
    if (!reference[l].empty()) REQUIRE(same(pool.front(lists[l]), reference[l].front()));
  }
  // Drained from the front, every list gives back the reference's order.
  for (int l = 0; l < kLists; ++l) {
    for (const PendingMatch& e : reference[static_cast<std::size_t>(l)]) {
      PendingMatch got{};
      REQUIRE(pool.take_first(
          lists[static_cast<std::size_t>(l)], [](const PendingMatch&) { return true; }, got));
      REQUIRE(same(got, e));
    }
    CHECK(lists[static_cast<std::size_t>(l)].empty());
  }
}

TEST_CASE("match lists: a message that matches no entry leaves the list as it was") {
  MatchPool pool;
  MatchPool::List list;
  for (std::uint32_t k = 0; k < 9; ++k) pool.push_back(list, PendingMatch{k, 0, k});
  PendingMatch got{};
  CHECK_FALSE(pool.take_first(
      list, [](const PendingMatch& x) { return x.src == 99; }, got));
  // The last entry (in the third chunk) is found; the order of the rest holds.
  REQUIRE(pool.take_first(
      list, [](const PendingMatch& x) { return x.src == 8; }, got));
  CHECK(got.op == 8);
  for (std::uint32_t k = 0; k < 8; ++k) {
    REQUIRE(pool.take_first(
        list, [](const PendingMatch&) { return true; }, got));
    CHECK(got.op == k);
  }
  CHECK(list.empty());
}
