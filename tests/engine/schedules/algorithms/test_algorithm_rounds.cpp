// The rounds of the built-in algorithms (AlgorithmKind::rounds,
// engine/schedules/algorithms/algorithms.hpp), which the critical path spreads its noise over:
// checked against the schedules the algorithms generate, and counted by hand for a few sizes.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/schedule/generated_schedule.hpp"

using namespace collnoise;

namespace {

const std::vector<std::uint32_t> kRanks = {1, 2, 3, 5, 7, 8, 16, 17};

// Every combination of the parameters `kind` uses, at `ranks`.
std::vector<AlgorithmParams> params_of(const AlgorithmKind& kind, std::uint32_t ranks) {
  std::vector<AlgorithmParams> all;
  const std::vector<std::uint32_t> ks =
      kind.uses_k ? std::vector<std::uint32_t>{3, 4} : std::vector<std::uint32_t>{2};
  const std::vector<std::uint32_t> segments =
      kind.uses_segments ? std::vector<std::uint32_t>{1, 2} : std::vector<std::uint32_t>{1};
  const std::vector<ReceiveOrder> orders =
      kind.uses_receive_order
          ? std::vector<ReceiveOrder>{ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}
          : std::vector<ReceiveOrder>{ReceiveOrder::kInOrder};
  for (const std::uint32_t k : ks)
    for (const std::uint32_t s : segments)
      for (const ReceiveOrder order : orders)
        all.push_back(
            {.ranks = ranks, .message_bytes = 64, .k = k, .segments = s, .receives = order});
  return all;
}

std::string describe(const AlgorithmKind& kind, const AlgorithmParams& p) {
  return fmt::format("{} at {} ranks, k {}, segments {}, {}", kind.name, p.ranks, p.k, p.segments,
                     p.receives == ReceiveOrder::kInOrder ? "in order" : "preposted");
}

bool is_message(OpKind kind) {
  return kind == OpKind::kSend || kind == OpKind::kRecv;
}

// The first way the rounds disagree with the schedule `s` (a Schedule or a GeneratedSchedule),
// or empty: every message's round below the count, a send's round its receive's, rounds never
// decreasing along a dependency, and every round holding a message (N >= 2).
template <class AnySchedule>
std::string rounds_problem(const AnySchedule& s, const AlgorithmRounds& rounds) {
  // (src, dst, tag) -> the rounds of its sends at src, and of its receives at dst, in order.
  using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;
  std::map<Key, std::vector<std::uint32_t>> sends, receives;
  std::vector<std::uint64_t> messages_in(rounds.count, 0);
  for (std::uint32_t r = 0; r < s.ranks(); ++r) {
    const auto v = s.view(r);
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op) {
      const Operation o = v.operation(op);
      if (!is_message(o.kind)) continue;
      const std::uint32_t round = rounds.of(r, o);
      if (round >= rounds.count)
        return fmt::format("rank {} op {} (peer {}, tag {}): round {} of {}", r, op - v.first(),
                           o.peer, o.tag, round, rounds.count);
      if (o.kind == OpKind::kSend) {
        sends[{r, o.peer, o.tag}].push_back(round);
        ++messages_in[round];
      } else {
        receives[{o.peer, r, o.tag}].push_back(round);
      }
      std::string problem;
      v.for_each_dependent(op, [&](const Schedule::Dependent& d) {
        const Operation later = v.operation(v.first() + d.local);
        if (!problem.empty() || !is_message(later.kind)) return;
        const std::uint32_t later_round = rounds.of(r, later);
        if (later_round < round)
          problem = fmt::format("rank {}: op {} (round {}) depends on op {} (round {})", r, d.local,
                                later_round, op - v.first(), round);
      });
      if (!problem.empty()) return problem;
    }
  }
  if (sends != receives) return "a message's send and its receive in different rounds";
  if (s.ranks() >= 2)
    for (std::uint32_t round = 0; round < rounds.count; ++round)
      if (messages_in[round] == 0) return fmt::format("round {} holds no message", round);
  return {};
}

