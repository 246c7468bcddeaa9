#pragma once
// Two samples held against each other (docs/compare.md): how far apart their laws are, with
// intervals valid down to zero distance, and their quantiles and means side by side.
//
//  - The Kolmogorov-Smirnov distance D = sup_x |F_n(x) - G_m(x)| and the Wasserstein-1 distance
//    W1 = integral |F_n(x) - G_m(x)| dx of the empirical CDFs. Their intervals come from the
//    Dvoretzky-Kiefer-Wolfowitz inequality (Massart's constant): with probability >= 1 - a,
//    sup |F_n - F| <= eps_n = sqrt(ln(2/a) / (2n)). Each sample gets a = (1 - level) / 2, so both
//    bands hold together with probability >= level, and then
//      D(F, G) in [max(0, D - eps_n - eps_m), min(1, D + eps_n + eps_m)],
//      W1(F, G) in [integral of the smallest |F - G| the bands allow,
//                   integral of the largest, over the range the two samples span].
//    Unlike a bootstrap of both samples (biased upward when the laws agree: two samples of one
//    law are never at distance 0), these cover the true distance at zero too; they are
//    conservative (the DKW bound holds for every law, continuous or not). W1's upper bound
//    assumes both laws live within the samples' range (beyond it the bands say nothing).
//  - The KS p-value from Kolmogorov's asymptotic law of sqrt(nm/(n+m)) D.
//  - Quantiles as order statistics, x_(k) with k = ceil(p n): the measured side's interval is
//    the bootstrap percentile interval, computed exactly (a resample's k-th order statistic is
//    <= x_(j) with the probability that Bin(n, j/n) >= k), so it has no Monte Carlo error; the
//    simulated side's is the distribution-free one (estimators/quantile_interval.hpp).
//  - The ratio of the means of independent samples with a delta-method interval on the log
//    scale.
// Every sample is sorted ascending, finite and non-empty (precondition).
#include <cstddef>
#include <span>
#include <string>

#include "core/nullable.hpp"

namespace collnoise {

/// A distance between two laws with its interval.
struct Distance {
  double value = 0.0;
  double ci_low = 0.0;
  double ci_high = 0.0;
};

struct TwoSampleDistances {
  Distance ks;              ///< Kolmogorov-Smirnov: a probability, in [0, 1]
  Distance wasserstein1;    ///< in the samples' unit
  double ks_p_value = 1.0;  ///< asymptotic
  double band_first = 0.0;  ///< eps of the first sample's DKW band
  double band_second = 0.0;
};

/// sup |F_n - G_m| of the two empirical CDFs.
double ks_distance(std::span<const double> first, std::span<const double> second);

/// integral |F_n - G_m| dx of the two empirical CDFs (the samples' unit).
double wasserstein1_distance(std::span<const double> first, std::span<const double> second);

/// The half-width eps = sqrt(ln(2/alpha) / (2n)) of the DKW band that holds with probability
/// >= 1 - alpha. Precondition: n >= 1, 0 < alpha < 1.
double dkw_half_width(std::size_t n, double alpha);

/// P(K > lambda) for Kolmogorov's law K (the limit of sqrt(n) sup |F_n - F|).
double kolmogorov_survival(double lambda);

/// Both distances with their intervals at `level` (both bands together), and the KS p-value.
/// Precondition: 0 < level < 1.
TwoSampleDistances two_sample_distances(std::span<const double> first,
                                        std::span<const double> second, double level);

/// The 1-based rank k = ceil(p n) (at least 1) of the p-quantile taken as an order statistic.
std::size_t quantile_rank(std::size_t n, double p);

/// The p-quantile x_(k) of a sorted sample with its bootstrap percentile interval at `level`
/// (exact: no resampling, no seed). Precondition: 0 < p < 1, 0 < level < 1.
struct SampleQuantile {
  double probability = 0.5;
  double estimate = 0.0;
  Nullable ci_low;
  Nullable ci_high;
};
SampleQuantile bootstrap_quantile(std::span<const double> sorted, double p, double level);

/// mean(numerator) / mean(denominator) of independent samples, with the interval
/// exp(log r +- z se), se^2 = s_x^2 / (n mean_x^2) + s_y^2 / (m mean_y^2). Null (with the
/// reason) when a mean is not positive or a sample has fewer than two values.
struct MeanRatio {
  Nullable ratio;
  Nullable ci_low;
  Nullable ci_high;
};
MeanRatio ratio_of_independent_means(std::span<const double> numerator,
                                     std::span<const double> denominator, double level);

}  // namespace collnoise
