// The recursive doubling allreduce (docs/models/schedules.md, "Built-in algorithms"): its
// generator, operation count, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <optional>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

auto recursive_doubling_emitter(const AlgorithmParams& p) {
  return [p, f = folding_of(p.ranks)](std::uint32_t r, RankOps& ops) {
    MaybeOp folded_send;
    MaybeOp previous = fold_in(ops, r, f, p.message_bytes, folded_send);
    if (const auto me = f.new_rank(r)) {
      std::uint32_t round = 0;
      for (std::uint32_t mask = 1; mask < f.pof2; mask <<= 1, ++round) {
        const std::uint32_t partner = f.old_rank(*me ^ mask);
        previous = exchange(ops, partner, partner, p.message_bytes, p.message_bytes, round,
                            previous, p.receives);
      }
    }
    fold_out(ops, r, f, p.message_bytes, previous, folded_send, p.receives);
  };
}

Schedule recursive_doubling_allreduce(const AlgorithmParams& p) {
  return build(p.ranks, recursive_doubling_emitter(p));
}

std::optional<GeneratedSchedule> recursive_doubling_allreduce_on_the_fly(const AlgorithmParams& p) {
  return generate_classes(p.ranks, RankFold{folding_of(p.ranks).rem}, fold_runs(p.ranks),
                          recursive_doubling_emitter(p), fold_peer_mode);
}

AlgorithmRounds recursive_doubling_rounds(const AlgorithmParams& p) {
  return folded_rounds(p, 1);
}

}  // namespace

AlgorithmKind recursive_doubling_allreduce_kind() {
  return {.name = "recursive_doubling_allreduce",
          .meaning = "the butterfly with MPICH's fold for N not a power of two (short vectors)",
          .uses_receive_order = true,
          .generate = recursive_doubling_allreduce,
          .generate_on_the_fly = recursive_doubling_allreduce_on_the_fly,
          .operations = butterfly_operations,
          .rounds = recursive_doubling_rounds};
}

}  // namespace collnoise::algorithms
