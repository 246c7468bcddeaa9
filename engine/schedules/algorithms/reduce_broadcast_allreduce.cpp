// The allreduce made of a binomial reduce and a binomial broadcast (docs/models/schedules.md,
// "Built-in algorithms"): its generator, operation count, cycle joins, rounds and its entry,
// listed in algorithm_kinds() (engine/schedules/algorithms/algorithms.cpp).
#include <bit>
#include <vector>

#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

// The two halves' tags: a rank's reduce and broadcast messages never match each other's receives.
constexpr std::uint32_t kReduceTag = 0;
constexpr std::uint32_t kBroadcastTag = 1;

// MPI_Reduce to rank 0, then MPI_Bcast from it, the vector whole in both: a rank posts its
// broadcast receive once its reduce send has finished, and the root sends once it has every
// contribution.
Schedule reduce_broadcast_allreduce(const AlgorithmParams& p) {
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    const std::vector<Local> reduced =
        binomial_reduce_rank(ops, r, p.ranks, p.message_bytes, kReduceTag, p.receives);
    binomial_broadcast_rank(ops, r, p.ranks, p.message_bytes, kBroadcastTag, reduced);
  });
}

double reduce_broadcast_operations(const AlgorithmParams& p) {
  return 2.0 * messages_of_tree(p);
}

// The reduce's rounds (distance 2^i: round i), then the broadcast's (distance 2^i: round
// 2 count - 1 - i, the root sending farthest first), told apart by the tag.
AlgorithmRounds reduce_broadcast_rounds(const AlgorithmParams& p) {
  const std::uint32_t count = ceil_log2(p.ranks);
  return rounds(2 * count, [count](std::uint32_t rank, const Operation& op) {
    const auto width = static_cast<std::uint32_t>(std::bit_width(distance(rank, op)));
    return op.tag == kReduceTag ? width - 1 : 2 * count - width;
  });
}

}  // namespace

AlgorithmKind reduce_broadcast_allreduce_kind() {
  return {.name = "reduce_broadcast_allreduce",
          .meaning =
              "binomial reduce to rank 0, then binomial broadcast from it (Open MPI's "
              "non-overlapping allreduce)",
          .uses_receive_order = true,
          .generate = reduce_broadcast_allreduce,
          .operations = reduce_broadcast_operations,
          .cycle_joins = tree_joins,
          .rounds = reduce_broadcast_rounds};
}

}  // namespace collnoise::algorithms
