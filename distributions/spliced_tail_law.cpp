#include "distributions/spliced_tail_law.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {

SplicedTailLaw::SplicedTailLaw(std::span<const double> values_seconds, const GpdTail& tail,
                               std::string source)
    : tail_(tail), source_(std::move(source)) {
  std::vector<double> sorted(values_seconds.begin(), values_seconds.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size(), k = tail.exceedances;
  if (n == 0 || tail.sample_size != n || k == 0 || k >= n || sorted[n - k - 1] != tail.threshold ||
      !(tail.scale > 0.0) || tail.shape >= 1.0 || sorted.front() < 0.0)
    throw InputError(fmt::format("{}: the tail fit does not belong to its {} values", source_, n));
  sorted.resize(n - k);
  n_ = static_cast<double>(n);
  tail_probability_ = static_cast<double>(k) / n_;
  const double body_sum = std::accumulate(sorted.begin(), sorted.end(), 0.0);
  mean_seconds_ = (body_sum + static_cast<double>(k) * (tail.threshold + tail.excess_mean())) / n_;
  if (!(mean_seconds_ > 0.0)) throw InputError(fmt::format("{}: all values are 0", source_));
  for (double& v : sorted) v /= mean_seconds_;
  body_ = std::move(sorted);
  unit_tail_ = tail;
  unit_tail_.threshold = tail.threshold / mean_seconds_;
  unit_tail_.scale = tail.scale / mean_seconds_;
  threshold_ = unit_tail_.threshold;
}

std::string SplicedTailLaw::describe() const {
  return fmt::format("spliced_gpd({}, {})", source_, tail_.describe());
}

double SplicedTailLaw::sf(double x) const {
  if (x >= threshold_) return tail_probability_ * unit_tail_.excess_sf(x - threshold_);
  const auto above =
      static_cast<double>(body_.end() - std::upper_bound(body_.begin(), body_.end(), x));
  return above / n_ + tail_probability_;
}

double SplicedTailLaw::isf(double s) const {
  if (s <= tail_probability_) return threshold_ + unit_tail_.excess_isf(s / tail_probability_);
  // The body's atoms b_j (j from 0) have S(b_j) = (n - 1 - j) / n: the first with S <= s.
  const double j = std::ceil(n_ - 1.0 - s * n_);
  const auto at = static_cast<std::size_t>(std::max(j, 0.0));
  return body_[std::min(at, body_.size() - 1)];
}

double SplicedTailLaw::tail_index() const {
  return tail_.shape > 0.0 ? 1.0 / tail_.shape : std::numeric_limits<double>::infinity();
}

double SplicedTailLaw::support_max() const {
  if (tail_.shape >= 0.0) return std::numeric_limits<double>::infinity();
  return threshold_ + unit_tail_.scale / -unit_tail_.shape;
}

SplicedTailLaw::TailMoments SplicedTailLaw::tail_moments_above(double x) const {
  // Above a point y0 of its support a GPD's excess is GPD again, of scale sigma + xi y0.
  const double y0 = std::max(x - threshold_, 0.0);
  GpdTail beyond = unit_tail_;
  beyond.scale = unit_tail_.scale + unit_tail_.shape * y0;
  const double from = threshold_ + y0;
  TailMoments m;
  m.above = unit_tail_.excess_sf(y0);
  if (m.above == 0.0 || beyond.scale <= 0.0) return {};
  const double mean = beyond.excess_mean(), second = beyond.excess_second_moment();
  m.first = m.above * (from + mean);
  m.second = m.above * (from * from + 2.0 * from * mean + second);
  return m;
}

double SplicedTailLaw::mean_excess(double x) const {
  double body = 0.0;
  for (auto it = std::upper_bound(body_.begin(), body_.end(), x); it != body_.end(); ++it)
    body += *it - x;
  const TailMoments t = tail_moments_above(x);
  return body / n_ + tail_probability_ * (t.first - x * t.above);
}

double SplicedTailLaw::second_excess(double x) const {
  if (tail_.shape >= 0.5) return std::numeric_limits<double>::infinity();
  double body = 0.0;
  for (auto it = std::upper_bound(body_.begin(), body_.end(), x); it != body_.end(); ++it)
    body += *it * *it - x * x;
  const TailMoments t = tail_moments_above(x);
  return 0.5 * (body / n_ + tail_probability_ * (t.second - x * x * t.above));
}

}  // namespace collnoise
