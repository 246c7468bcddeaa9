// The pairwise alltoall (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <algorithm>
#include <optional>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

auto pairwise_emitter(const AlgorithmParams& p) {
  return [p](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    MaybeOp previous;
    for (std::uint32_t k = 1; k < n; ++k)
      previous = exchange(ops, (r + k) % n, (r + n - k) % n, p.message_bytes, p.message_bytes, k,
                          previous, p.receives);
  };
}

Schedule pairwise_alltoall(const AlgorithmParams& p) {
  return build(p.ranks, pairwise_emitter(p));
}

std::optional<GeneratedSchedule> pairwise_alltoall_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, pairwise_emitter(p));
}

double pairwise_operations(const AlgorithmParams& p) {
  return 2.0 * n_of(p) * (n_of(p) - 1.0);
}

// Pairwise alltoall: round k - 1 exchanges with r + k and r - k, tag k, for k = 1 .. N - 1.
AlgorithmRounds pairwise_rounds(const AlgorithmParams& p) {
  return rounds(p.ranks - std::min(p.ranks, 1U),
                [](std::uint32_t, const Operation& op) { return op.tag - 1; });
}

}  // namespace

AlgorithmKind pairwise_alltoall_kind() {
  return {.name = "pairwise_alltoall",
          .meaning = "N - 1 rounds of pairwise exchanges (MPICH, Open MPI, long messages)",
          .uses_receive_order = true,
          .generate = pairwise_alltoall,
          .generate_on_the_fly = pairwise_alltoall_on_the_fly,
          .operations = pairwise_operations,
          .rounds = pairwise_rounds};
}

}  // namespace collnoise::algorithms
