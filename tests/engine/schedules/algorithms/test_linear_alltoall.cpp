// The linear alltoall (engine/schedules/algorithms/linear_alltoall.cpp): the schedule the authors'
// Schedgen fork writes as `schedgen -p linear_alltoall` (the benchmark's linear_alltoall_<N>_<B>),
// operation by operation and in time; one completion worked by hand; and why it is not
// pairwise_alltoall.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/schedgen_fork_goal.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

// The fork's rule (schedgen.cpp, create_linear_alltoall_rank): for j = 0 .. N - 2, `send` to
// (r + 1 + j) mod N, then `recv` from (r - 1 - j + 2N) mod N, tag 0, no requires. Its output for
// N = 4 and N = 5, 16 bytes.
const char* const kAlltoallN4 = R"(num_ranks 4

rank 0 {
l1: send 16b to 1 tag 0
l2: recv 16b from 3 tag 0
l3: send 16b to 2 tag 0
l4: recv 16b from 2 tag 0
l5: send 16b to 3 tag 0
l6: recv 16b from 1 tag 0
}

rank 1 {
l1: send 16b to 2 tag 0
l2: recv 16b from 0 tag 0
l3: send 16b to 3 tag 0
l4: recv 16b from 3 tag 0
l5: send 16b to 0 tag 0
l6: recv 16b from 2 tag 0
}

rank 2 {
l1: send 16b to 3 tag 0
l2: recv 16b from 1 tag 0
l3: send 16b to 0 tag 0
l4: recv 16b from 0 tag 0
l5: send 16b to 1 tag 0
l6: recv 16b from 3 tag 0
}

rank 3 {
l1: send 16b to 0 tag 0
l2: recv 16b from 2 tag 0
l3: send 16b to 1 tag 0
l4: recv 16b from 1 tag 0
l5: send 16b to 2 tag 0
l6: recv 16b from 0 tag 0
}
)";

const char* const kAlltoallN5 = R"(num_ranks 5

rank 0 {
l1: send 16b to 1 tag 0
l2: recv 16b from 4 tag 0
l3: send 16b to 2 tag 0
l4: recv 16b from 3 tag 0
l5: send 16b to 3 tag 0
l6: recv 16b from 2 tag 0
l7: send 16b to 4 tag 0
l8: recv 16b from 1 tag 0
}

rank 1 {
l1: send 16b to 2 tag 0
l2: recv 16b from 0 tag 0
l3: send 16b to 3 tag 0
l4: recv 16b from 4 tag 0
l5: send 16b to 4 tag 0
l6: recv 16b from 3 tag 0
l7: send 16b to 0 tag 0
l8: recv 16b from 2 tag 0
}

rank 2 {
l1: send 16b to 3 tag 0
l2: recv 16b from 1 tag 0
l3: send 16b to 4 tag 0
l4: recv 16b from 0 tag 0
l5: send 16b to 0 tag 0
l6: recv 16b from 4 tag 0
l7: send 16b to 1 tag 0
l8: recv 16b from 3 tag 0
}

rank 3 {
l1: send 16b to 4 tag 0
l2: recv 16b from 2 tag 0
l3: send 16b to 0 tag 0
l4: recv 16b from 1 tag 0
l5: send 16b to 1 tag 0
l6: recv 16b from 0 tag 0
l7: send 16b to 2 tag 0
l8: recv 16b from 4 tag 0
}

rank 4 {
l1: send 16b to 0 tag 0
l2: recv 16b from 3 tag 0
l3: send 16b to 1 tag 0
l4: recv 16b from 2 tag 0
l5: send 16b to 2 tag 0
l6: recv 16b from 1 tag 0
l7: send 16b to 3 tag 0
l8: recv 16b from 0 tag 0
}
)";

}  // namespace

TEST_CASE("linear alltoall: the Schedgen fork's linear_alltoall, operation by operation") {
  test::expect_fork_goal("linear_alltoall", {.ranks = 4, .message_bytes = 16}, kAlltoallN4);
  test::expect_fork_goal("linear_alltoall", {.ranks = 5, .message_bytes = 16}, kAlltoallN5);
}

TEST_CASE("linear alltoall: N = 4, 16 bytes, by hand") {
  // Every operation starts at once, every rank alike. hand_net(): L 1000, o 100, g 50, G 1 ns/B.
  // The three sends hold the CPU o = 100 ns each (the NIC g + 15 G = 65): they leave at 0, 100
  // and 200 and arrive at 1100, 1200 and 1300 (o + L after). A receive holds the CPU
  // o + 15 G = 115 ns: 1100-1215, then 1215-1330 (its message waited from 1200), then 1330-1445.
  const ScheduleRun run =
      run_schedule(find_algorithm("linear_alltoall")->generate({.ranks = 4, .message_bytes = 16}),
                   test::hand_net());
  REQUIRE(run.complete);
  CHECK(run.finish == std::vector<double>{1445, 1445, 1445, 1445});
}

TEST_CASE("linear alltoall: not pairwise_alltoall, and its rounds") {
  // pairwise_alltoall exchanges in N - 1 rounds, tag k, each send waiting for the previous
  // round's receive (and, in order, each receive for its round's send); the fork's pattern has
  // tag 0 and no dependency: the same messages, another algorithm, which finishes earlier.
  const AlgorithmParams p{.ranks = 4, .message_bytes = 16};
  const Schedule pairwise = find_algorithm("pairwise_alltoall")->generate(p);
  const Schedule linear = find_algorithm("linear_alltoall")->generate(p);
  CHECK(pairwise.operations() == linear.operations());
  CHECK(pairwise.tag(pairwise.first_op(0)) == 1);
  CHECK(linear.ready_at_start() == linear.operations());
  CHECK(pairwise.ready_at_start() == 4);
  // Pairwise: three rounds one after the other, each o + L + o + 15 G = 1215 ns.
  CHECK(run_schedule(pairwise, test::hand_net()).finish[0] == 3 * 1215);
  // Round j is the message to r + 1 + j: rank 3 sends to 1 (j = 1) and receives from 0 (j = 2).
  const AlgorithmRounds rounds = find_algorithm("linear_alltoall")->rounds(p);
  CHECK(rounds.count == 3);
  CHECK(rounds.of(3, {OpKind::kSend, 16, 1, 0}) == 1);
  CHECK(rounds.of(3, {OpKind::kRecv, 16, 0, 0}) == 2);
}
