#include "distributions/max_distribution.hpp"

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/stop_request.hpp"
#include "distributions/bisection.hpp"

namespace collnoise {
namespace {

constexpr double kTailEpsilon = 1e-10;           // sum_g n_g S beyond the body's end
constexpr std::size_t kMaxExactAtoms = 4000000;  // atoms x groups summed exactly
const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

MaxDistribution::MaxDistribution(const NoiseLaw& law, double scale, std::vector<MaxGroup> groups)
    : law_(law), scale_(scale) {
  for (const auto& g : groups)
    if (g.count > 0.0) groups_.push_back(g);
  if (groups_.empty() || !(scale >= 0.0))
    throw RuntimeFailure("MaxDistribution needs a group with count > 0 and scale >= 0");
  lower_ = -kInf;
  const double eta_min = scale_ > 0.0 ? law_.support_min() : 0.0;
  for (const auto& g : groups_) lower_ = std::max(lower_, g.offset + scale_ * eta_min);
}

double MaxDistribution::log_cdf_sum(double t) const {
  if (t < lower_) return -kInf;
  if (scale_ == 0.0) return 0.0;
  double sum = 0.0;
  for (const auto& g : groups_) {
    const double lf = law_.log_cdf((t - g.offset) / scale_);
    if (lf == 0.0) continue;  // avoids 0 * -inf for empty contributions
    sum += g.count * lf;
  }
  return sum;
}

double MaxDistribution::log_cdf(double t) const {
  return log_cdf_sum(t);
}
double MaxDistribution::cdf(double t) const {
  return std::exp(log_cdf_sum(t));
}
double MaxDistribution::sf(double t) const {
  return -std::expm1(log_cdf_sum(t));
}

double MaxDistribution::quantile(double p) const {
  if (scale_ == 0.0) return lower_;
  double total = 0.0;
  for (const auto& g : groups_) total += g.count;
  // Beyond every group's per-copy quantile p^(1/total), the product is at least p.
  const double per_copy_sf = -std::expm1(std::log(p) / total);
  double hi = lower_;
  for (const auto& g : groups_) hi = std::max(hi, g.offset + scale_ * law_.isf(per_copy_sf));
  const double log_p = std::log(p);
  return first_true_nonnegative(lower_, hi, [&](double t) { return log_cdf_sum(t) >= log_p; });
}

double MaxDistribution::tail_start_eta() const {
  double total = 0.0;
  for (const auto& g : groups_) total += g.count;
  return law_.isf(kTailEpsilon / total);
}

double MaxDistribution::tail_start() const {
  const double eta = tail_start_eta();
  double t = lower_;
  for (const auto& g : groups_) t = std::max(t, g.offset + scale_ * eta);
  return t;
}

double MaxDistribution::group_tail_eta(const MaxGroup& g, double t_end) const {
  // Mathematically (t_end - o)/s >= the tail's start for every group; rounding can put it a hair
  // below, which a count of 2^100 copies would turn into a huge excess at an atom.
  return std::max((t_end - g.offset) / scale_, tail_start_eta());
}

std::vector<double> MaxDistribution::split_points(double t_end) const {
  std::vector<double> points = {lower_, t_end};
  const auto breaks = law_.breakpoints();
  if (breaks.size() * groups_.size() <= kMaxExactAtoms)
    for (const auto& g : groups_)
      for (double b : breaks) points.push_back(g.offset + scale_ * b);
  if (!law_.is_discrete() && scale_ > 0.0) {
    // Geometric steps in t - lower, from far below the noise scale to the tail's start, follow
    // both the bulk and a heavy tail over many decades at a few pieces per doubling.
    for (double step = scale_ * 0x1.0p-12; lower_ + step < t_end; step *= 2.0)
      points.push_back(lower_ + step);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::remove_if(points.begin(), points.end(),
                              [&](double t) { return !(t >= lower_ && t <= t_end); }),
               points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// Integral over [lower, tail_start] of (t - lower)^power (1 - P(T <= t)), power 0 or 1.
double MaxDistribution::integrate_body(double power) const {
  const double t_end = tail_start();
  const auto points = split_points(t_end);
  double total = 0.0;
  const bool exact_steps =
      law_.is_discrete() && law_.breakpoints().size() * groups_.size() <= kMaxExactAtoms;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    throw_if_stop_requested();  // an exact mean at large N integrates many pieces
    const double a = points[i];
    const double b = points[i + 1];
    if (exact_steps) {
      // 1 - P(T <= t) is constant on (a, b): T's CDF jumps only at the split points. The
      // midpoint keeps rounding in (t - o)/s away from the jumps.
      const double level = sf(0.5 * (a + b));
      const double da = a - lower_;
      const double db = b - lower_;
      total += power == 0.0 ? level * (b - a) : level * 0.5 * (db - da) * (db + da);
      continue;
    }
    auto integrand = [&](double t) {
      const double s = sf(t);
      return power == 0.0 ? s : (t - lower_) * s;
    };
    // Integrate over u in [0, 1]: Boost's adaptive step compares an error estimate of the
    // unit-interval rule with the tolerance times the scaled estimate, so on a short piece it
    // never stops refining even when the integrand is constant.
    auto on_unit_interval = [&](double u) { return integrand(a + (b - a) * u); };
    total += (b - a) * boost::math::quadrature::gauss_kronrod<double, 31>::integrate(
                           on_unit_interval, 0.0, 1.0, 12, 1e-12);
  }
  return total;
}

double MaxDistribution::mean() const {
  if (scale_ == 0.0) return lower_;
  if (law_.tail_index() <= 1.0) return kInf;
  const double t_end = tail_start();
  double tail = 0.0;
  for (const auto& g : groups_)
    tail += g.count * scale_ * law_.mean_excess(group_tail_eta(g, t_end));
  return lower_ + integrate_body(0.0) + tail;
}

std::optional<double> MaxDistribution::sd() const {
  if (scale_ == 0.0) return 0.0;
  if (law_.tail_index() <= 2.0) return std::nullopt;
  const double t_end = tail_start();
  double tail0 = 0.0;
  double tail1 = 0.0;
  for (const auto& g : groups_) {
    const double x = group_tail_eta(g, t_end);
    tail0 += g.count * scale_ * law_.mean_excess(x);
    tail1 += g.count * scale_ *
             ((g.offset - lower_) * law_.mean_excess(x) + scale_ * law_.second_excess(x));
  }
  const double m1 = integrate_body(0.0) + tail0;
  const double m2 = 2.0 * (integrate_body(1.0) + tail1);
  return std::sqrt(std::max(m2 - m1 * m1, 0.0));
}

}  // namespace collnoise
