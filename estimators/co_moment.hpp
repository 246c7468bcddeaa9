#pragma once
// Mergeable co-moment of a pair (x, y): count, means and the sum of cross deviations, updated
// like Welford's accumulator and merged by Chan et al.'s pairwise formula. The ratio estimators
// (recovery ratio, slowdown) take their covariance from it.
#include <cstdint>

namespace collnoise {

struct CoMoment {
  std::uint64_t count = 0;
  double mean_x = 0.0;
  double mean_y = 0.0;
  double c = 0.0;  ///< sum of (x - mean_x)(y - mean_y)

  void add(double x, double y) {
    ++count;
    const auto n = static_cast<double>(count);
    const double dx = x - mean_x;
    mean_x += dx / n;
    mean_y += (y - mean_y) / n;
    c += dx * (y - mean_y);
  }

  void merge(const CoMoment& other) {
    if (other.count == 0) return;
    if (count == 0) {
      *this = other;
      return;
    }
    const auto n_a = static_cast<double>(count);
    const auto n_b = static_cast<double>(other.count);
    const double n = n_a + n_b;
    const double dx = other.mean_x - mean_x;
    const double dy = other.mean_y - mean_y;
    c += other.c + dx * dy * n_a * n_b / n;
    mean_x += dx * n_b / n;
    mean_y += dy * n_b / n;
    count += other.count;
  }

  /// Unbiased sample covariance; 0 for fewer than two pairs.
  double covariance() const { return count > 1 ? c / static_cast<double>(count - 1) : 0.0; }
};

}  // namespace collnoise
