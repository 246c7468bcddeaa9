#include "core/percentile.hpp"

#include <algorithm>
#include <cmath>

namespace collnoise {

double type7_quantile(const std::vector<double>& sorted, double p) {
  const double at = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

std::pair<double, double> percentile_interval(std::vector<double> draws, double level) {
  std::sort(draws.begin(), draws.end());
  return {type7_quantile(draws, (1.0 - level) / 2.0), type7_quantile(draws, (1.0 + level) / 2.0)};
}

}  // namespace collnoise
