#include "estimators/two_sample.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <numbers>

namespace collnoise {
namespace {

// Walks the pooled distinct values in increasing order. At each value x it calls
// visit(F, G, width): the two empirical CDFs just after x (x counted) and the width of the gap
// to the next pooled value (0 after the last), over which both CDFs stay as they are.
template <class Visit>
void walk_cdfs(std::span<const double> first, std::span<const double> second, Visit&& visit) {
  const auto n = static_cast<double>(first.size());
  const auto m = static_cast<double>(second.size());
  std::size_t i = 0, j = 0;
  while (i < first.size() || j < second.size()) {
    const double x = j == second.size()  ? first[i]
                     : i == first.size() ? second[j]
                                         : std::min(first[i], second[j]);
    while (i < first.size() && first[i] == x) ++i;
    while (j < second.size() && second[j] == x) ++j;
    const double next = j == second.size()  ? (i == first.size() ? x : first[i])
                        : i == first.size() ? second[j]
                                            : std::min(first[i], second[j]);
    visit(static_cast<double>(i) / n, static_cast<double>(j) / m, next - x);
  }
}

double sample_mean(std::span<const double> x) {
  double sum = 0.0;
  for (const double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

double sample_variance(std::span<const double> x, double mean) {
  double sum = 0.0;
  for (const double v : x) sum += (v - mean) * (v - mean);
  return sum / static_cast<double>(x.size() - 1);
}

}  // namespace

double ks_distance(std::span<const double> first, std::span<const double> second) {
  double d = 0.0;
  walk_cdfs(first, second, [&](double f, double g, double) { d = std::max(d, std::abs(f - g)); });
  return d;
}

double wasserstein1_distance(std::span<const double> first, std::span<const double> second) {
  double w = 0.0;
  walk_cdfs(first, second, [&](double f, double g, double width) { w += std::abs(f - g) * width; });
  return w;
}

double dkw_half_width(std::size_t n, double alpha) {
  return std::sqrt(std::log(2.0 / alpha) / (2.0 * static_cast<double>(n)));
}

double kolmogorov_survival(double lambda) {
  if (!(lambda > 0.0)) return 1.0;
  if (lambda < 1.18) {
    // The Jacobi-theta form of the CDF converges fast for small lambda.
    const double factor = -std::numbers::pi * std::numbers::pi / (8.0 * lambda * lambda);
    double cdf = 0.0;
    for (int k = 1; k <= 20; ++k) cdf += std::exp(factor * (2 * k - 1) * (2 * k - 1));
    cdf *= std::sqrt(2.0 * std::numbers::pi) / lambda;
    return std::clamp(1.0 - cdf, 0.0, 1.0);
  }
  double q = 0.0;
  for (int k = 1; k <= 100; ++k) {
    const double term = std::exp(-2.0 * k * k * lambda * lambda);
    q += (k % 2 == 1 ? 2.0 : -2.0) * term;
    if (term < 1e-300) break;
  }
  return std::clamp(q, 0.0, 1.0);
}

TwoSampleDistances two_sample_distances(std::span<const double> first,
                                        std::span<const double> second, double level) {
  TwoSampleDistances out;
  // Each band at (1 - level) / 2: both hold together with probability >= level.
  const double alpha = (1.0 - level) / 2.0;
  const double e1 = dkw_half_width(first.size(), alpha);
  const double e2 = dkw_half_width(second.size(), alpha);
  out.band_first = e1;
  out.band_second = e2;
  double d = 0.0, w = 0.0, w_low = 0.0, w_high = 0.0;
  walk_cdfs(first, second, [&](double f, double g, double width) {
    d = std::max(d, std::abs(f - g));
    w += std::abs(f - g) * width;
    const double f_low = std::max(0.0, f - e1), f_high = std::min(1.0, f + e1);
    const double g_low = std::max(0.0, g - e2), g_high = std::min(1.0, g + e2);
    // The least and the most |F - G| the two bands allow at this x.
    w_low += std::max({0.0, f_low - g_high, g_low - f_high}) * width;
    w_high += std::max(f_high - g_low, g_high - f_low) * width;
  });
  out.ks = {d, std::max(0.0, d - e1 - e2), std::min(1.0, d + e1 + e2)};
  out.wasserstein1 = {w, w_low, w_high};
  const auto n = static_cast<double>(first.size());
  const auto m = static_cast<double>(second.size());
  out.ks_p_value = kolmogorov_survival(std::sqrt(n * m / (n + m)) * d);
  return out;
}

std::size_t quantile_rank(std::size_t n, double p) {
  // The factor keeps p n that is whole in decimal (0.9 * 1000) from rounding up a rank.
  const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(n) * (1.0 - 1e-12)));
  return std::clamp<std::size_t>(k, 1, n);
}

SampleQuantile bootstrap_quantile(std::span<const double> sorted, double p, double level) {
  const std::size_t n = sorted.size();
  const std::size_t k = quantile_rank(n, p);
  SampleQuantile q;
  q.probability = p;
  q.estimate = sorted[k - 1];
  // P(the resample's k-th order statistic <= x_(j)) = P(Bin(n, j/n) >= k) = I_{j/n}(k, n-k+1),
  // increasing in j: the percentile endpoints are the first x_(j) where it reaches a level.
  const auto a = static_cast<double>(k);
  const auto b = static_cast<double>(n - k + 1);
  const auto first_reaching = [&](double probability) {
    std::size_t lo = 1, hi = n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (boost::math::ibeta(a, b, static_cast<double>(mid) / static_cast<double>(n)) >=
          probability)
        hi = mid;
      else
        lo = mid + 1;
    }
    return sorted[lo - 1];
  };
  const double alpha = 1.0 - level;
  q.ci_low = Nullable::of(first_reaching(alpha / 2.0));
  q.ci_high = Nullable::of(first_reaching(1.0 - alpha / 2.0));
  return q;
}

MeanRatio ratio_of_independent_means(std::span<const double> numerator,
                                     std::span<const double> denominator, double level) {
  MeanRatio r;
  if (numerator.size() < 2 || denominator.size() < 2) {
    r.ratio = r.ci_low = r.ci_high = Nullable::null("fewer than two values in a sample");
    return r;
  }
  const double mx = sample_mean(numerator), my = sample_mean(denominator);
  if (!(mx > 0.0) || !(my > 0.0)) {
    r.ratio = r.ci_low = r.ci_high = Nullable::null("a mean is not positive");
    return r;
  }
  const double ratio = mx / my;
  const double se = std::sqrt(
      sample_variance(numerator, mx) / (static_cast<double>(numerator.size()) * mx * mx) +
      sample_variance(denominator, my) / (static_cast<double>(denominator.size()) * my * my));
  const double z =
      boost::math::quantile(boost::math::normal_distribution<double>(), 0.5 + level / 2.0);
  r.ratio = Nullable::of(ratio);
  r.ci_low = Nullable::of(ratio * std::exp(-z * se));
  r.ci_high = Nullable::of(ratio * std::exp(z * se));
  return r;
}

}  // namespace collnoise
