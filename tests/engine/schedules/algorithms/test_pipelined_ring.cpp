// The pipelined ring (engine/schedules/algorithms/pipelined_ring.cpp): the schedule the authors'
// Schedgen fork writes as `schedgen -p pipelinedring -d B --segmentsize B/N` (the benchmark's
// pipelinedring_<N>_<B>), operation by operation and in time, and one completion worked by hand.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/schedgen_fork_goal.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

// The fork's rule (schedgen.cpp, create_pipelined_ring): segments of s = floor(B / N) bytes,
// ceil(B / s) of them, the last B - s (count - 1); every rank, for segment k: `recv` from r - 1
// tag k, `send` to r + 1 tag k, the send of k > 0 requiring the receive of k - 1. Its output for
// N = 4 (s = 4: four segments of 4 bytes) and N = 5 (s = 3: five of 3 bytes, then 1), 16 bytes.
const char* const kRingN4 = R"(num_ranks 4

rank 0 {
l1: recv 4b from 3 tag 0
l2: send 4b to 1 tag 0
l3: recv 4b from 3 tag 1
l4: send 4b to 1 tag 1
l4 requires l1
l5: recv 4b from 3 tag 2
l6: send 4b to 1 tag 2
l6 requires l3
l7: recv 4b from 3 tag 3
l8: send 4b to 1 tag 3
l8 requires l5
}

rank 1 {
l1: recv 4b from 0 tag 0
l2: send 4b to 2 tag 0
l3: recv 4b from 0 tag 1
l4: send 4b to 2 tag 1
l4 requires l1
l5: recv 4b from 0 tag 2
l6: send 4b to 2 tag 2
l6 requires l3
l7: recv 4b from 0 tag 3
l8: send 4b to 2 tag 3
l8 requires l5
}

rank 2 {
l1: recv 4b from 1 tag 0
l2: send 4b to 3 tag 0
l3: recv 4b from 1 tag 1
l4: send 4b to 3 tag 1
l4 requires l1
l5: recv 4b from 1 tag 2
l6: send 4b to 3 tag 2
l6 requires l3
l7: recv 4b from 1 tag 3
l8: send 4b to 3 tag 3
l8 requires l5
}

rank 3 {
l1: recv 4b from 2 tag 0
l2: send 4b to 0 tag 0
l3: recv 4b from 2 tag 1
l4: send 4b to 0 tag 1
l4 requires l1
l5: recv 4b from 2 tag 2
l6: send 4b to 0 tag 2
l6 requires l3
l7: recv 4b from 2 tag 3
l8: send 4b to 0 tag 3
l8 requires l5
}
)";

const char* const kRingN5 = R"(num_ranks 5

rank 0 {
l1: recv 3b from 4 tag 0
l2: send 3b to 1 tag 0
l3: recv 3b from 4 tag 1
l4: send 3b to 1 tag 1
l4 requires l1
l5: recv 3b from 4 tag 2
l6: send 3b to 1 tag 2
l6 requires l3
l7: recv 3b from 4 tag 3
l8: send 3b to 1 tag 3
l8 requires l5
l9: recv 3b from 4 tag 4
l10: send 3b to 1 tag 4
l10 requires l7
l11: recv 1b from 4 tag 5
l12: send 1b to 1 tag 5
l12 requires l9
}

rank 1 {
l1: recv 3b from 0 tag 0
l2: send 3b to 2 tag 0
l3: recv 3b from 0 tag 1
l4: send 3b to 2 tag 1
l4 requires l1
l5: recv 3b from 0 tag 2
l6: send 3b to 2 tag 2
l6 requires l3
l7: recv 3b from 0 tag 3
l8: send 3b to 2 tag 3
l8 requires l5
l9: recv 3b from 0 tag 4
l10: send 3b to 2 tag 4
l10 requires l7
l11: recv 1b from 0 tag 5
l12: send 1b to 2 tag 5
l12 requires l9
}

rank 2 {
l1: recv 3b from 1 tag 0
l2: send 3b to 3 tag 0
l3: recv 3b from 1 tag 1
l4: send 3b to 3 tag 1
l4 requires l1
l5: recv 3b from 1 tag 2
l6: send 3b to 3 tag 2
l6 requires l3
l7: recv 3b from 1 tag 3
l8: send 3b to 3 tag 3
l8 requires l5
l9: recv 3b from 1 tag 4
l10: send 3b to 3 tag 4
l10 requires l7
l11: recv 1b from 1 tag 5
l12: send 1b to 3 tag 5
l12 requires l9
}

