#pragma once
// The exact distribution of T = max over groups g of (o_g + s * Y_g), where Y_g is the maximum of
// n_g iid copies of a noise law's eta: P(T <= t) = prod_g F((t - o_g)/s)^(n_g). The tree barrier's
// phase time is this with one group per depth (o_d = w + 2 tau d, n_d ranks), and E[max of n eta]
// is the one-group case. Moments come from integrals of F and 1 - F on either side of T's median
// (each integrand of one sign, so the variance is not a difference of two large moments), split at
// the law's breakpoints and at quantiles of T; the tail beyond a far point uses the law's exact
// partial moments, so heavy tails are integrated to the end rather than truncated.
#include <optional>
#include <span>
#include <vector>

#include "distributions/noise_law.hpp"

namespace collnoise {

struct MaxGroup {
  double offset = 0.0;  ///< o_g, seconds
  double count = 1.0;   ///< n_g >= 0 (real, so counts up to 2^127 are representable)
};

class MaxDistribution {
 public:
  /// Preconditions: scale >= 0 (seconds), at least one group with count > 0.
  MaxDistribution(const NoiseLaw& law, double scale, std::vector<MaxGroup> groups);

  /// Lower end of T's support, seconds.
  double lower() const { return lower_; }
  double cdf(double t) const;
  double log_cdf(double t) const;
  /// 1 - P(T <= t), exact when small.
  double sf(double t) const;
  /// Smallest t with P(T <= t) >= p, p in (0, 1).
  double quantile(double p) const;
  /// E[T], seconds; infinite when the law's tail index is <= 1.
  double mean() const;
  /// sd(T), seconds; nullopt when the variance is infinite (tail index <= 2).
  std::optional<double> sd() const;

 private:
  struct CentralMoments {
    double mean = 0.0;
    double variance = 0.0;
  };

  double log_cdf_sum(double t) const;
  /// log P(T <= center + v), with v resolved below an ulp of center.
  double log_cdf_at(double center, double v) const;
  double tail_start() const;
  double tail_start_eta() const;
  double group_tail_eta(const MaxGroup& g, double t_end) const;
  /// Whether T's CDF is a step function summed exactly between the law's shifted atoms.
  bool exact_steps() const;
  /// Split points of the integrals, as offsets v from center, in [lower - center, t_end - center].
  std::vector<double> split_points(double center, double t_end) const;
  double integrate_side(double center, std::span<const double> points, int power, bool upper) const;
  CentralMoments central_moments(bool with_variance) const;

  const NoiseLaw& law_;
  double scale_;
  std::vector<MaxGroup> groups_;
  double lower_ = 0.0;
};

}  // namespace collnoise