std::uint32_t count_of(const std::string& name, AlgorithmParams p) {
  return find_algorithm(name)->rounds(p).count;
}

}  // namespace

TEST_CASE("algorithm rounds: every built-in algorithm's rounds agree with its schedule") {
  std::size_t checked = 0, combinations = 0;
  for (const AlgorithmKind& kind : algorithm_kinds()) {
    INFO(kind.name);
    for (const std::uint32_t ranks : kRanks)
      for (const AlgorithmParams& p : params_of(kind, ranks)) {
        ++combinations;
        std::optional<Schedule> schedule;
        try {
          schedule = kind.generate(p);
        } catch (const InputError&) {
          continue;
        }
        const AlgorithmRounds rounds = kind.rounds(p);
        INFO(describe(kind, p));
        REQUIRE(rounds.of);
        CHECK(rounds.count >= 1);
        const std::string problem = rounds_problem(*schedule, rounds);
        INFO(problem);
        CHECK(problem.empty());
        ++checked;
      }
  }
  // Every combination generated (none refused), whatever the algorithms registered; the
  // combinations themselves by hand: one without parameters, the k-nomial's 2 radices, both
  // receive orders, the ring's 2 orders and 2 segmentations.
  CHECK(checked == combinations);
  CHECK(params_of(*find_algorithm("linear_gather"), 5).size() == 1);
  CHECK(params_of(*find_algorithm("knomial_broadcast"), 5).size() == 2);
  CHECK(params_of(*find_algorithm("bruck_allgather"), 5).size() == 2);
  CHECK(params_of(*find_algorithm("ring_allreduce"), 5).size() == 4);
}

TEST_CASE("algorithm rounds: the preposted receives keep the rounds' order along dependencies") {
  // A preposted receive has no dependency of its own, but what waits for it (the next round's
  // send) is of a later round: the check above holds for both receive orders. Here, that the
  // preposted schedules differ from the in-order ones (else the check would prove nothing).
  const AlgorithmKind& rd = *find_algorithm("recursive_doubling_allreduce");
  const Schedule in_order = rd.generate({.ranks = 6});
  const Schedule preposted = rd.generate({.ranks = 6, .receives = ReceiveOrder::kPreposted});
  CHECK(in_order.ready_at_start() < preposted.ready_at_start());
  CHECK(rounds_problem(preposted, rd.rounds({.ranks = 6})).empty());
}

TEST_CASE("algorithm rounds: counted by hand") {
  CHECK(count_of("recursive_doubling_allreduce", {.ranks = 8}) == 3);
  CHECK(count_of("recursive_doubling_allreduce", {.ranks = 6}) == 4);  // fold, 2 rounds, fold
  CHECK(count_of("recursive_doubling_allreduce", {.ranks = 1U << 20}) == 20);
  CHECK(count_of("rabenseifner_allreduce", {.ranks = 8}) == 6);
  CHECK(count_of("rabenseifner_allreduce", {.ranks = 6}) == 6);  // fold, 2 + 2 rounds, fold
  CHECK(count_of("dissemination_barrier", {.ranks = 5}) == 3);
  CHECK(count_of("bruck_allgather", {.ranks = 5}) == 3);
  CHECK(count_of("pairwise_alltoall", {.ranks = 5}) == 4);
  CHECK(count_of("ring_allreduce", {.ranks = 4}) == 6);
  CHECK(count_of("ring_allreduce", {.ranks = 4, .segments = 3}) == 6);
  CHECK(count_of("binomial_broadcast", {.ranks = 8}) == 3);
  CHECK(count_of("binomial_reduce", {.ranks = 9}) == 4);
  CHECK(count_of("knomial_broadcast", {.ranks = 16, .k = 4}) == 2);
  CHECK(count_of("knomial_broadcast", {.ranks = 17, .k = 4}) == 3);
  CHECK(count_of("tree_barrier", {.ranks = 7}) == 4);
  CHECK(count_of("tree_barrier", {.ranks = 2}) == 2);
  CHECK(count_of("linear_gather", {.ranks = 5}) == 4);
  CHECK(count_of("linear_scatter", {.ranks = 5}) == 4);
  for (const AlgorithmKind& kind : algorithm_kinds()) {
    INFO(kind.name);
    CHECK(kind.rounds({.ranks = 1}).count == 1);
  }
}

