// Bruck's allgather (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <algorithm>
#include <optional>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

auto bruck_emitter(const AlgorithmParams& p) {
  return [p](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    MaybeOp previous;
    for (std::uint32_t k = 0; k < ceil_log2(n); ++k) {
      const std::uint64_t d = std::uint64_t{1} << k;
      const std::uint64_t blocks = std::min<std::uint64_t>(d, n - d);
      previous = exchange(ops, static_cast<std::uint32_t>((r + n - d) % n),
                          static_cast<std::uint32_t>((r + d) % n), blocks * p.message_bytes,
                          blocks * p.message_bytes, k, previous, p.receives);
    }
  };
}

Schedule bruck_allgather(const AlgorithmParams& p) {
  return build(p.ranks, bruck_emitter(p));
}

std::optional<GeneratedSchedule> bruck_allgather_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, bruck_emitter(p));
}

}  // namespace

AlgorithmKind bruck_allgather_kind() {
  return {.name = "bruck_allgather",
          .meaning = "ceil(log2 N) rounds of doubling blocks (MPICH, short messages)",
          .uses_receive_order = true,
          .generate = bruck_allgather,
          .generate_on_the_fly = bruck_allgather_on_the_fly,
          .operations = rounds_operations,
          .rounds = rounds_by_tag};
}

}  // namespace collnoise::algorithms
