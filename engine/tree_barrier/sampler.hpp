#pragma once
// The tree barrier under per-stage noise (docs/models/tree-barrier.md; Agarwal, Garg, Vishnoi): one
// phase takes
//   T = max_i (w + s eta_i + 2 tau d(i))    seconds,
// with eta_i iid unit-mean noise, s the stage scale and d(i) the heap depth of rank i.
//
// Two exact sampling paths:
//  - per rank: every rank draws its own 64-bit word from a 16-lane pcg32 generator keyed by
//    (point, phase, block of kBlockRanks ranks). Since eta_i = ISF(U_i) is non-increasing in U_i,
//    the level's maximum is ISF(min U) (the "monotone trick"): the same sample path, bit for bit,
//    as transforming every rank, with the transform done once per level;
//  - per level: the maximum of the n_d ranks of depth d drawn directly as
//    ISF(-expm1(log(U) / n_d)), O(log N) per phase, N up to 2^127.
// Blocks and phases are keyed by index, so the phase times do not depend on thread counts.
#include <cstdint>
#include <span>

#include "core/cpu_features.hpp"
#include "distributions/law_spec.hpp"
#include "engine/tree_barrier/tree_shape.hpp"

namespace collnoise {

enum class TreeSampling { kPerRank, kPerLevel };

/// A bound on the roundings inside one phase time, on either path: each level's time is
/// fl(fl(w + fl(s eta)) + fl(2 tau d)) (2 tau is exact), four roundings of non-negative terms, each
/// at most u = 2^-53 of the level's time and so of T; the maximum over levels is exact. Four more
/// allow for the law's transform U -> eta (a closed-form ISF is good to a few ulps of eta; the
/// per-level argument -expm1(log(U)/n) adds three roundings relative to the tail probability,
/// which the ISF damps). So |computed T - T| <= 8 u T (docs/models/estimators.md, "Intervals at the
/// arithmetic floor").
inline constexpr int kPhaseTimeRoundings = 8;

struct TreeBarrierModel {
  TreeShape shape{1};
  double w = 0.0;    ///< work per phase, seconds (> 0)
  double tau = 0.0;  ///< latency per tree hop, seconds (>= 0)
  StageNoise noise;  ///< stage delay = noise.scale * eta
};

class TreeBarrierSampler {
 public:
  static constexpr std::uint64_t kBlockRanks = 1ULL << 16;

  /// Preconditions: model valid; per-rank sampling needs N < 2^64 (checked: InputError).
  TreeBarrierSampler(TreeBarrierModel model, TreeSampling sampling, std::uint64_t point_key);

  /// Phase times of phases first_phase, first_phase + 1, ... into `out` (seconds), in parallel
  /// over phases or blocks of ranks with up to `threads` OpenMP threads. The values depend only
  /// on the key and phase indices.
  void sample(std::uint64_t first_phase, std::span<double> out, int threads) const;

  /// One phase, single-threaded.
  double phase_time(std::uint64_t phase) const;

  const TreeBarrierModel& model() const { return model_; }

 private:
  double per_level_phase(std::uint64_t phase) const;
  double per_rank_phase(std::uint64_t phase, int threads) const;
  double time_from_level_min_words(std::span<const std::uint64_t> min_words) const;

  TreeBarrierModel model_;
  TreeSampling sampling_;
  std::uint64_t key_;
  std::uint64_t blocks_ = 0;
};

/// Per-level minima of the random words of ranks [first_rank, end_rank) of one block, merged
/// into `min_words` (index = depth). Exposed for the benchmark and tests. Runs the variant of the
/// CPU's level (core/cpu_features.hpp; every variant gives the same minima).
void block_level_min_words(std::uint64_t block_key, std::uint64_t first_rank,
                           std::uint64_t end_rank, std::span<std::uint64_t> min_words);

using LevelMinWordsKernel = void (*)(std::uint64_t, std::uint64_t, std::uint64_t,
                                     std::span<std::uint64_t>);
/// Every CPU variant of block_level_min_words, for the tests that compare them.
const KernelVariants<LevelMinWordsKernel>& block_level_min_words_variants();

}  // namespace collnoise
