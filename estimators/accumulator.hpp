#pragma once
// Mergeable moments: count, mean, sum of squared deviations (Welford; merged by Chan et al.),
// min and max. Merging in a fixed order gives bit-identical results whatever the thread count.
#include <cmath>
#include <cstdint>
#include <limits>

namespace collnoise {

struct Accumulator {
  std::uint64_t count = 0;
  double mean = 0.0;
  double m2 = 0.0;  ///< sum of (x - mean)^2
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(double x) {
    ++count;
    const double delta = x - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (x - mean);
    min = std::fmin(min, x);
    max = std::fmax(max, x);
  }

  void merge(const Accumulator& other) {
    if (other.count == 0) return;
    if (count == 0) {
      *this = other;
      return;
    }
    const auto n_a = static_cast<double>(count);
    const auto n_b = static_cast<double>(other.count);
    const double n = n_a + n_b;
    const double delta = other.mean - mean;
    mean += delta * n_b / n;
    m2 += other.m2 + delta * delta * n_a * n_b / n;
    count += other.count;
    min = std::fmin(min, other.min);
    max = std::fmax(max, other.max);
  }

  /// Unbiased sample variance; 0 for fewer than two values.
  double variance() const { return count > 1 ? m2 / static_cast<double>(count - 1) : 0.0; }
  double sd() const { return std::sqrt(variance()); }
};

}  // namespace collnoise