TEST_CASE("algorithm rounds: single messages placed by hand") {
  const auto round = [](const std::string& name, AlgorithmParams p, std::uint32_t rank,
                        Operation op) { return find_algorithm(name)->rounds(p).of(rank, op); };
  // Binomial broadcast at 8: the root sends to 4 first, to 1 last; 6 receives from 4 in round 1.
  CHECK(round("binomial_broadcast", {.ranks = 8}, 0, {OpKind::kSend, 8, 4, 0}) == 0);
  CHECK(round("binomial_broadcast", {.ranks = 8}, 0, {OpKind::kSend, 8, 1, 0}) == 2);
  CHECK(round("binomial_broadcast", {.ranks = 8}, 6, {OpKind::kRecv, 8, 4, 0}) == 1);
  // Binomial reduce at 8: 1 sends to 0 first, 4 last.
  CHECK(round("binomial_reduce", {.ranks = 8}, 1, {OpKind::kSend, 8, 0, 0}) == 0);
  CHECK(round("binomial_reduce", {.ranks = 8}, 0, {OpKind::kRecv, 8, 4, 0}) == 2);
  // 4-nomial at 17: the root's sends to 16, then 4, 8, 12, then 1, 2, 3; 7 receives from 4.
  CHECK(round("knomial_broadcast", {.ranks = 17, .k = 4}, 0, {OpKind::kSend, 8, 16, 0}) == 0);
  CHECK(round("knomial_broadcast", {.ranks = 17, .k = 4}, 0, {OpKind::kSend, 8, 12, 0}) == 1);
  CHECK(round("knomial_broadcast", {.ranks = 17, .k = 4}, 7, {OpKind::kRecv, 8, 4, 0}) == 2);
  // Tree barrier at 7 (depth 2): 3 up to 1 in round 0, 1 up to 0 in 1, down 0 to 2 in 2, 1 to 4
  // in 3.
  CHECK(round("tree_barrier", {.ranks = 7}, 3, {OpKind::kSend, 8, 1, 0}) == 0);
  CHECK(round("tree_barrier", {.ranks = 7}, 0, {OpKind::kRecv, 8, 1, 0}) == 1);
  CHECK(round("tree_barrier", {.ranks = 7}, 2, {OpKind::kRecv, 8, 0, 1}) == 2);
  CHECK(round("tree_barrier", {.ranks = 7}, 1, {OpKind::kSend, 8, 4, 1}) == 3);
  // Recursive doubling at 6: the fold-in, round 0 of the butterfly, the fold-out.
  CHECK(round("recursive_doubling_allreduce", {.ranks = 6}, 0, {OpKind::kSend, 8, 1, 0xfff0}) == 0);
  CHECK(round("recursive_doubling_allreduce", {.ranks = 6}, 1, {OpKind::kSend, 8, 3, 0}) == 1);
  CHECK(round("recursive_doubling_allreduce", {.ranks = 6}, 0, {OpKind::kRecv, 8, 1, 0xfff1}) == 3);
  // Ring at 4 with 2 segments: tag 5 is step 2's second segment.
  CHECK(round("ring_allreduce", {.ranks = 4, .segments = 2}, 1, {OpKind::kSend, 8, 2, 5}) == 2);
  // Linear gather at 5: rank 3's message is the root's third receive (round 2).
  CHECK(round("linear_gather", {.ranks = 5}, 0, {OpKind::kRecv, 8, 3, 0}) == 2);
  CHECK(round("linear_scatter", {.ranks = 5}, 3, {OpKind::kRecv, 8, 0, 0}) == 2);
}

