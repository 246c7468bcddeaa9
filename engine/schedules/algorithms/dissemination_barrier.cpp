// The dissemination barrier (docs/models/schedules.md, "Built-in algorithms"): its generator,
// operation count, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <optional>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

auto dissemination_emitter(const AlgorithmParams& p) {
  return [p](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    MaybeOp previous;
    for (std::uint32_t k = 0; k < ceil_log2(n); ++k) {
      const std::uint64_t d = std::uint64_t{1} << k;
      previous = exchange(ops, static_cast<std::uint32_t>((r + d) % n),
                          static_cast<std::uint32_t>((r + n - d % n) % n), p.message_bytes,
                          p.message_bytes, k, previous, p.receives);
    }
  };
}

Schedule dissemination_barrier(const AlgorithmParams& p) {
  return build(p.ranks, dissemination_emitter(p));
}

std::optional<GeneratedSchedule> dissemination_barrier_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, dissemination_emitter(p));
}

}  // namespace

AlgorithmKind dissemination_barrier_kind() {
  return {.name = "dissemination_barrier",
          .meaning = "ceil(log2 N) rounds to r + 2^k (MPICH barrier)",
          .uses_receive_order = true,
          .generate = dissemination_barrier,
          .generate_on_the_fly = dissemination_barrier_on_the_fly,
          .operations = rounds_operations,
          .rounds = rounds_by_tag};
}

}  // namespace collnoise::algorithms
