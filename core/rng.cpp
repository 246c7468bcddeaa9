#include "core/rng.hpp"

#include "core/cpu_features.hpp"

namespace collnoise {
namespace {

// The variants of the 16-lane generator (core/cpu_features.hpp): the same inline kernel compiled
// for each level. The 64-bit lane multiplies are what the levels change: SSE2 and AVX2 build
// them from 32-bit multiplies, AVX-512 has them (and rotates) as single instructions.
void fill_baseline(Pcg32Lanes& lanes, std::span<std::uint64_t> out) noexcept {
  lanes.fill_inline(out);
}
std::uint64_t min_of_next_baseline(Pcg32Lanes& lanes, std::size_t steps) noexcept {
  return lanes.min_of_next_inline(steps);
}

#if COLLNOISE_DISPATCH
[[gnu::target(COLLNOISE_TARGET_V3)]] void fill_v3(Pcg32Lanes& lanes,
                                                  std::span<std::uint64_t> out) noexcept {
  lanes.fill_inline(out);
}
[[gnu::target(COLLNOISE_TARGET_V3)]] std::uint64_t min_of_next_v3(Pcg32Lanes& lanes,
                                                                  std::size_t steps) noexcept {
  return lanes.min_of_next_inline(steps);
}
[[gnu::target(COLLNOISE_TARGET_V4)]] void fill_v4(Pcg32Lanes& lanes,
                                                  std::span<std::uint64_t> out) noexcept {
  lanes.fill_inline(out);
}
[[gnu::target(COLLNOISE_TARGET_V4)]] std::uint64_t min_of_next_v4(Pcg32Lanes& lanes,
                                                                  std::size_t steps) noexcept {
  return lanes.min_of_next_inline(steps);
}
#else
constexpr auto fill_v3 = fill_baseline;
constexpr auto fill_v4 = fill_baseline;
constexpr auto min_of_next_v3 = min_of_next_baseline;
constexpr auto min_of_next_v4 = min_of_next_baseline;
#endif

}  // namespace

const KernelVariants<Pcg32Lanes::FillKernel>& Pcg32Lanes::fill_variants() {
  static constexpr KernelVariants<FillKernel> variants{fill_baseline, fill_v3, fill_v4};
  return variants;
}

const KernelVariants<Pcg32Lanes::MinKernel>& Pcg32Lanes::min_of_next_variants() {
  static constexpr KernelVariants<MinKernel> variants{min_of_next_baseline, min_of_next_v3,
                                                      min_of_next_v4};
  return variants;
}

void Pcg32Lanes::fill(std::span<std::uint64_t> out) noexcept {
  static const auto kernel = fill_variants().selected();
  kernel(*this, out);
}

std::uint64_t Pcg32Lanes::min_of_next(std::size_t steps) noexcept {
  static const auto kernel = min_of_next_variants().selected();
  return kernel(*this, steps);
}

}  // namespace collnoise
