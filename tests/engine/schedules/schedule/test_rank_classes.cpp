// Stored schedules recompiled as rank classes (engine/schedules/schedule/rank_classes.hpp): every
// operation the same as stored (kind, size, peer, tag, CPU, NIC, dependents in order, global
// indices), so the engine gives every rank the same finishing time, bit for bit, with and without
// noise; regular collectives take a class or a few, irregular schedules stay stored.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "distributions/detour_pattern.hpp"
#include "distributions/exponential.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/schedule/rank_classes.hpp"
#include "tests/fixtures/same_operations.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using collnoise::test::expect_same_operations;

namespace {

// Some of the messages below go by rendezvous (S = 1000 bytes).
ScheduleNet net() {
  return test::net_of(1000, 100, 50, 1, 0, 1000);
}

template <class A, class B>
void expect_same_runs(const A& stored, const B& classes) {
  QuietSchedule quiet;
  const ScheduleRun q1 = simulate_schedule(stored, net(), quiet);
  const ScheduleRun q2 = simulate_schedule(classes, net(), quiet);
  CHECK(q1.finish == q2.finish);
  CHECK(q1.events == q2.events);
  // 100 us detours every 1 ms at each rank's own offset; per-stage exponential delays.
  const DetourPattern pattern({{0.0, 1e5}}, 1e6, "test");
  for (std::uint64_t key = 1; key <= 3; ++key) {
    PatternScheduleNoise a(pattern, TimeSemantics::kPreempt, key, stored.ranks(), 1);
    PatternScheduleNoise b(pattern, TimeSemantics::kPreempt, key, stored.ranks(), 1);
    CHECK(simulate_schedule(stored, net(), a).finish ==
          simulate_schedule(classes, net(), b).finish);
  }
  StageNoise stage;
  stage.eta = std::make_shared<const ExponentialLaw>();
  stage.scale = 1e-9;
  stage.overhead = 0.05;
  stage.proportional = true;
  StageScheduleNoise a(stage, 7);
  StageScheduleNoise b(stage, 7);
  CHECK(simulate_schedule(stored, net(), a).finish == simulate_schedule(classes, net(), b).finish);
}

}  // namespace

TEST_CASE("rank classes: every built-in algorithm, the same operations and the same runs") {
  std::size_t classified = 0, cases = 0, refused = 0;
  for (const AlgorithmKind& kind : algorithm_kinds()) {
    for (const std::uint32_t ranks : {1U, 2U, 5U, 8U, 12U, 33U, 64U}) {
      for (const std::uint64_t bytes : {8ULL, 4000ULL}) {
        for (const ReceiveOrder order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
          if (order == ReceiveOrder::kPreposted && !kind.uses_receive_order) continue;
          AlgorithmParams p;
          p.ranks = ranks;
          p.message_bytes = bytes;
          p.receives = order;
          p.k = 3;
          p.segments = 2;
          INFO(kind.name << " on " << ranks << " ranks, " << bytes << " bytes");
          ++cases;
          Schedule stored;
          try {
            stored = kind.generate(p);
          } catch (const InputError& e) {
            // A size the algorithm does not take, refused by the key at fault (pipelined_ring:
            // 8 bytes on 12 ranks or more, fewer bytes than ranks).
            CHECK_THAT(e.what(), Catch::Matchers::Contains("collective."));
            ++refused;
            continue;
          }
          const auto classes = rank_classes(stored);
          if (!classes) continue;  // too irregular at this size: stays stored
          ++classified;
          expect_same_operations(stored, *classes);
          expect_same_runs(stored, *classes);
        }
      }
    }
  }
  // Most are regular enough at these sizes (110 of 266 when written); the rest stay stored. A few
  // are refused (3 of 322 with the benchmark patterns).
  CHECK(classified >= 100);
  CHECK(refused * 20 < cases);
  // Every algorithm at 7 sizes and 2 message sizes, in both receive orders where it has them:
  // counted from the registry, so that a new algorithm needs no edit here.
  std::size_t expected_cases = 0;
  for (const AlgorithmKind& kind : algorithm_kinds())
    expected_cases += kind.uses_receive_order ? 28 : 14;
  CHECK(expected_cases >= 266);
  CHECK(cases == expected_cases);
}

TEST_CASE("rank classes: a dissemination barrier is one class, a binomial tree a few") {
  AlgorithmParams p;
  p.ranks = 1024;
  p.receives = ReceiveOrder::kPreposted;
  const Schedule dissemination = find_algorithm("dissemination_barrier")->generate(p);
  const auto one = rank_classes(dissemination);
  REQUIRE(one);
  // One class: its program (the 10 sends and 10 receives of one rank) and the layout.
  CHECK(one->memory_bytes() < 4096);
  CHECK(dissemination.memory_bytes() > 100 * one->memory_bytes());
  // A binomial broadcast's ranks differ by the rounds they receive in and send after: a class
  // per position in the tree, laid out by table.
  const Schedule tree = find_algorithm("binomial_broadcast")->generate(p);
  const auto few = rank_classes(tree);
  REQUIRE(few);
  expect_same_operations(tree, *few);
  CHECK(rank_classes(tree, 8) == std::nullopt);  // more than 8 classes
  // A linear gather's root holds half the schedule: classes would save too little.
  CHECK(rank_classes(find_algorithm("linear_gather")->generate(p)) == std::nullopt);
}

