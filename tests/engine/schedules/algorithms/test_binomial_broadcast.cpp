// The binomial broadcast (engine/schedules/algorithms/binomial_broadcast.cpp) against the
// binomial tree of the authors' Schedgen fork, `schedgen -p binomialtreebcast` (the benchmark's
// binomialtreebcast_<N>_<B>): another schedule, whose ranks finish as binomial_broadcast's at
// powers of two, ranks renumbered (docs/models/schedules.md, "The benchmark patterns of the
// Schedgen fork").
#include <fmt/format.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

// The fork's output for N = 4 and N = 5, 16 bytes.
const char* const kForkN4 = R"(num_ranks 4

rank 0 {
l1: send 16b to 1 tag 0
l2: send 16b to 2 tag 0
l2 requires l1
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

const char* const kForkN5 = R"(num_ranks 5

rank 0 {
l1: send 16b to 1 tag 0
l2: send 16b to 2 tag 0
l2 requires l1
l3: send 16b to 4 tag 0
l3 requires l2
}

rank 1 {
l1: recv 16b from 0 tag 0
l2: send 16b to 3 tag 0
l2 requires l1
l2 requires l1
}

rank 2 {
l1: recv 16b from 0 tag 0
}

rank 3 {
l1: recv 16b from 1 tag 0
}

rank 4 {
l1: recv 16b from 0 tag 0
}
)";

// The fork's rule (schedgen.cpp, create_binomial_tree_bcast_rank), written as its GOAL: for
// r = 0 .. ceil(log2 N) - 1, a rank below 2^r sends to rank + 2^r (if below N), requiring its
// previous send; a send requires the rank's receive (the line repeated for every later round);
// a rank in [2^r, 2^(r + 1)) receives from rank - 2^r. Labels from l1, blank lines as Schedgen's.
std::string fork_binomial(std::uint32_t n, std::uint64_t bytes) {
  std::string text = fmt::format("num_ranks {}\n", n);
  std::uint32_t rounds = 0;
  while ((std::uint64_t{1} << rounds) < n) ++rounds;
  for (std::uint32_t v = 0; v < n; ++v) {
    text += fmt::format("\nrank {} {{\n", v);
    int label = 0, recv = -1, send = -1, last = -1;
    for (std::uint32_t r = 0; r < rounds; ++r) {
      const std::uint64_t d = std::uint64_t{1} << r;
      if (v + d < n && v < d) {
        send = ++label;
        text += fmt::format("l{}: send {}b to {} tag 0\n", send, bytes, v + d);
        if (last != -1) text += fmt::format("l{} requires l{}\n", send, last);
        last = send;
      }
      if (send >= 0 && recv >= 0) text += fmt::format("l{} requires l{}\n", send, recv);
      if (v >= d && v < 2 * d) {
        recv = ++label;
        text += fmt::format("l{}: recv {}b from {} tag 0\n", recv, bytes, v - d);
      }
    }
    text += "}\n";
  }
  return text;
}

std::uint32_t bit_reversed(std::uint32_t v, std::uint32_t bits) {
  std::uint32_t u = 0;
  for (std::uint32_t i = 0; i < bits; ++i)
    if ((v >> i) & 1U) u |= 1U << (bits - 1 - i);
  return u;
}

}  // namespace

TEST_CASE("binomial broadcast: the fork's rule as written above is its GOAL") {
  CHECK(fork_binomial(4, 16) == kForkN4);
  CHECK(fork_binomial(5, 16) == kForkN5);
}

TEST_CASE("binomial broadcast: the fork's binomialtreebcast mirrored, at powers of two") {
  // The fork's rank v receives from v less its highest bit and sends nearest first; MPICH's
  // rank u from u less its lowest set bit, farthest first: at N = 2^m the trees are each other's
  // with ranks bit-reversed, and without noise every rank finishes as its image does, eager
  // (16 B, 16 KiB) or rendezvous (16 MiB > S).
  for (const std::uint32_t bits : {2U, 3U, 4U, 5U})
    for (const std::uint64_t bytes : {16ULL, 16384ULL, 16777216ULL}) {
      const std::uint32_t n = 1U << bits;
      INFO(n << " ranks, " << bytes << " bytes");
      const Schedule fork = read_goal_text(fork_binomial(n, bytes), "fork");
      const Schedule ours =
          find_algorithm("binomial_broadcast")->generate({.ranks = n, .message_bytes = bytes});
      CHECK(fork.operations() == ours.operations());
      const std::vector<double> theirs = run_schedule(fork, test::hand_net()).finish;
      const std::vector<double> mine = run_schedule(ours, test::hand_net()).finish;
      std::size_t differ = 0;
      for (std::uint32_t v = 0; v < n; ++v) differ += theirs[v] != mine[bit_reversed(v, bits)];
      CHECK(differ == 0);
    }
}

TEST_CASE("binomial broadcast: not the fork's at other N") {
  // N = 5, 16 bytes, hand_net() (L 1000, o 100, g 50, G 1 ns/B; a hop o + L + o + 15 G = 1215).
  // The fork's root sends to 1 at 0 (received at 1215), 2 at 100 and 4 at 200; 1 sends on to 3
  // at 1215, received at 2430. MPICH's root sends to 4 first, then 2 (at 100, received at 1315),
  // which sends on to 3, received at 2530.
  const auto last = [](const std::vector<double>& finish) {
    double m = 0;
    for (const double t : finish) m = std::max(m, t);
    return m;
  };
  const Schedule fork = read_goal_text(kForkN5, "fork");
  const Schedule ours =
      find_algorithm("binomial_broadcast")->generate({.ranks = 5, .message_bytes = 16});
  CHECK(last(run_schedule(fork, test::hand_net()).finish) == 2430);
  CHECK(last(run_schedule(ours, test::hand_net()).finish) == 2530);
}
