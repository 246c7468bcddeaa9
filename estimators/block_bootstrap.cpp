#include "estimators/block_bootstrap.hpp"

#include <algorithm>
#include <cmath>

namespace collnoise {
std::size_t block_length(std::size_t n) {
  const auto b = static_cast<std::size_t>(std::llround(std::cbrt(static_cast<double>(n))));
  return std::clamp<std::size_t>(b, 1, std::max<std::size_t>(n, 1));
}

std::vector<std::size_t> moving_block_resample(std::size_t n, std::size_t block, Pcg32& rng) {
  std::vector<std::size_t> out;
  out.reserve(n);
  while (out.size() < n) {
    const std::size_t start = rng.next_below(n - block + 1);
    for (std::size_t i = start; i < start + block && out.size() < n; ++i) out.push_back(i);
  }
  return out;
}

}  // namespace collnoise
