// The binary tree broadcast (docs/models/schedules.md, "Built-in algorithms"): its generator,
// operation count, cycle joins, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp). It is the pattern the authors' Schedgen fork
// writes as `-p binarytreebcast` (the "binarytreebcast" benchmark of DanieleDeSensi/cloud_noise).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

// Heap numbering from rank 0: rank r > 0 receives from (r - 1) / 2, then sends to its children
// 2r + 1 and 2r + 2 (those below N), each waiting for the receive. The root's two sends wait for
// nothing (not even each other).
Schedule binary_tree_broadcast(const AlgorithmParams& p) {
  const std::uint64_t n = p.ranks;
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    MaybeOp got;
    if (r > 0) got = ops.recv((r - 1) / 2, p.message_bytes, 0);
    std::vector<Local> sends;
    for (std::uint64_t c = 2ULL * r + 1; c <= 2ULL * r + 2 && c < n; ++c)
      sends.push_back(ops.send(static_cast<std::uint32_t>(c), p.message_bytes, 0));
    for (const Local s : sends) ops.after(s, got);
  });
}

// The root starts and ends with its (at most) two sends; every other rank starts with its receive
// and ends with its sends, or with the receive at a leaf: at most 2 last operations a rank.
double binary_tree_joins(const AlgorithmParams& p, bool with_compute) {
  return joins(2.0, 2.0, with_compute) + (n_of(p) - 1.0) * joins(1.0, 2.0, with_compute);
}

// Binary tree broadcast: the message to a child at depth d (of the heap, floor(log2(r + 1))) is
// round d - 1; floor(log2 N) rounds.
AlgorithmRounds binary_tree_rounds(const AlgorithmParams& p) {
  const auto depth = [](std::uint64_t r) {
    return static_cast<std::uint32_t>(std::bit_width(r + 1)) - 1;
  };
  return rounds(p.ranks < 1 ? 0 : depth(p.ranks - 1),
                [depth](std::uint32_t rank, const Operation& op) {
                  return depth(std::max(rank, op.peer)) - 1;
                });
}

}  // namespace

AlgorithmKind binary_tree_broadcast_kind() {
  return {.name = "binary_tree_broadcast",
          .meaning =
              "heap-ordered binary tree from rank 0 (the Schedgen fork's binarytreebcast "
              "benchmark)",
          .generate = binary_tree_broadcast,
          .operations = messages_of_tree,
          .cycle_joins = binary_tree_joins,
          .rounds = binary_tree_rounds};
}

}  // namespace collnoise::algorithms
