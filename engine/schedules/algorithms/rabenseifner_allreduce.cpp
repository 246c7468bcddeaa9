// Rabenseifner's allreduce (docs/models/schedules.md, "Built-in algorithms"): its generator,
// operation count, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

auto rabenseifner_emitter(const AlgorithmParams& p) {
  const Folding f = folding_of(p.ranks);
  const Blocks blocks{p.message_bytes, f.pof2};
  return [p, f, blocks](std::uint32_t r, RankOps& ops) {
    MaybeOp folded_send;
    MaybeOp previous = fold_in(ops, r, f, p.message_bytes, folded_send);
    if (const auto me = f.new_rank(r)) {
      // Reduce-scatter by recursive halving: keep the half of the window on my side of the
      // partner, send the other half.
      std::uint32_t lo = 0, hi = f.pof2, round = 0;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> windows;
      for (std::uint32_t mask = f.pof2 >> 1; mask > 0; mask >>= 1, ++round) {
        const std::uint32_t partner_new = *me ^ mask;
        const std::uint32_t mid = lo + (hi - lo) / 2;
        const bool lower = *me < partner_new;
        const std::uint32_t keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
        const std::uint32_t give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
        windows.emplace_back(lo, hi);
        previous = exchange(ops, f.old_rank(partner_new), f.old_rank(partner_new),
                            blocks.size_of(give_lo, give_hi), blocks.size_of(keep_lo, keep_hi),
                            round, previous, p.receives);
        lo = keep_lo;
        hi = keep_hi;
      }
      // Allgather by recursive doubling, the windows in reverse.
      for (std::uint32_t mask = 1; mask < f.pof2; mask <<= 1, ++round) {
        const std::uint32_t partner_new = *me ^ mask;
        const auto [wlo, whi] = windows.back();
        windows.pop_back();
        const std::uint64_t mine = blocks.size_of(lo, hi);
        const std::uint64_t theirs = blocks.size_of(wlo, whi) - mine;
        previous = exchange(ops, f.old_rank(partner_new), f.old_rank(partner_new), mine, theirs,
                            round, previous, p.receives);
        lo = wlo;
        hi = whi;
      }
    }
    fold_out(ops, r, f, p.message_bytes, previous, folded_send, p.receives);
  };
}

Schedule rabenseifner_allreduce(const AlgorithmParams& p) {
  return build(p.ranks, rabenseifner_emitter(p));
}

// On the fly when the vector splits into equal blocks (bytes a multiple of the power of two):
// then every rank of a class sends and receives the same sizes, as for recursive doubling.
std::optional<GeneratedSchedule> rabenseifner_allreduce_on_the_fly(const AlgorithmParams& p) {
  const Folding f = folding_of(p.ranks);
  if (p.message_bytes % f.pof2 != 0) return std::nullopt;
  return generate_classes(p.ranks, RankFold{f.rem}, fold_runs(p.ranks), rabenseifner_emitter(p),
                          fold_peer_mode);
}

double rabenseifner_operations(const AlgorithmParams& p) {
  return 2.0 * butterfly_operations(p);
}

AlgorithmRounds rabenseifner_rounds(const AlgorithmParams& p) {
  return folded_rounds(p, 2);  // recursive halving, then recursive doubling
}

}  // namespace

AlgorithmKind rabenseifner_allreduce_kind() {
  return {.name = "rabenseifner_allreduce",
          .meaning =
              "reduce-scatter by recursive halving, allgather by recursive doubling (MPICH, "
              "long vectors)",
          .uses_receive_order = true,
          .generate = rabenseifner_allreduce,
          .generate_on_the_fly = rabenseifner_allreduce_on_the_fly,
          .operations = rabenseifner_operations,
          .rounds = rabenseifner_rounds};
}

}  // namespace collnoise::algorithms
