#pragma once
// Random streams. Every random number of the engine comes from a pcg32 stream (pcg-cpp's
// setseq_xsh_rr_64_32) whose state and increment are derived by hashing (seed, point key,
// purpose, indices): nothing depends on thread or process counts. Streams that differ only in
// the increment are correlated, so both state and increment come from the hash.
#include <array>
#include <cstdint>
#include <span>

#include "core/cpu_features.hpp"

namespace collnoise {

/// The named purposes of streams; one value per kind of draw, so that two purposes never share
/// a stream. Keep values stable: they are part of the known-answer tests.
/// The stream format: how a point's random streams follow from the seed and its parameters
/// (docs/models/streams.md). Every result records it, and merges refuse parts of another. It is
/// raised when the derivation of streams changes (CHANGELOG.md); any other deliberate change to
/// the numbers a seed gives is written in CHANGELOG.md too. 1: a hash of every parameter read
/// (645c846 and before); 2: the point's model and stream identity.
inline constexpr std::int64_t kStreamFormat = 2;

enum class StreamPurpose : std::uint64_t {
  kTreePerRank = 1,     ///< per-rank tree barrier: indices (phase, block of ranks)
  kTreePerLevel = 2,    ///< per-level tree barrier: index (phase)
  kNoiseOffset = 3,     ///< time-based noise: a rank's pattern offset, indices (replication, rank)
  kPoissonDetours = 4,  ///< Poisson detours: indices (replication, rank)
  kStageDelay = 5,      ///< per-stage delay of a compute stage: indices (replication, cycle, rank)
  kNetworkSample = 6,   ///< network noise: allocation, mapping and derangement of one sample
  kImbalance = 7,       ///< isoefficiency Monte Carlo: indices (m, sample)
  kReplication = 8,     ///< one replication of a time-dependent run: index (replication)
  kMessageDelay = 9,    ///< a schedule message's extra latency: indices (replication, send)
  kEntryOffset = 10,    ///< a schedule rank's entry offset (entry.law): indices (replication, rank)
  kLoop = 11,  ///< a schedule point's benchmark loop: index (loop), then iteration, part, rank
};

/// splitmix64 finaliser: a bijective 64-bit mix with full avalanche.
constexpr std::uint64_t splitmix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Order-dependent combination of a hash with one more word.
constexpr std::uint64_t hash_combine(std::uint64_t h, std::uint64_t v) noexcept {
  return splitmix64(h ^ splitmix64(v));
}

/// A uniform in (0, 1) from the top 52 bits of a word: (m + 0.5) 2^-52. Never 0 or 1, and
/// monotone non-decreasing in the word, which the per-level extreme trick relies on.
inline double uniform_from_word(std::uint64_t word) noexcept {
  return (static_cast<double>(word >> 12) + 0.5) * 0x1.0p-52;
}

/// pcg32 (setseq_xsh_rr_64_32), bit-identical to pcg-cpp's `pcg32(seed, stream)`.
class Pcg32 {
 public:
  static constexpr std::uint64_t kMultiplier = 6364136223846793005ULL;

  constexpr Pcg32(std::uint64_t seed, std::uint64_t stream) noexcept
      : state_(0), inc_((stream << 1) | 1U) {
    state_ = (seed + inc_) * kMultiplier + inc_;
  }

  constexpr std::uint32_t operator()() noexcept {
    const std::uint64_t old = state_;
    state_ = old * kMultiplier + inc_;
    return output(old);
  }

  /// 64 random bits from two consecutive outputs (first output in the high half).
  constexpr std::uint64_t next_word() noexcept {
    const std::uint64_t hi = (*this)();
    return (hi << 32) | (*this)();
  }

  double next_uniform() noexcept { return uniform_from_word(next_word()); }

