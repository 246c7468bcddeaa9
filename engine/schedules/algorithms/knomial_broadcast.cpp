// The k-nomial broadcast (docs/models/schedules.md, "Built-in algorithms"): its generator,
// operation count, cycle joins, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

void check_k(const AlgorithmParams& p) {
  if (p.k < 2)
    throw InputError(
        fmt::format("collective.k = {} is invalid: a k-nomial tree needs k >= 2", p.k));
}

Schedule knomial_broadcast(const AlgorithmParams& p) {
  check_k(p);
  const std::uint32_t n = p.ranks;
  const std::uint64_t k = p.k;
  return build(n, [&](std::uint32_t r, RankOps& ops) {
    MaybeOp got;
    std::uint64_t mask = 1;
    while (mask < n) {
      if (r % (k * mask) != 0) {
        got = ops.recv(static_cast<std::uint32_t>(r - r % (k * mask)), p.message_bytes, 0);
        break;
      }
      mask *= k;
    }
    for (mask /= k; mask > 0; mask /= k)
      for (std::uint64_t j = 1; j < k; ++j)
        if (r + mask * j < n)
          ops.after(ops.send(static_cast<std::uint32_t>(r + mask * j), p.message_bytes, 0), got);
  });
}

// K-nomial broadcast: one round per level of the tree, the root's highest power of k first. A
// level's k - 1 sends over distances j k^i (j = 1 .. k - 1) are one round, as the tree's depth
// counts them (one round per send would leave rounds empty where N - 1 < (k - 1) k^i).
AlgorithmRounds knomial_rounds(const AlgorithmParams& p) {
  check_k(p);
  std::uint32_t levels = 0;
  for (std::uint64_t mask = 1; mask < p.ranks; mask *= p.k) ++levels;
  return rounds(levels, [levels, k = std::uint64_t{p.k}](std::uint32_t rank, const Operation& op) {
    const std::uint64_t d = distance(rank, op);
    std::uint32_t level = 0;  // the i of k^i <= d < k^(i + 1)
    for (std::uint64_t mask = k; mask <= d; mask *= k) ++level;
    return levels - 1 - level;
  });
}

}  // namespace

AlgorithmKind knomial_broadcast_kind() {
  return {.name = "knomial_broadcast",
          .meaning = "k-nomial tree from rank 0 (MPICH's default broadcast tree, k = 4)",
          .uses_k = true,
          .generate = knomial_broadcast,
          .operations = messages_of_tree,
          .cycle_joins = tree_joins,
          .rounds = knomial_rounds};
}

}  // namespace collnoise::algorithms
