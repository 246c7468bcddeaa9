// The linear gather (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, cycle joins, searches, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

Schedule linear_gather(const AlgorithmParams& p) {
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    if (r == 0)
      for (std::uint32_t from = 1; from < p.ranks; ++from) ops.recv(from, p.message_bytes, 0);
    else
      ops.send(0, p.message_bytes, 0);
  });
}

// The root of a linear gather: each message, arriving in any order under noise, searches half
// of the receives still posted.
double root_searches(const AlgorithmParams& p) {
  const double n = n_of(p) - 1.0;
  return n * n / 4.0;
}

}  // namespace

AlgorithmKind linear_gather_kind() {
  return {.name = "linear_gather",
          .meaning = "every rank sends to rank 0 (Open MPI's basic linear gather)",
          .generate = linear_gather,
          .operations = messages_of_tree,
          .searches = root_searches,
          .cycle_joins = linear_joins,
          .rounds = linear_rounds};
}

}  // namespace collnoise::algorithms
