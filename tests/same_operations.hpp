#pragma once
// Two schedules (stored, generated on the fly, rank classes) that give the engine the same
// operations: kind, size, peer, tag, CPU, NIC, dependency counts and dependents in order, at the
// same global indices.
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise::test {

template <class A, class B>
void expect_same_operations(const A& a, const B& b) {
  REQUIRE(a.ranks() == b.ranks());
  REQUIRE(a.operations() == b.operations());
  CHECK(a.cpus() == b.cpus());
  CHECK(a.nics() == b.nics());
  std::size_t differ = 0;
  std::vector<std::pair<std::uint32_t, bool>> da, db;
  for (std::uint32_t r = 0; r < a.ranks(); ++r) {
    const auto x = a.view(r);
    const auto y = b.view(r);
    REQUIRE(x.first() == y.first());
    REQUIRE(x.count() == y.count());
    for (std::uint64_t op = x.first(); op < x.first() + x.count(); ++op) {
      const Operation p = x.operation(op), q = y.operation(op);
      differ += p.kind != q.kind || p.size != q.size || p.peer != q.peer || p.tag != q.tag ||
                p.cpu != q.cpu || p.nic != q.nic || x.dependencies(op) != y.dependencies(op) ||
                x.peer(op) != y.peer(op);
      da.clear();
      db.clear();
      x.for_each_dependent(op, [&](const auto& d) { da.emplace_back(d.local, d.started); });
      y.for_each_dependent(op, [&](const auto& d) { db.emplace_back(d.local, d.started); });
      differ += da != db;
    }
  }
  CHECK(differ == 0);
}

}  // namespace collnoise::test