TEST_CASE("algorithm rounds: schedules generated on the fly have the same rounds") {
  int compared = 0;
  for (const AlgorithmKind& kind : algorithm_kinds()) {
    if (!kind.generate_on_the_fly) continue;
    for (const std::uint32_t ranks : kRanks)
      for (const AlgorithmParams& p : params_of(kind, ranks)) {
        const std::optional<GeneratedSchedule> fly = kind.generate_on_the_fly(p);
        if (!fly) continue;
        INFO(describe(kind, p));
        const Schedule stored = kind.generate(p);
        const AlgorithmRounds rounds = kind.rounds(p);
        REQUIRE(fly->ranks() == stored.ranks());
        std::string problem;
        for (std::uint32_t r = 0; r < stored.ranks() && problem.empty(); ++r) {
          const auto a = stored.view(r);
          const auto b = fly->view(r);
          if (a.count() != b.count()) {
            problem = fmt::format("rank {}: {} operations, {} on the fly", r, a.count(), b.count());
            break;
          }
          for (std::uint32_t i = 0; i < a.count() && problem.empty(); ++i) {
            const Operation x = a.operation(a.first() + i), y = b.operation(b.first() + i);
            if (x.kind != y.kind || x.peer != y.peer || x.tag != y.tag)
              problem = fmt::format("rank {} op {}: not the same operation", r, i);
            else if (is_message(x.kind) && rounds.of(r, x) != rounds.of(r, y))
              problem = fmt::format("rank {} op {}: round {}, {} on the fly", r, i, rounds.of(r, x),
                                    rounds.of(r, y));
          }
        }
        INFO(problem);
        CHECK(problem.empty());
        CHECK(rounds_problem(*fly, rounds).empty());
        ++compared;
      }
  }
  CHECK(compared > 0);
}

TEST_CASE("algorithm rounds: a parameter generate refuses is refused by rounds too") {
  CHECK_THROWS_AS(find_algorithm("knomial_broadcast")->rounds({.ranks = 8, .k = 1}), InputError);
  CHECK_THROWS_AS(find_algorithm("ring_allreduce")->rounds({.ranks = 8, .segments = 0}),
                  InputError);
}

// An entry that leaves out `rounds` (or `generate`, or `operations`), the way an algorithm added
// without them would be written: it must not compile.
template <class Kind>
concept EntryWithoutRounds = requires {
  Kind{.name = "x",
       .generate = [](const AlgorithmParams&) { return Schedule{}; },
       .operations = [](const AlgorithmParams&) { return 0.0; }};
};
template <class Kind>
concept EntryWithRounds = requires {
  Kind{.name = "x",
       .generate = [](const AlgorithmParams&) { return Schedule{}; },
       .operations = [](const AlgorithmParams&) { return 0.0; },
       .rounds = [](const AlgorithmParams&) { return AlgorithmRounds{}; }};
};
static_assert(!EntryWithoutRounds<AlgorithmKind>, "an algorithm without rounds must not compile");
static_assert(EntryWithRounds<AlgorithmKind>);

TEST_CASE(
    "algorithm registry: an algorithm without rounds does not compile, a null one is refused") {
  AlgorithmRounds (*no_rounds)(const AlgorithmParams&) = nullptr;
  const AlgorithmKind null_rounds{.name = "null_rounds",
                                  .generate = [](const AlgorithmParams&) { return Schedule{}; },
                                  .operations = [](const AlgorithmParams&) { return 0.0; },
                                  .rounds = no_rounds};
  CHECK_THROWS_AS(check_algorithm_kind(null_rounds), std::logic_error);
  CHECK_THROWS_WITH(check_algorithm_kind(null_rounds),
                    "algorithm \"null_rounds\" is registered without rounds (AlgorithmKind, "
                    "engine/schedules/algorithms/algorithms.hpp): every algorithm gives one");
  const AlgorithmKind with_rounds{
      .name = "with_rounds",
      .generate = [](const AlgorithmParams&) { return Schedule{}; },
      .operations = [](const AlgorithmParams&) { return 0.0; },
      .rounds = [](const AlgorithmParams&) { return AlgorithmRounds{}; }};
  CHECK_NOTHROW(check_algorithm_kind(with_rounds));
  for (const AlgorithmKind& kind : algorithm_kinds()) CHECK_NOTHROW(check_algorithm_kind(kind));
}
