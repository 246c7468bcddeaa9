// The binomial reduce (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, cycle joins, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <bit>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

Schedule binomial_reduce(const AlgorithmParams& p) {
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    binomial_reduce_rank(ops, r, p.ranks, p.message_bytes, 0, p.receives);
  });
}

// Binomial reduce: the message over distance 2^i is round i (masks from low to high).
AlgorithmRounds binomial_reduce_rounds(const AlgorithmParams& p) {
  return rounds(ceil_log2(p.ranks), [](std::uint32_t rank, const Operation& op) {
    return static_cast<std::uint32_t>(std::bit_width(distance(rank, op))) - 1;
  });
}

}  // namespace

AlgorithmKind binomial_reduce_kind() {
  return {.name = "binomial_reduce",
          .meaning = "binomial tree to rank 0 (MPICH reduce, short messages)",
          .uses_receive_order = true,
          .generate = binomial_reduce,
          .operations = messages_of_tree,
          .cycle_joins = tree_joins,
          .rounds = binomial_reduce_rounds};
}

}  // namespace collnoise::algorithms