TEST_CASE("rank classes: a peer every member shares is kept as a fixed rank") {
  // Every rank but 0 receives from rank 0 (a fixed peer) and sends to its successor (an offset);
  // rank 0 computes.
  ScheduleBuilder b;
  b.add(Operation{OpKind::kCalc, 100, 0, 0, 0, 0});
  b.end_rank("rank 0");
  for (std::uint32_t r = 1; r < 64; ++r) {
    b.add(Operation{OpKind::kRecv, 8, 0, 7, 0, 0});
    b.add(Operation{OpKind::kSend, 8, (r + 1) % 64, 7, 0, 0});
    b.depend(1, 0, false);
    b.end_rank("rank");
  }
  const Schedule s = b.finish();
  const auto classes = rank_classes(s);
  REQUIRE(classes);
  expect_same_operations(s, *classes);
  CHECK(classes->view(40).peer(classes->view(40).first()) == 0);
  CHECK(classes->view(63).peer(classes->view(63).first() + 1) == 0);
}

TEST_CASE("rank classes: an irregular schedule stays stored") {
  // Three ranks with three different programs: classes would be as large as the schedule.
  const Schedule s = read_goal_text(
      "num_ranks 3\n"
      "rank 0 {\nl1: send 8b to 1 tag 0\nl2: calc 100\nl2 requires l1\n}\n"
      "rank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 16b to 2 tag 1\nl2 requires l1\n}\n"
      "rank 2 {\nl1: recv 16b from 1 tag 1\n}\n",
      "irregular.goal");
  CHECK(rank_classes(s) == std::nullopt);
}

namespace {

// Every rank's operations and the runs with and without noise, from GOAL read stored and read
// as a run reads it.
void expect_read_alike(const std::string& goal) {
  const Schedule stored = read_goal_text(goal, "test.goal");
  const AnySchedule read = read_goal_schedule_text(goal, "test.goal");
  std::visit(
      [&](const auto& s) {
        expect_same_operations(stored, s);
        expect_same_runs(stored, s);
      },
      read);
}

std::string dissemination_goal(std::uint32_t n) {
  std::string g = fmt::format("num_ranks {}\n", n);
  for (std::uint32_t r = 0; r < n; ++r) {
    g += fmt::format("rank {} {{\n", r);
    int k = 0;
    for (std::uint32_t d = 1; d < n; d *= 2, ++k) {
      g += fmt::format("l{}: send 8b to {}\nl{}: recv 8b from {}\n", 2 * k, (r + d) % n, 2 * k + 1,
                       (r + n - d) % n);
      if (k > 0) g += fmt::format("l{} requires l{}\n", 2 * k, 2 * k - 1);
    }
    g += "}\n";
  }
  return g;
}

}  // namespace

TEST_CASE("rank classes: a GOAL file read as a run reads it, rank by rank") {
  // Regular: one class, nothing stored.
  const std::string regular = dissemination_goal(100);
  const AnySchedule read = read_goal_schedule_text(regular, "d.goal");
  REQUIRE(std::holds_alternative<GeneratedSchedule>(read));
  expect_read_alike(regular);
  // Irregular: classes would take the whole schedule; stored after all (every rank replayed).
  const std::string irregular =
      "num_ranks 3\n"
      "rank 0 {\nl1: send 8b to 1 tag 0\nl2: calc 100\nl2 requires l1\n}\n"
      "rank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 16b to 2 tag 1\nl2 requires l1\n}\n"
      "rank 2 {\nl1: recv 16b from 1 tag 1\n}\n";
  CHECK(std::holds_alternative<Schedule>(read_goal_schedule_text(irregular, "i.goal")));
  expect_read_alike(irregular);
  // Regular, then past 1024 classes (rank r computes r ns after its barrier part): the reader
  // gives up on classes while reading and goes on stored, the ranks so far rebuilt from them.
  std::string mixed = dissemination_goal(1100);
  std::size_t at = 0;
  for (std::uint32_t r = 0; r < 1100; ++r) {
    at = mixed.find(fmt::format("rank {} {{\n", r), at);
    at = mixed.find("}\n", at);
    const std::string extra = r >= 50 ? fmt::format("c: calc {}\n", r) : "";
    mixed.insert(at, extra);
    at += extra.size() + 2;
  }
  CHECK(std::holds_alternative<Schedule>(read_goal_schedule_text(mixed, "m.goal")));
  expect_read_alike(mixed);
}

TEST_CASE("rank classes: the collector replays the ranks it took") {
  AlgorithmParams p;
  p.ranks = 40;
  const Schedule tree = find_algorithm("binomial_broadcast")->generate(p);
  RankClassCollector few(tree.ranks(), 3);
  std::uint32_t taken = 0;
  while (taken < tree.ranks() && few.add(tree.view(taken))) ++taken;
  REQUIRE(taken < tree.ranks());  // a fourth class was needed
  CHECK(few.ranks_taken() == taken);
  CHECK_FALSE(few.add(tree.view(taken)));  // it takes no more
  ScheduleBuilder b;
  few.replay(b);
  for (std::uint32_t r = taken; r < tree.ranks(); ++r) b.append_rank(tree.view(r));
  expect_same_operations(tree, b.finish());
}
