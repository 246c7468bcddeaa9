// The linear scatter (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, cycle joins, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

Schedule linear_scatter(const AlgorithmParams& p) {
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    if (r == 0)
      for (std::uint32_t to = 1; to < p.ranks; ++to) ops.send(to, p.message_bytes, 0);
    else
      ops.recv(0, p.message_bytes, 0);
  });
}

}  // namespace

AlgorithmKind linear_scatter_kind() {
  return {.name = "linear_scatter",
          .meaning = "rank 0 sends to every rank (Open MPI's basic linear scatter)",
          .generate = linear_scatter,
          .operations = messages_of_tree,
          .cycle_joins = linear_joins,
          .rounds = linear_rounds};
}

}  // namespace collnoise::algorithms
