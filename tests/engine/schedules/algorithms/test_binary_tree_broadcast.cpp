// The binary tree broadcast (engine/schedules/algorithms/binary_tree_broadcast.cpp): the schedule
// the authors' Schedgen fork writes as `schedgen -p binarytreebcast` (the benchmark's
// binarytreebcast_<N>_<B>), operation by operation and in time, and one completion worked by
// hand.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/schedgen_fork_goal.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

// The fork's rule (schedgen.cpp, create_binary_tree_bcast_rank): heap numbering from the root 0;
// rank r > 0 `recv`s from (r - 1) / 2, then `send`s to 2r + 1 and 2r + 2 below N, each send
// requiring the receive; the root's sends require nothing. Its output for N = 4 and N = 5, 16
// bytes.
const char* const kTreeN4 = R"(num_ranks 4

rank 0 {
l1: send 16b to 1 tag 0
l2: send 16b to 2 tag 0
}

rank 1 {
l1: recv 16b from 0 tag 0
l2: send 16b to 3 tag 0
l2 requires l1
}

rank 2 {
l1: recv 16b from 0 tag 0
}

rank 3 {
l1: recv 16b from 1 tag 0
}
)";

const char* const kTreeN5 = R"(num_ranks 5

rank 0 {
l1: send 16b to 1 tag 0
l2: send 16b to 2 tag 0
}

rank 1 {
l1: recv 16b from 0 tag 0
l2: send 16b to 3 tag 0
l3: send 16b to 4 tag 0
l2 requires l1
l3 requires l1
}

rank 2 {
l1: recv 16b from 0 tag 0
}

rank 3 {
l1: recv 16b from 1 tag 0
}

rank 4 {
l1: recv 16b from 1 tag 0
}
)";

}  // namespace

TEST_CASE("binary tree broadcast: the Schedgen fork's binarytreebcast, operation by operation") {
  test::expect_fork_goal("binary_tree_broadcast", {.ranks = 4, .message_bytes = 16}, kTreeN4);
  test::expect_fork_goal("binary_tree_broadcast", {.ranks = 5, .message_bytes = 16}, kTreeN5);
}

TEST_CASE("binary tree broadcast: N = 4, 16 bytes, by hand") {
  // hand_net(): L 1000, o 100, g 50, G 1 ns/B. The root sends to 1 at 0 and to 2 at 100 (its CPU
  // busy o = 100 each; its NIC g + 15 G = 65): they arrive at 1100 and 1200 (o + L after), and
  // each receive holds the CPU o + 15 G = 115 ns: rank 1 has it at 1215, rank 2 at 1315. Rank 1
  // sends on to 3 at 1215, which arrives at 2315 and is received at 2430.
  const ScheduleRun run = run_schedule(
      find_algorithm("binary_tree_broadcast")->generate({.ranks = 4, .message_bytes = 16}),
      test::hand_net());
  REQUIRE(run.complete);
  CHECK(run.finish == std::vector<double>{200, 1315, 1315, 2430});
}

TEST_CASE("binary tree broadcast: rounds by depth") {
  // N = 7: depth 2, two rounds; 2 sends to 6 in round 1, the root to 2 in round 0.
  const AlgorithmRounds rounds = find_algorithm("binary_tree_broadcast")->rounds({.ranks = 7});
  CHECK(rounds.count == 2);
  CHECK(rounds.of(0, {OpKind::kSend, 8, 2, 0}) == 0);
  CHECK(rounds.of(6, {OpKind::kRecv, 8, 2, 0}) == 1);
  CHECK(find_algorithm("binary_tree_broadcast")->rounds({.ranks = 8}).count == 3);
}
