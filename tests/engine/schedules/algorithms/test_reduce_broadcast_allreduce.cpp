// The allreduce made of a binomial reduce and a binomial broadcast
// (engine/schedules/algorithms/reduce_broadcast_allreduce.cpp): by hand at N = 4, the sum of its
// two halves without noise, and its rounds.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

double completion(const char* algorithm, const AlgorithmParams& p) {
  const ScheduleRun run = run_schedule(find_algorithm(algorithm)->generate(p), test::hand_net());
  REQUIRE(run.complete);
  return *std::max_element(run.finish.begin(), run.finish.end());
}

}  // namespace

TEST_CASE("reduce-broadcast allreduce: N = 4, 16 bytes, by hand") {
  // hand_net(): L 1000, o 100, g 50, G 1 ns/B; a hop is o + L + o + 15 G = 1215. The reduce: 1
  // and 3 send at 0, received by 0 and 2 at 1215; 2 sends on at 1215, received by 0 at 2430.
  // The broadcast from 2430: the root sends to 2, then at 2530 to 1 (its CPU o each), done at
  // 2630; 2 has it at 3645 and sends on to 3, which has it at 4860; 1 has it at 3745.
  const ScheduleRun run = run_schedule(
      find_algorithm("reduce_broadcast_allreduce")->generate({.ranks = 4, .message_bytes = 16}),
      test::hand_net());
  REQUIRE(run.complete);
  CHECK(run.finish == std::vector<double>{2630, 3745, 3745, 4860});
}

TEST_CASE("reduce-broadcast allreduce: without noise, its reduce's time plus its broadcast's") {
  // Every rank but the root has finished its part of the reduce before the broadcast reaches it,
  // so the broadcast runs as alone, from the root's last receive: eager (16 B) and rendezvous
  // (16 MiB > S), both receive orders, N a power of two or not.
  for (const std::uint32_t n : {2U, 5U, 8U, 13U})
    for (const std::uint64_t bytes : {16ULL, 16777216ULL})
      for (const ReceiveOrder order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
        const AlgorithmParams p{.ranks = n, .message_bytes = bytes, .receives = order};
        INFO(n << " ranks, " << bytes << " bytes");
        CHECK(completion("reduce_broadcast_allreduce", p) ==
              completion("binomial_reduce", p) + completion("binomial_broadcast", p));
      }
  CHECK(find_algorithm("reduce_broadcast_allreduce")->operations({.ranks = 13}) == 48);
  CHECK(find_algorithm("reduce_broadcast_allreduce")->generate({.ranks = 13}).operations() == 48);
}

TEST_CASE("reduce-broadcast allreduce: the reduce's rounds, then the broadcast's") {
  // N = 8: 3 rounds each. Rank 0 receives from 4 in the reduce's last round (2) and sends to 4
  // first in the broadcast (3); rank 7 has the broadcast from 6 in the last round (5).
  const AlgorithmRounds rounds = find_algorithm("reduce_broadcast_allreduce")->rounds({.ranks = 8});
  CHECK(rounds.count == 6);
  CHECK(rounds.of(0, {OpKind::kRecv, 8, 4, 0}) == 2);
  CHECK(rounds.of(0, {OpKind::kSend, 8, 4, 1}) == 3);
  CHECK(rounds.of(7, {OpKind::kRecv, 8, 6, 1}) == 5);
  CHECK(rounds.of(7, {OpKind::kSend, 8, 6, 0}) == 0);
  CHECK(find_algorithm("reduce_broadcast_allreduce")->rounds({.ranks = 1}).count == 1);
}
