// The n-way dissemination (engine/schedules/algorithms/nway_dissemination.cpp): the schedule the
// authors' Schedgen fork writes as `schedgen -p nwaydissemination [--nway n]` (the benchmark's
// nwaydissemination_<N>_<B>, and with its calcs set to 0 nwaydissemination_nocompute_<N>_<B>),
// operation by operation and in time; completions worked by hand; its rounds; collective.compute
// in a run file.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/schedgen_fork_goal.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

// The fork's rule (schedgen.cpp, create_nway_dissemination), radix n + 1 = k: for each round
// j < ceil(log_k N), the n `send`s to r + w k^j (w = 1 .. n); from round 1 on, a chain of calcs
// of B (ns) over the previous round's receives (for w = 1 .. n - 1 one requiring receive w and the
// previous link, the first link being receive 0; then one requiring receive 0), send n requiring
// the chain's last link and every send the last calc; then the n `recv`s from r - w k^j. All tags
// 0. Its output for n = 1 (the default, the benchmark's) at N = 4 and 5, and for n = 2
// (`--nway 2`) at N = 4 and 5, 16 bytes.
const char* const kNwayN4 = R"(num_ranks 4

rank 0 {
l1: send 16b to 1 tag 0
l2: recv 16b from 3 tag 0
l3: send 16b to 2 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 2 tag 0
}

rank 1 {
l1: send 16b to 2 tag 0
l2: recv 16b from 0 tag 0
l3: send 16b to 3 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 3 tag 0
}

rank 2 {
l1: send 16b to 3 tag 0
l2: recv 16b from 1 tag 0
l3: send 16b to 0 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 0 tag 0
}

rank 3 {
l1: send 16b to 0 tag 0
l2: recv 16b from 2 tag 0
l3: send 16b to 1 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 1 tag 0
}
)";

const char* const kNwayN5 = R"(num_ranks 5

rank 0 {
l1: send 16b to 1 tag 0
l2: recv 16b from 4 tag 0
l3: send 16b to 2 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 3 tag 0
l6: send 16b to 4 tag 0
l7: calc 16
l7 requires l5
l6 requires l5
l6 requires l7
l8: recv 16b from 1 tag 0
}

rank 1 {
l1: send 16b to 2 tag 0
l2: recv 16b from 0 tag 0
l3: send 16b to 3 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 4 tag 0
l6: send 16b to 0 tag 0
l7: calc 16
l7 requires l5
l6 requires l5
l6 requires l7
l8: recv 16b from 2 tag 0
}

rank 2 {
l1: send 16b to 3 tag 0
l2: recv 16b from 1 tag 0
l3: send 16b to 4 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 0 tag 0
l6: send 16b to 1 tag 0
l7: calc 16
l7 requires l5
l6 requires l5
l6 requires l7
l8: recv 16b from 3 tag 0
}

rank 3 {
l1: send 16b to 4 tag 0
l2: recv 16b from 2 tag 0
l3: send 16b to 0 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 1 tag 0
l6: send 16b to 2 tag 0
l7: calc 16
l7 requires l5
l6 requires l5
l6 requires l7
l8: recv 16b from 4 tag 0
}

rank 4 {
l1: send 16b to 0 tag 0
l2: recv 16b from 3 tag 0
l3: send 16b to 1 tag 0
l4: calc 16
l4 requires l2
l3 requires l2
l3 requires l4
l5: recv 16b from 2 tag 0
l6: send 16b to 3 tag 0
l7: calc 16
l7 requires l5
l6 requires l5
l6 requires l7
l8: recv 16b from 0 tag 0
}
)";

const char* const kTwoWayN4 = R"(num_ranks 4

rank 0 {
l1: send 16b to 1 tag 0
l2: send 16b to 2 tag 0
l3: recv 16b from 3 tag 0
l4: recv 16b from 2 tag 0
l5: send 16b to 3 tag 0
l6: send 16b to 2 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 1 tag 0
l10: recv 16b from 2 tag 0
}

rank 1 {
l1: send 16b to 2 tag 0
l2: send 16b to 3 tag 0
l3: recv 16b from 0 tag 0
l4: recv 16b from 3 tag 0
l5: send 16b to 0 tag 0
l6: send 16b to 3 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 2 tag 0
l10: recv 16b from 3 tag 0
}

