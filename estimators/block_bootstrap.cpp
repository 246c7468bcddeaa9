#include "estimators/block_bootstrap.hpp"

#include <algorithm>
#include <cmath>

namespace collnoise {
namespace {

double type7_quantile(const std::vector<double>& sorted, double p) {
  const double at = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

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

std::pair<double, double> percentile_interval(std::vector<double> draws, double level) {
  std::sort(draws.begin(), draws.end());
  return {type7_quantile(draws, (1.0 - level) / 2.0), type7_quantile(draws, (1.0 + level) / 2.0)};
}

}  // namespace collnoise
