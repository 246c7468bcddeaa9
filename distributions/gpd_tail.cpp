#include "distributions/gpd_tail.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include <fmt/format.h>
#include <boost/math/tools/minima.hpp>

#include "core/percentile.hpp"
#include "core/rng.hpp"

namespace collnoise {

std::size_t gpd_exceedances(std::size_t n) {
  const auto root = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(n))));
  return std::max(kGpdMinExceedances, root);
}

double GpdTail::tail_probability() const {
  return static_cast<double>(exceedances) / static_cast<double>(sample_size);
}

double GpdTail::excess_sf(double y) const {
  if (y <= 0.0) return 1.0;
  if (shape == 0.0) return std::exp(-y / scale);
  const double z = 1.0 + shape * y / scale;
  if (z <= 0.0) return 0.0;  // beyond the upper end of a short tail
  return std::exp(-std::log(z) / shape);
}

double GpdTail::excess_isf(double s) const {
  s = std::clamp(s, std::numeric_limits<double>::min(), 1.0);
  if (shape == 0.0) return -scale * std::log(s);
  return scale * std::expm1(-shape * std::log(s)) / shape;
}

double GpdTail::excess_mean() const {
  return scale / (1.0 - shape);
}

double GpdTail::excess_second_moment() const {
  if (shape >= 0.5) return std::numeric_limits<double>::infinity();
  return 2.0 * scale * scale / ((1.0 - shape) * (1.0 - 2.0 * shape));
}

std::string GpdTail::describe() const {
  return fmt::format("GPD above {:.4g} (k = {} of {}): shape {:.3g} [{:.3g}, {:.3g}], scale {:.4g}",
                     threshold, exceedances, sample_size, shape, shape_low, shape_high, scale);
}

namespace {

// The profile likelihood of Grimshaw (1993): with theta = xi / sigma, the best shape for a theta
// is xi(theta) = mean log(1 + theta y), and the log-likelihood at it depends on theta alone. It
// is increasing in theta, so the shape's range is a range of theta.
class ProfileLikelihood {
 public:
  explicit ProfileLikelihood(std::span<const double> excesses)
      : y_(excesses),
        mean_(std::accumulate(y_.begin(), y_.end(), 0.0) / static_cast<double>(y_.size())),
        max_(*std::max_element(y_.begin(), y_.end())) {}

  double shape_at(double theta) const {
    if (std::abs(theta) * max_ < 1e-12) return theta * mean_;
    double sum = 0.0;
    for (const double y : y_) sum += std::log1p(theta * y);
    return sum / static_cast<double>(y_.size());
  }
  // sigma = xi / theta (the mean excess as theta -> 0).
  double scale_at(double theta, double shape) const {
    return std::abs(theta) * max_ < 1e-12 ? mean_ : shape / theta;
  }
  // The log-likelihood per exceedance: -log sigma - (1 + xi) (the sum of log(1 + theta y) is
  // k xi).
  double log_likelihood(double theta) const {
    const double xi = shape_at(theta);
    return -std::log(scale_at(theta, xi)) - (1.0 + xi);
  }
  // The theta whose best shape is `target`: bisection of the increasing xi(theta).
  double theta_for(double target) const {
    double lo = 0.0, hi = 0.0;
    if (target < 0.0) {
      lo = -(1.0 - 1e-12) / max_;  // 1 + theta y stays positive
    } else {
      hi = 1.0 / mean_;
      while (shape_at(hi) < target) hi *= 2.0;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-14 * std::max(std::abs(lo), std::abs(hi)); ++i) {
      const double mid = 0.5 * (lo + hi);
      (shape_at(mid) < target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  }
  double mean() const { return mean_; }

 private:
  std::span<const double> y_;
  double mean_;
  double max_;
};

// theta's candidates: a third of them evenly spaced below 0, 0 itself (the exponential tail), the
// rest geometric above it, so both short and heavy tails are searched.
std::vector<double> theta_grid(double lo, double hi) {
  constexpr int kBelow = 16, kAbove = 32;
  std::vector<double> grid;
  for (int i = 0; i < kBelow; ++i) grid.push_back(lo * (1.0 - static_cast<double>(i) / kBelow));
  grid.push_back(0.0);
  for (int i = 0; i < kAbove; ++i)
    grid.push_back(hi * std::pow(1e-6, 1.0 - static_cast<double>(i + 1) / kAbove));
  return grid;
}

struct ShapeScale {
  double shape = 0.0;
  double scale = 0.0;
  bool at_bound = false;
};

ShapeScale maximum_likelihood(std::span<const double> excesses) {
  const ProfileLikelihood profile(excesses);
  const double lo = profile.theta_for(kGpdShapeMin), hi = profile.theta_for(kGpdShapeMax);
  const std::vector<double> grid = theta_grid(lo, hi);
  std::size_t best = 0;
  for (std::size_t i = 1; i < grid.size(); ++i)
    if (profile.log_likelihood(grid[i]) > profile.log_likelihood(grid[best])) best = i;
  const double left = grid[best == 0 ? 0 : best - 1];
  const double right = grid[std::min(best + 1, grid.size() - 1)];
  const auto [theta, negative] = boost::math::tools::brent_find_minima(
      [&](double t) { return -profile.log_likelihood(t); }, left, right, 40);
  const double chosen = -negative >= profile.log_likelihood(grid[best]) ? theta : grid[best];
  ShapeScale out;
  out.shape = std::clamp(profile.shape_at(chosen), kGpdShapeMin, kGpdShapeMax);
  out.scale = profile.scale_at(chosen, profile.shape_at(chosen));
  out.at_bound = best == 0 || best + 1 == grid.size();
  return out;
}

}  // namespace

std::optional<GpdTail> fit_gpd_tail(std::span<const double> values, double level,
                                    std::uint64_t seed, std::string& why, std::size_t bootstrap) {
  const std::size_t n = values.size(), k = gpd_exceedances(n);
  if (n < 2 * k) {
    why = fmt::format("{} values: a tail fit needs at least {}", n, 2 * kGpdMinExceedances);
    return std::nullopt;
  }
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  GpdTail tail;
  tail.threshold = sorted[n - k - 1];
  tail.exceedances = k;
  tail.sample_size = n;
  tail.level = level;
  std::vector<double> excesses;
  for (std::size_t i = n - k; i < n; ++i) excesses.push_back(sorted[i] - tail.threshold);
  if (excesses.back() <= 0.0) {
    why = fmt::format("the {} largest values equal the threshold {:.4g}: no tail to fit", k,
                      tail.threshold);
    return std::nullopt;
  }
  const ShapeScale best = maximum_likelihood(excesses);
  tail.shape = best.shape;
  tail.scale = best.scale;
  tail.shape_at_bound = best.at_bound;
  Pcg32 stream = make_stream(seed);
  std::vector<double> shapes, resample(k);
  for (std::size_t b = 0; b < bootstrap; ++b) {
    for (double& y : resample) y = excesses[stream.next_below(k)];
    if (*std::max_element(resample.begin(), resample.end()) > 0.0)
      shapes.push_back(maximum_likelihood(resample).shape);
  }
  if (shapes.size() >= 2) {
    std::tie(tail.shape_low, tail.shape_high) = percentile_interval(std::move(shapes), level);
  } else {
    tail.shape_low = tail.shape_high = tail.shape;
  }
  return tail;
}

}  // namespace collnoise