rank 2 {
l1: send 16b to 3 tag 0
l2: send 16b to 0 tag 0
l3: recv 16b from 1 tag 0
l4: recv 16b from 0 tag 0
l5: send 16b to 1 tag 0
l6: send 16b to 0 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 3 tag 0
l10: recv 16b from 0 tag 0
}

rank 3 {
l1: send 16b to 0 tag 0
l2: send 16b to 1 tag 0
l3: recv 16b from 2 tag 0
l4: recv 16b from 1 tag 0
l5: send 16b to 2 tag 0
l6: send 16b to 1 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 0 tag 0
l10: recv 16b from 1 tag 0
}
)";

const char* const kTwoWayN5 = R"(num_ranks 5

rank 0 {
l1: send 16b to 1 tag 0
l2: send 16b to 2 tag 0
l3: recv 16b from 4 tag 0
l4: recv 16b from 3 tag 0
l5: send 16b to 3 tag 0
l6: send 16b to 1 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 2 tag 0
l10: recv 16b from 4 tag 0
}

rank 1 {
l1: send 16b to 2 tag 0
l2: send 16b to 3 tag 0
l3: recv 16b from 0 tag 0
l4: recv 16b from 4 tag 0
l5: send 16b to 4 tag 0
l6: send 16b to 2 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 3 tag 0
l10: recv 16b from 0 tag 0
}

rank 2 {
l1: send 16b to 3 tag 0
l2: send 16b to 4 tag 0
l3: recv 16b from 1 tag 0
l4: recv 16b from 0 tag 0
l5: send 16b to 0 tag 0
l6: send 16b to 3 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 4 tag 0
l10: recv 16b from 1 tag 0
}

rank 3 {
l1: send 16b to 4 tag 0
l2: send 16b to 0 tag 0
l3: recv 16b from 2 tag 0
l4: recv 16b from 1 tag 0
l5: send 16b to 1 tag 0
l6: send 16b to 4 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 0 tag 0
l10: recv 16b from 2 tag 0
}

rank 4 {
l1: send 16b to 0 tag 0
l2: send 16b to 1 tag 0
l3: recv 16b from 3 tag 0
l4: recv 16b from 2 tag 0
l5: send 16b to 2 tag 0
l6: send 16b to 0 tag 0
l7: calc 16
l7 requires l4
l7 requires l3
l8: calc 16
l8 requires l3
l6 requires l7
l5 requires l8
l6 requires l8
l9: recv 16b from 1 tag 0
l10: recv 16b from 3 tag 0
}
)";

// The benchmark's _nocompute variant, as its simulation writes it: every `calc 16` set to
// `calc 0`.
std::string without_compute(std::string text) {
  const std::string from = "calc 16\n", to = "calc 0\n";
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

AlgorithmParams nway(std::uint32_t ranks, std::uint32_t k = 2, bool compute = true) {
  return {.ranks = ranks, .message_bytes = 16, .k = k, .compute = compute};
}

}  // namespace

TEST_CASE("n-way dissemination: the Schedgen fork's nwaydissemination, operation by operation") {
  test::expect_fork_goal("nway_dissemination", nway(4), kNwayN4);
  test::expect_fork_goal("nway_dissemination", nway(5), kNwayN5);
  test::expect_fork_goal("nway_dissemination", nway(4, 2, false), without_compute(kNwayN4));
  test::expect_fork_goal("nway_dissemination", nway(5, 2, false), without_compute(kNwayN5));
  test::expect_fork_goal("nway_dissemination", nway(4, 3), kTwoWayN4);
  test::expect_fork_goal("nway_dissemination", nway(5, 3), kTwoWayN5);
}

