// The binomial broadcast (docs/models/schedules.md, "Built-in algorithms"): its generator,
// operation count, cycle joins, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <bit>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

Schedule binomial_broadcast(const AlgorithmParams& p) {
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    binomial_broadcast_rank(ops, r, p.ranks, p.message_bytes, 0);
  });
}

// Binomial broadcast: the message over distance 2^i leaves in round (rounds - 1 - i), the root
// sending over the largest distance first (masks from high to low).
AlgorithmRounds binomial_broadcast_rounds(const AlgorithmParams& p) {
  const std::uint32_t count = ceil_log2(p.ranks);
  return rounds(count, [count](std::uint32_t rank, const Operation& op) {
    return count - static_cast<std::uint32_t>(std::bit_width(distance(rank, op)));
  });
}

}  // namespace

AlgorithmKind binomial_broadcast_kind() {
  return {.name = "binomial_broadcast",
          .meaning = "binomial tree from rank 0 (MPICH and Open MPI, short messages)",
          .generate = binomial_broadcast,
          .operations = messages_of_tree,
          .cycle_joins = tree_joins,
          .rounds = binomial_broadcast_rounds};
}

}  // namespace collnoise::algorithms
