#pragma once
// Measured values with a generalised Pareto tail beyond them (docs/models/tails.md): the sample's
// n - k smallest values are the body, each with probability 1/n, and above the threshold u (the
// (k+1)-th largest) the probability k/n is spread as u + GPD, fitted to the k largest
// (distributions/gpd_tail.hpp). A replayed sample never exceeds its largest value; this law
// does, at the rate its tail says, which is what the slowest of 10^4 or 10^6 ranks draws from.
// eta = x / m with m the law's mean in seconds, so the law has unit mean.
#include <span>
#include <string>
#include <vector>

#include "distributions/gpd_tail.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class SplicedTailLaw final : public NoiseLaw {
 public:
  /// `values_seconds`: the measured sample (any order, finite, >= 0), `tail` fitted to it
  /// (threshold, k and n its own; checked, InputError naming `source`).
  SplicedTailLaw(std::span<const double> values_seconds, const GpdTail& tail, std::string source);

  std::string name() const override { return "spliced_gpd"; }
  std::string describe() const override;
  double sf(double x) const override;
  double isf(double s) const override;
  double tail_index() const override;
  double fitted_tail_share() const override { return tail_probability_; }
  double support_min() const override { return body_.front(); }
  double support_max() const override;
  std::vector<double> breakpoints() const override { return {body_.front(), threshold_}; }
  double mean_excess(double x) const override;
  double second_excess(double x) const override;

  /// The law's mean in seconds: the scale that makes eta unit-mean.
  double mean_seconds() const { return mean_seconds_; }
  /// k / n: the probability that a draw comes from the fitted tail.
  double tail_probability() const { return tail_probability_; }
  const GpdTail& tail() const { return tail_; }

 private:
  /// Of a draw from the tail (u + Y, eta units): P(u + Y > x), E[u + Y; u + Y > x] and
  /// E[(u + Y)^2; u + Y > x].
  struct TailMoments {
    double above = 0.0, first = 0.0, second = 0.0;
  };
  TailMoments tail_moments_above(double x) const;

  std::vector<double> body_;  ///< the n - k smallest values, sorted, in eta units
  double n_ = 0.0;            ///< the sample size
  double threshold_ = 0.0;    ///< u, eta units
  double tail_probability_ = 0.0;
  GpdTail tail_;       ///< in seconds
  GpdTail unit_tail_;  ///< in eta units (threshold and scale divided by the mean)
  double mean_seconds_ = 0.0;
  std::string source_;
};

}  // namespace collnoise