TEST_CASE("n-way dissemination: N = 4, 16 bytes, by hand") {
  // Two rounds, every rank alike. hand_net(): L 1000, o 100, g 50, G 1 ns/B. Round 0's send
  // leaves at 0 and arrives at o + L = 1100; its receive holds the CPU o + 15 G = 115 ns, to
  // 1215; the calc of 16 ns follows (to 1231), then round 1's send, which arrives at 2331 and is
  // received at 2446. Without compute the calc takes 0 ns: 2430.
  const AlgorithmKind& kind = *find_algorithm("nway_dissemination");
  const ScheduleRun with = run_schedule(kind.generate(nway(4)), test::hand_net());
  const ScheduleRun without = run_schedule(kind.generate(nway(4, 2, false)), test::hand_net());
  REQUIRE(with.complete);
  REQUIRE(without.complete);
  CHECK(with.finish == std::vector<double>{2446, 2446, 2446, 2446});
  CHECK(without.finish == std::vector<double>{2430, 2430, 2430, 2430});
}

TEST_CASE("n-way dissemination: rounds, one a distance") {
  const AlgorithmKind& kind = *find_algorithm("nway_dissemination");
  // k = 2: distances 1, 2, 4, 8 at N = 9 (four rounds), rank 0 sending to 8 in round 3.
  CHECK(kind.rounds(nway(9)).count == 4);
  CHECK(kind.rounds(nway(9)).of(0, {OpKind::kSend, 16, 8, 0}) == 3);
  CHECK(kind.rounds(nway(9)).of(8, {OpKind::kRecv, 16, 0, 0}) == 3);
  // k = 3 at N = 13: distances 1, 2 | 3, 6 | 9, 18 mod 13 = 5, three rounds.
  CHECK(kind.rounds(nway(13, 3)).count == 3);
  CHECK(kind.rounds(nway(13, 3)).of(0, {OpKind::kSend, 16, 5, 0}) == 2);
  // k = 3 at N = 5: round 1's 6 mod 5 = 1 is round 0's distance; every message is tag 0, so the
  // two rounds are one.
  CHECK(kind.rounds(nway(5, 3)).count == 1);
  // k = 3 at N = 2: the second way's message goes to the rank itself, as the fork writes it.
  const Schedule two = kind.generate(nway(2, 3));
  CHECK(two.peer(two.first_op(0) + 1) == 0);
  CHECK(run_schedule(two, test::hand_net()).complete);
  CHECK(kind.operations(nway(5, 3)) == 5 * 2 * (3 * 2 - 1));
}

TEST_CASE("n-way dissemination: collective.compute = false in a run file") {
  // The N = 4 case above from a run file (hand_net() in seconds), noiseless: 2446 ns with
  // compute, 2430 without.
  const std::string run_file = R"(name = "nway"
seed = 1
samples = 2
[collective]
kind = "schedule"
algorithm = "nway_dissemination"
N = 4
message_bytes = 16
compute = COMPUTE
[loggops]
L = 1e-6
o = 1e-7
g = 5e-8
G = 1e-9
[noise]
law = "exponential"
f = 0.1
)";
  for (const auto& [compute, expected] :
       {std::pair{"true", 2446e-9}, std::pair{"false", 2430e-9}}) {
    INFO("compute = " << compute);
    collnoise::testing::write_text("nway.toml",
                                   collnoise::testing::replace_text(run_file, "COMPUTE", compute));
    const auto run =
        collnoise::testing::run_command_line("run nway.toml --out nway.h5 --force --quiet");
    INFO(run.output);
    REQUIRE(run.code == 0);
    const auto json = collnoise::testing::run_command_line("summary nway.h5 --json");
    const auto at = json.output.find("\"noiseless_completion\": ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stod(json.output.substr(at + 24)) == Approx(expected).epsilon(1e-12));
  }
}

TEST_CASE("n-way dissemination: collnoise schedule --compute false writes the _nocompute GOAL") {
  for (const std::string compute : {"true", "false"}) {
    INFO("--compute " << compute);
    const auto written = collnoise::testing::run_command_line(
        "schedule nway_dissemination --ranks 5 --bytes 16 --compute " + compute +
        " --goal nway.goal --force");
    INFO(written.output);
    REQUIRE(written.code == 0);
    const Schedule ours = read_goal_text(collnoise::testing::slurp("nway.goal"), "nway.goal");
    const Schedule fork =
        read_goal_text(compute == "true" ? std::string(kNwayN5) : without_compute(kNwayN5), "fork");
    test::expect_same_operations(ours, fork);
  }
}