  /// A uniform integer in [0, range), range >= 1, without bias (Lemire's multiply-and-reject).
  std::uint64_t next_below(std::uint64_t range) noexcept {
    __extension__ using Wide = unsigned __int128;
    Wide m = Wide{next_word()} * range;
    auto low = static_cast<std::uint64_t>(m);
    if (low < range) {
      const std::uint64_t threshold = (0 - range) % range;
      while (low < threshold) {
        m = Wide{next_word()} * range;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  static constexpr std::uint32_t output(std::uint64_t s) noexcept {
    const auto xorshifted = static_cast<std::uint32_t>(((s >> 18U) ^ s) >> 27U);
    const auto rot = static_cast<std::uint32_t>(s >> 59U);
    return (xorshifted >> rot) | (xorshifted << ((32U - rot) & 31U));
  }

  std::uint64_t state() const noexcept { return state_; }
  std::uint64_t increment() const noexcept { return inc_; }
  /// Resumes a stream at a saved state (same increment).
  void set_state(std::uint64_t state) noexcept { state_ = state; }

 private:
  std::uint64_t state_;
  std::uint64_t inc_;
};

/// The key of the streams for `purpose` under a point's key, refined by one index (phase,
/// replication); further indices are added with hash_combine.
constexpr std::uint64_t stream_key(std::uint64_t point_key, StreamPurpose purpose,
                                   std::uint64_t index) noexcept {
  return hash_combine(hash_combine(point_key, static_cast<std::uint64_t>(purpose)), index);
}

/// The pcg32 stream for a key: both seed and stream words come from the hash.
constexpr Pcg32 make_stream(std::uint64_t key) noexcept {
  return Pcg32(splitmix64(key ^ 0x5851f42d4c957f2dULL), splitmix64(key + 0x14057b7ef767814fULL));
}

/// Sixteen independent pcg32 lanes advanced together so the compiler vectorises them. Lane l is
/// exactly the pcg32 stream make_stream(hash_combine(key, l)).
class Pcg32Lanes {
 public:
  static constexpr std::size_t kLanes = 16;

  /// One lane's step, the only copy of it: two pcg32 outputs from state `s` (advanced twice) as
  /// one 64-bit word, the first output in the high half.
  [[gnu::always_inline]] static std::uint64_t lane_step(std::uint64_t& s,
                                                        std::uint64_t inc) noexcept {
    const std::uint64_t s0 = s;
    const std::uint64_t s1 = s0 * Pcg32::kMultiplier + inc;
    s = s1 * Pcg32::kMultiplier + inc;
    return (std::uint64_t{Pcg32::output(s0)} << 32) | Pcg32::output(s1);
  }

  explicit Pcg32Lanes(std::uint64_t key) noexcept {
    for (std::size_t l = 0; l < kLanes; ++l) {
      const Pcg32 lane = make_stream(hash_combine(key, l));
      state_[l] = lane.state();
      inc_[l] = lane.increment();
    }
  }

  /// Fills `out` (size a multiple of kLanes) with 64-bit words: out[16 j + l] is lane l's j-th
  /// word (two consecutive lane outputs, high half first). Runs the variant of the CPU's level
  /// (core/cpu_features.hpp; every variant gives the same words).
  void fill(std::span<std::uint64_t> out) noexcept;

  /// Draws the next `steps` * kLanes words, exactly as fill() would, and returns only their
  /// minimum: nothing is stored, so the lanes stay in registers. Dispatched like fill().
  std::uint64_t min_of_next(std::size_t steps) noexcept;

  /// The two kernels' one definition, inlined into each CPU variant (core/rng.cpp) and into
  /// kernels that are dispatched as a whole (the tree barrier's per-level minima). Integer
  /// arithmetic only, so every instruction set gives the same words.
  [[gnu::always_inline]] inline void fill_inline(std::span<std::uint64_t> out) noexcept;
  [[gnu::always_inline]] inline std::uint64_t min_of_next_inline(std::size_t steps) noexcept;

  using FillKernel = void (*)(Pcg32Lanes&, std::span<std::uint64_t>) noexcept;
  using MinKernel = std::uint64_t (*)(Pcg32Lanes&, std::size_t) noexcept;
  /// Every CPU variant of fill() and min_of_next(), for the tests that compare them.
  static const KernelVariants<FillKernel>& fill_variants();
  static const KernelVariants<MinKernel>& min_of_next_variants();

 private:
  alignas(64) std::array<std::uint64_t, kLanes> state_{};
  alignas(64) std::array<std::uint64_t, kLanes> inc_{};
};

inline void Pcg32Lanes::fill_inline(std::span<std::uint64_t> out) noexcept {
  std::uint64_t* __restrict dst = out.data();
  const std::size_t steps = out.size() / kLanes;
  std::uint64_t s[kLanes];
  std::uint64_t inc[kLanes];
  for (std::size_t l = 0; l < kLanes; ++l) {
    s[l] = state_[l];
    inc[l] = inc_[l];
  }
  for (std::size_t j = 0; j < steps; ++j) {
#pragma omp simd
    for (std::size_t l = 0; l < kLanes; ++l) dst[j * kLanes + l] = lane_step(s[l], inc[l]);
  }
  for (std::size_t l = 0; l < kLanes; ++l) state_[l] = s[l];
}

inline std::uint64_t Pcg32Lanes::min_of_next_inline(std::size_t steps) noexcept {
  std::uint64_t s[kLanes];
  std::uint64_t inc[kLanes];
  std::uint64_t m[kLanes];
  for (std::size_t l = 0; l < kLanes; ++l) {
    s[l] = state_[l];
    inc[l] = inc_[l];
    m[l] = ~0ULL;
  }
  for (std::size_t j = 0; j < steps; ++j) {
#pragma omp simd
    for (std::size_t l = 0; l < kLanes; ++l) {
      const std::uint64_t word = lane_step(s[l], inc[l]);
      m[l] = word < m[l] ? word : m[l];
    }
  }
  std::uint64_t result = ~0ULL;
  for (std::size_t l = 0; l < kLanes; ++l) {
    state_[l] = s[l];
    result = m[l] < result ? m[l] : result;
  }
  return result;
}

}  // namespace collnoise
