#pragma once
// Mergeable moments: count, mean, sum of squared deviations (Welford; merged by Chan et al.),
// min and max. Merging in a fixed order gives bit-identical results whatever the thread count.
//
// The mean and the sum of squared deviations are double-doubles (hi + lo): once the samples
// agree in most of their digits, a plain Welford update mean += (x - mean)/n rounds away the
// part of each step below half an ulp of the mean, and the rounding errors of a thousand steps
// pile up to several standard errors (docs/models/estimators.md, "Intervals at the arithmetic
// floor"). With the compensation terms the mean is exact up to the rounding of the steps
// (x - mean)/n themselves, about 2 u (1 + ln n) (max - min) in all.
#include <cmath>
#include <cstdint>
#include <limits>

#include "estimators/compensated.hpp"

namespace collnoise {

struct Accumulator {
  std::uint64_t count = 0;
  double mean = 0.0;  ///< the mean, rounded to double (the leading part of mean + mean_lo)
  double m2 = 0.0;    ///< sum of (x - mean)^2 (the leading part of m2 + m2_lo)
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double mean_lo = 0.0;  ///< the mean's compensation: |mean_lo| <= ulp(mean) / 2
  double m2_lo = 0.0;    ///< m2's compensation: |m2_lo| <= ulp(m2) / 2

  void add(double x) {
    ++count;
    // x - (mean + mean_lo): x - mean is exact once x is within a factor 2 of the mean.
    const double delta = (x - mean) - mean_lo;
    set_mean(collnoise::add({mean, mean_lo}, delta / static_cast<double>(count)));
    set_m2(collnoise::add({m2, m2_lo}, delta * ((x - mean) - mean_lo)));
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
    const double delta = (other.mean - mean) + (other.mean_lo - mean_lo);
    set_mean(collnoise::add({mean, mean_lo}, delta * n_b / n));
    DoubleDouble sum = collnoise::add({m2, m2_lo}, other.m2);
    sum = collnoise::add(sum, other.m2_lo);
    set_m2(collnoise::add(sum, delta * delta * n_a * n_b / n));
    count += other.count;
    min = std::fmin(min, other.min);
    max = std::fmax(max, other.max);
  }

  /// Unbiased sample variance; 0 for fewer than two values.
  double variance() const {
    return count > 1 ? (m2 + m2_lo) / static_cast<double>(count - 1) : 0.0;
  }
  double sd() const { return std::sqrt(variance()); }

  /// A bound on |mean - exact mean of the values added|, seconds (or the values' unit): the
  /// rounding of the Welford steps, about u |step| each, summed over steps that shrink as 1/k,
  /// plus the rounding of the mean to double.
  double rounding_bound() const {
    constexpr double u = 0x1.0p-53;
    if (count == 0) return 0.0;
    const double spread = max - min;
    return u * std::abs(mean) + 4.0 * u * spread * (2.0 + std::log(static_cast<double>(count)));
  }

 private:
  void set_mean(DoubleDouble m) {
    mean = m.hi;
    mean_lo = m.lo;
  }
  void set_m2(DoubleDouble m) {
    m2 = m.hi;
    m2_lo = m.lo;
  }
};

}  // namespace collnoise
