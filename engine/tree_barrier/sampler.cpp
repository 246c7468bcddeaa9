#include "engine/tree_barrier/sampler.hpp"

#include <omp.h>
#include <algorithm>
#include <array>
#include <cmath>

#include "core/cpu_features.hpp"
#include "core/errors.hpp"
#include "core/parallel_for.hpp"
#include "core/rng.hpp"

namespace collnoise {
namespace {

constexpr std::size_t kMaxLevels = 64;
constexpr std::size_t kWordBatch = 1024;

[[gnu::always_inline]] inline int level_of(std::uint64_t rank) {
  return 63 - __builtin_clzll(rank + 1);
}

[[gnu::always_inline]] inline std::uint64_t min_of(const std::uint64_t* words, std::size_t count) {
  std::uint64_t m = ~0ULL;
#pragma omp simd reduction(min : m)
  for (std::size_t i = 0; i < count; ++i) m = std::min(m, words[i]);
  return m;
}

// The kernel's one definition, inlined into each CPU variant below: integer work only (the
// generator's words and their minima), so every variant gives the same minima.
[[gnu::always_inline]] inline void level_min_words(std::uint64_t block_key,
                                                   std::uint64_t first_rank, std::uint64_t end_rank,
                                                   std::span<std::uint64_t> min_words) {
  Pcg32Lanes generator(block_key);
  alignas(64) std::array<std::uint64_t, kWordBatch> words;
  for (std::uint64_t start = first_rank; start < end_rank; start += kWordBatch) {
    const std::size_t count =
        static_cast<std::size_t>(std::min<std::uint64_t>(kWordBatch, end_rank - start));
    const std::uint64_t stop = start + count;
    // Almost every batch lies inside one level: reduce the words without storing them.
    if (count == kWordBatch && level_of(start) == level_of(stop - 1)) {
      const auto depth = static_cast<std::size_t>(level_of(start));
      min_words[depth] =
          std::min(min_words[depth], generator.min_of_next_inline(kWordBatch / Pcg32Lanes::kLanes));
      continue;
    }
    const std::size_t filled =
        (count + Pcg32Lanes::kLanes - 1) / Pcg32Lanes::kLanes * Pcg32Lanes::kLanes;
    generator.fill_inline(std::span(words.data(), filled));
    std::uint64_t rank = start;
    while (rank < stop) {
      const int depth = level_of(rank);
      const std::uint64_t level_end =
          (depth == 63) ? stop : std::min<std::uint64_t>(stop, (2ULL << depth) - 1);
      const std::uint64_t m = min_of(words.data() + (rank - start), level_end - rank);
      min_words[static_cast<std::size_t>(depth)] =
          std::min(min_words[static_cast<std::size_t>(depth)], m);
      rank = level_end;
    }
  }
}

void level_min_words_baseline(std::uint64_t block_key, std::uint64_t first_rank,
                              std::uint64_t end_rank, std::span<std::uint64_t> min_words) {
  level_min_words(block_key, first_rank, end_rank, min_words);
}

#if COLLNOISE_DISPATCH
[[gnu::target(COLLNOISE_TARGET_V3)]] void level_min_words_v3(std::uint64_t block_key,
                                                             std::uint64_t first_rank,
                                                             std::uint64_t end_rank,
                                                             std::span<std::uint64_t> min_words) {
  level_min_words(block_key, first_rank, end_rank, min_words);
}
[[gnu::target(COLLNOISE_TARGET_V4)]] void level_min_words_v4(std::uint64_t block_key,
                                                             std::uint64_t first_rank,
                                                             std::uint64_t end_rank,
                                                             std::span<std::uint64_t> min_words) {
  level_min_words(block_key, first_rank, end_rank, min_words);
}
#else
constexpr auto level_min_words_v3 = level_min_words_baseline;
constexpr auto level_min_words_v4 = level_min_words_baseline;
#endif

}  // namespace

const KernelVariants<LevelMinWordsKernel>& block_level_min_words_variants() {
  static constexpr KernelVariants<LevelMinWordsKernel> variants{
      level_min_words_baseline, level_min_words_v3, level_min_words_v4};
  return variants;
}

void block_level_min_words(std::uint64_t block_key, std::uint64_t first_rank,
                           std::uint64_t end_rank, std::span<std::uint64_t> min_words) {
  static const auto kernel = block_level_min_words_variants().selected();
  kernel(block_key, first_rank, end_rank, min_words);
}

TreeBarrierSampler::TreeBarrierSampler(TreeBarrierModel model, TreeSampling sampling,
                                       std::uint64_t point_key)
    : model_(std::move(model)), sampling_(sampling), key_(point_key) {
  if (sampling_ == TreeSampling::kPerRank) {
    if (model_.shape.ranks() > RankCount{~0ULL})
      throw InputError(
          "collective.sampling = \"per_rank\" draws every rank: N must be below 2^64 (use "
          "\"per_level\" for larger trees)");
    const auto n = static_cast<std::uint64_t>(model_.shape.ranks());
    blocks_ = n / kBlockRanks + (n % kBlockRanks != 0);
  }
}

double TreeBarrierSampler::time_from_level_min_words(
    std::span<const std::uint64_t> min_words) const {
  const auto& noise = model_.noise;
  double t = 0.0;
  for (int d = 0; d <= model_.shape.depth(); ++d) {
    const double eta = noise.eta->isf(uniform_from_word(min_words[static_cast<std::size_t>(d)]));
    t = std::max(t, model_.w + noise.scale * eta + 2.0 * model_.tau * d);
  }
  return t;
}

double TreeBarrierSampler::per_rank_phase(std::uint64_t phase, int threads) const {
  const std::uint64_t key = stream_key(key_, StreamPurpose::kTreePerRank, phase);
  const auto n = static_cast<std::uint64_t>(model_.shape.ranks());
  std::array<std::uint64_t, kMaxLevels> mins;
  mins.fill(~0ULL);
  const auto nblocks = static_cast<std::int64_t>(blocks_);
  // The minimum is exact and order-free, so threads may merge blocks in any order. Blocks are
  // handed out one at a time (a few hundred microseconds each): a thread that the machine
  // deschedules holds up one block, not half the phase.
#pragma omp parallel num_threads(threads) if (threads > 1 && nblocks > 1)
  {
    std::array<std::uint64_t, kMaxLevels> local;
    local.fill(~0ULL);
#pragma omp for schedule(dynamic, 1) nowait
    for (std::int64_t b = 0; b < nblocks; ++b) {
      if (stop_requested()) continue;  // the phase is abandoned below
      const auto first = static_cast<std::uint64_t>(b) * kBlockRanks;
      block_level_min_words(hash_combine(key, static_cast<std::uint64_t>(b)), first,
                            std::min(n, first + kBlockRanks), local);
    }
#pragma omp critical(collnoise_tree_merge)
    for (std::size_t d = 0; d < kMaxLevels; ++d) mins[d] = std::min(mins[d], local[d]);
  }
  throw_if_stop_requested();
  return time_from_level_min_words(mins);
}

double TreeBarrierSampler::per_level_phase(std::uint64_t phase) const {
  Pcg32 stream = make_stream(stream_key(key_, StreamPurpose::kTreePerLevel, phase));
  const auto& noise = model_.noise;
  double t = 0.0;
  for (int d = 0; d <= model_.shape.depth(); ++d) {
    const double u = stream.next_uniform();
    const double count = to_double(model_.shape.level_count(d));
    const double tail = -std::expm1(std::log(u) / count);  // S of the level maximum
    t = std::max(t, model_.w + noise.scale * noise.eta->isf(tail) + 2.0 * model_.tau * d);
  }
  return t;
}

double TreeBarrierSampler::phase_time(std::uint64_t phase) const {
  return sampling_ == TreeSampling::kPerLevel ? per_level_phase(phase) : per_rank_phase(phase, 1);
}

void TreeBarrierSampler::sample(std::uint64_t first_phase, std::span<double> out,
                                int threads) const {
  const auto count = static_cast<std::int64_t>(out.size());
  threads = std::max(threads, 1);
  // Big trees: threads share each phase's blocks; otherwise threads take whole phases.
  const bool split_blocks = sampling_ == TreeSampling::kPerRank &&
                            blocks_ >= static_cast<std::uint64_t>(2 * threads) &&
                            count < 4 * threads;
  if (split_blocks) {
    for (std::int64_t i = 0; i < count; ++i)
      out[static_cast<std::size_t>(i)] =
          per_rank_phase(first_phase + static_cast<std::uint64_t>(i), threads);
    return;
  }
  // Per-level phases cost microseconds: a chunk of them per scheduling step.
  const std::int64_t chunk = sampling_ == TreeSampling::kPerLevel ? 64 : 1;
  parallel_for(
      count, threads,
      [&](std::int64_t i) {
        out[static_cast<std::size_t>(i)] = phase_time(first_phase + static_cast<std::uint64_t>(i));
      },
      chunk);
}

}  // namespace collnoise
