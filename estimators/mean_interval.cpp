#include "estimators/mean_interval.hpp"
#include "estimators/compensated.hpp"
#include "estimators/student_t.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>

namespace collnoise {

void widen_for_rounding(MeanInterval& r, const Accumulator& acc, const SampleRounding& rounding) {
  if (!r.ci_low.has_value() || !r.ci_high.has_value()) return;
  constexpr double u = 0x1.0p-53;
  // The mean of |x|: a bias of at most relative_bound |x_i| per sample is at most relative_bound
  // times it in the mean. Values of one sign: |mean|; else the largest |x| bounds it.
  const bool one_sign = acc.min >= 0.0 || acc.max <= 0.0;
  const double magnitude =
      one_sign ? std::abs(acc.mean) : std::max(std::abs(acc.min), std::abs(acc.max));
  const double low = *r.ci_low.value;
  const double high = *r.ci_high.value;
  double bias = acc.rounding_bound();
  if (rounding.relative_bound) {
    bias += *rounding.relative_bound * magnitude;
  } else if (acc.max > acc.min && 0.5 * (high - low) < kPresumedRoundings * u * magnitude) {
    r.warnings.push_back(fmt::format(
        "the interval's half-width {:.3g} is below what the doubles of one sample resolve "
        "({} roundings of the mean magnitude {:.6g} are {:.3g}): rounding inside each sample, "
        "not bounded for this model, may bias the mean by as much",
        0.5 * (high - low), kPresumedRoundings, magnitude, kPresumedRoundings * u * magnitude));
  }
  const double inf = std::numeric_limits<double>::infinity();
  r.ci_low = Nullable::of(std::nextafter(low - bias, -inf));
  r.ci_high = Nullable::of(std::nextafter(high + bias, inf));
}

MeanInterval student_t_interval(const Accumulator& acc, double level,
                                const SampleRounding& rounding) {
  MeanInterval r;
  r.mean = acc.mean;
  r.method = "student_t";
  r.level = level;
  if (acc.count < 2) {
    r.ci_low = r.ci_high = r.standard_error = Nullable::null("fewer than two samples");
    return r;
  }
  const double se = acc.sd() / std::sqrt(static_cast<double>(acc.count));
  const double half = student_t_critical(static_cast<double>(acc.count - 1), level) * se;
  r.standard_error = Nullable::of(se);
  r.ci_low = Nullable::of(acc.mean - half);
  r.ci_high = Nullable::of(acc.mean + half);
  r.corrected_mean = Nullable::null("the Student t method uses the sample mean");
  widen_for_rounding(r, acc, rounding);
  return r;
}

std::size_t tail_order_count(std::uint64_t n, std::size_t available) {
  // k ~ n^(2/3): enough exceedances for Hill's estimator, few enough that the tail above the
  // threshold is close to Pareto.
  const auto k = static_cast<std::size_t>(std::pow(static_cast<double>(n), 2.0 / 3.0));
  return std::min(std::max<std::size_t>(k, 10), available > 0 ? available - 1 : 0);
}

Nullable hill_tail_index(const std::vector<double>& descending, std::size_t k, double shift) {
  if (k < 2 || descending.size() <= k)
    return Nullable::null("too few top values for Hill's estimator");
  const double u = descending[k] - shift;
  if (!(u > 0.0)) return Nullable::null("the tail threshold is not above the shift");
  double sum = 0.0;
  for (std::size_t i = 0; i < k; ++i) sum += std::log((descending[i] - shift) / u);
  if (!(sum > 0.0)) return Nullable::null("the top values are all equal");
  return Nullable::of(static_cast<double>(k) / sum);
}

MeanInterval semiparametric_interval(const Accumulator& acc, const TopValues& top, double shift,
                                     double level, const SampleRounding& rounding) {
  MeanInterval r;
  r.mean = acc.mean;
  r.method = "semiparametric_peng";
  r.level = level;
  const auto fail = [&](const std::string& why) {
    r.ci_low = r.ci_high = r.standard_error = r.corrected_mean = Nullable::null(why);
    return r;
  };
  if (acc.count < 100) return fail("the semiparametric interval needs at least 100 samples");
  const auto values = top.descending();
  const std::size_t k = tail_order_count(acc.count, values.size());
  const Nullable alpha = hill_tail_index(values, k, shift);
  if (!alpha.has_value()) return fail(alpha.reason);
  const double gamma = 1.0 / *alpha.value;
  if (!(gamma < 1.0))
    return fail(fmt::format("Hill's tail index estimate {:.3g} <= 1: the mean may not exist",
                            *alpha.value));
  const auto n = static_cast<double>(acc.count);
  const auto kd = static_cast<double>(k);
  const double u = values[k] - shift;
  const double c = u / (1.0 - gamma);  // mean of the fitted tail above u, relative to shift
  // Deviations from the sample mean keep the sums well conditioned.
  const double m = acc.mean - shift;
  // Compensated: a heavy tail's top values span decades.
  NeumaierSum top_sum;
  NeumaierSum top_dev2;
  for (std::size_t i = 0; i < k; ++i) {
    const double x = values[i] - shift;
    top_sum.add(x);
    top_dev2.add((x - m) * (x - m));
  }
  const double bulk_sum = n * m - top_sum.value();
  const double mu = bulk_sum / n + kd / n * c;
  const double y_mean = mu;  // the mean of Y is the estimator itself
  const double sum_dev2 = (acc.m2 - top_dev2.value()) + kd * (c - m) * (c - m);
  const double var_y = std::max(sum_dev2 / n - (y_mean - m) * (y_mean - m), 0.0);
  const double var = var_y / n + kd / (n * n) * u * u * gamma * gamma / std::pow(1.0 - gamma, 4);
  const double se = std::sqrt(var);
  const double z = boost::math::quantile(boost::math::normal(), 0.5 + level / 2.0);
  r.corrected_mean = Nullable::of(shift + mu);
  r.standard_error = Nullable::of(se);
  r.ci_low = Nullable::of(shift + mu - z * se);
  r.ci_high = Nullable::of(shift + mu + z * se);
  widen_for_rounding(r, acc, rounding);
  return r;
}

MeanInterval mean_interval(const Accumulator& acc, const TopValues& top, double shift,
                           double tail_index, double level, const SampleRounding& rounding) {
  if (tail_index <= 2.0) {
    auto r = semiparametric_interval(acc, top, shift, level, rounding);
    r.warnings.push_back(fmt::format(
        "tail index {} <= 2: infinite variance, semiparametric (Peng) interval used", tail_index));
    return r;
  }
  auto r = student_t_interval(acc, level, rounding);
  if (tail_index <= 4.0)
    r.warnings.push_back(
        fmt::format("tail index {} <= 4: the t interval's coverage converges slowly", tail_index));
  return r;
}

}  // namespace collnoise