rank 3 {
l1: recv 3b from 2 tag 0
l2: send 3b to 4 tag 0
l3: recv 3b from 2 tag 1
l4: send 3b to 4 tag 1
l4 requires l1
l5: recv 3b from 2 tag 2
l6: send 3b to 4 tag 2
l6 requires l3
l7: recv 3b from 2 tag 3
l8: send 3b to 4 tag 3
l8 requires l5
l9: recv 3b from 2 tag 4
l10: send 3b to 4 tag 4
l10 requires l7
l11: recv 1b from 2 tag 5
l12: send 1b to 4 tag 5
l12 requires l9
}

rank 4 {
l1: recv 3b from 3 tag 0
l2: send 3b to 0 tag 0
l3: recv 3b from 3 tag 1
l4: send 3b to 0 tag 1
l4 requires l1
l5: recv 3b from 3 tag 2
l6: send 3b to 0 tag 2
l6 requires l3
l7: recv 3b from 3 tag 3
l8: send 3b to 0 tag 3
l8 requires l5
l9: recv 3b from 3 tag 4
l10: send 3b to 0 tag 4
l10 requires l7
l11: recv 1b from 3 tag 5
l12: send 1b to 0 tag 5
l12 requires l9
}
)";

// The same patterns at 16 MiB: segments of 4194304 bytes (N = 4), or five of 3355443 and one of
// 1 byte (N = 5), rendezvous messages under hand_net() (S = 65535).
std::string with_segments(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

AlgorithmParams ring(std::uint32_t ranks, std::uint64_t bytes) {
  return {.ranks = ranks, .message_bytes = bytes};
}

}  // namespace

TEST_CASE("pipelined ring: the Schedgen fork's pipelinedring, operation by operation") {
  test::expect_fork_goal("pipelined_ring", ring(4, 16), kRingN4);
  test::expect_fork_goal("pipelined_ring", ring(5, 16), kRingN5);
  test::expect_fork_goal("pipelined_ring", ring(4, 16777216),
                         with_segments(kRingN4, " 4b ", " 4194304b "));
  test::expect_fork_goal("pipelined_ring", ring(5, 16777216),
                         with_segments(kRingN5, " 3b ", " 3355443b "));
}

TEST_CASE("pipelined ring: N = 4, 16 bytes, by hand") {
  // Four segments of 4 bytes; every rank alike. hand_net(): L 1000, o 100, g 50, G 1 ns/B.
  // Segment 0 leaves every rank at 0 (CPU 0-100, NIC 0-53) and arrives at 0 + o + L = 1100; its
  // receive holds the CPU o + (4 - 1) G = 103 ns, to 1203, which releases the send of segment 1;
  // that one arrives at 1203 + 1100 = 2303, is received by 2406, and so on: each segment takes
  // o + L + o + 3 G = 1203 ns, the last received at 4 x 1203 = 4812 ns, on every rank.
  const ScheduleRun run =
      run_schedule(find_algorithm("pipelined_ring")->generate(ring(4, 16)), test::hand_net());
  REQUIRE(run.complete);
  CHECK(run.finish == std::vector<double>{4812, 4812, 4812, 4812});
}

TEST_CASE("pipelined ring: segments, rounds, and the sizes it refuses") {
  const AlgorithmKind& kind = *find_algorithm("pipelined_ring");
  // N = 5, 16 bytes: six segments, the last of 1 byte; one round a segment, the round its tag.
  const Schedule s = kind.generate(ring(5, 16));
  CHECK(s.operations() == 60);
  CHECK(s.size(s.first_op(2) + 10) == 1);
  const AlgorithmRounds rounds = kind.rounds(ring(5, 16));
  CHECK(rounds.count == 6);
  CHECK(rounds.of(3, {OpKind::kSend, 3, 4, 2}) == 2);
  // 32 ranks and 16 bytes would be segments of 0 bytes (the benchmark's empty pipelinedring_32_16).
  for (const auto& refused : {ring(32, 16), ring(2, 0)}) {
    INFO(refused.ranks << " ranks, " << refused.message_bytes << " bytes");
    CHECK_THROWS_WITH(kind.generate(refused), Contains("collective.message_bytes = ") &&
                                                  Contains("N = ") && Contains("at least N bytes"));
    CHECK_THROWS_AS(kind.rounds(refused), InputError);
    CHECK_THROWS_AS(kind.operations(refused), InputError);
  }
  // N bytes on N ranks: one byte a segment; a ring of one rank sends nothing.
  CHECK(kind.generate(ring(7, 7)).operations() == 2 * 7 * 7);
  CHECK(kind.generate(ring(1, 16)).operations() == 0);
  CHECK(kind.rounds(ring(1, 16)).count == 1);
}
