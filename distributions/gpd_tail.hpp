#pragma once
// A generalised Pareto tail fitted above a threshold (docs/models/tails.md): what a measured
// sample says of values beyond its largest. Above the threshold u (an order statistic chosen by
// a fixed rule), the excesses y = x - u are taken as GPD(shape xi, scale sigma):
// P(Y > y) = (1 + xi y / sigma)^(-1/xi) (e^(-y/sigma) at xi = 0), fitted by maximum likelihood,
// the shape with a bootstrap interval.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace collnoise {

/// The shapes a fit may take: below -1/2 the maximum-likelihood estimate is not regular (Smith
/// 1985), and from 1 on the tail has no mean, which a unit-mean noise law needs.
inline constexpr double kGpdShapeMin = -0.5;
inline constexpr double kGpdShapeMax = 0.95;

/// The threshold rule: k = max(kGpdMinExceedances, round(sqrt(n))) exceedances of n values, the
/// threshold the (k+1)-th largest value; a fit needs n >= 2k.
inline constexpr std::size_t kGpdMinExceedances = 20;
std::size_t gpd_exceedances(std::size_t n);

/// The level and stream of the fits a run makes to draw from (their shape's interval is not
/// drawn from, so they take no bootstrap): one fit per sample, whatever the run.
inline constexpr double kTailFitLevel = 0.9;
inline constexpr std::uint64_t kTailFitSeed = 1;

/// The fitted tail. Values are in the unit of the sample's values.
struct GpdTail {
  double threshold = 0.0;       ///< u: the (k+1)-th largest value
  std::size_t exceedances = 0;  ///< k: values above u the fit rests on
  std::size_t sample_size = 0;  ///< n
  double shape = 0.0;           ///< xi, in [kGpdShapeMin, kGpdShapeMax]
  double scale = 0.0;           ///< sigma > 0
  double shape_low = 0.0;       ///< the shape's percentile bootstrap interval at `level`
  double shape_high = 0.0;
  double level = 0.9;
  bool shape_at_bound = false;  ///< the likelihood's best shape lies at a bound of the range

  /// k / n: the probability of a value above the threshold.
  double tail_probability() const;
  /// P(Y > y) for an excess y >= 0.
  double excess_sf(double y) const;
  /// The excess y with P(Y > y) = s, s in (0, 1].
  double excess_isf(double s) const;
  /// E[Y] = sigma / (1 - xi).
  double excess_mean() const;
  /// E[Y^2] = 2 sigma^2 / ((1 - xi)(1 - 2 xi)); +infinity for xi >= 1/2.
  double excess_second_moment() const;
  /// "GPD above 3.2e-06 (k = 32 of 1000): shape 0.21 [0.05, 0.44], scale 4.1e-07".
  std::string describe() const;
};

/// The maximum-likelihood GPD of the excesses of `values` (any order; finite, >= 0) above the
/// threshold of gpd_exceedances, the shape's interval from `bootstrap` refits on the
/// exceedances drawn with replacement (the stream of `seed`). nullopt, with `why` set, when the
/// sample is too small (n < 2k) or its exceedances are all 0 (ties at the threshold).
std::optional<GpdTail> fit_gpd_tail(std::span<const double> values, double level,
                                    std::uint64_t seed, std::string& why,
                                    std::size_t bootstrap = 200);

}  // namespace collnoise
