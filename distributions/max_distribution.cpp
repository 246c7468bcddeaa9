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
// Halvings of a piece in the adaptive quadrature. The pieces follow T's quantiles, so a smooth
// integrand converges in one or two; where T spreads over a few hundred ulps of its value, the
// law sees x = (t - o)/s only at the resolution of doubles, the integrand is a staircase, and
// deeper refinement multiplies the cost (64 times at 12 halvings) without changing the result.
constexpr unsigned kMaxRefinements = 6;
// Probabilities whose quantiles split the integrals: they put pieces where T's mass is, however
// narrow T's distribution is beside its distance from the support's lower end (a maximum of 2^39
// uniforms spreads over 1e-12 of its range).
constexpr double kSplitProbabilities[] = {1e-9, 1e-6, 1e-3, 0.01, 0.05, 0.1,  0.2,   0.3,       0.4,
                                          0.6,  0.7,  0.8,  0.9,  0.95, 0.99, 0.999, 1.0 - 1e-6};

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

double MaxDistribution::log_cdf_at(double center, double v) const {
  if ((center - lower_) + v < 0.0) return -kInf;
  double sum = 0.0;
  for (const auto& g : groups_) {
    // (center - o) is exact for the groups that matter (Sterbenz), and v keeps its digits down
    // to far below an ulp of T: the integrand resolves T's distribution however narrow it is.
    const double lf = law_.log_cdf(((center - g.offset) + v) / scale_);
    if (lf == 0.0) continue;
    sum += g.count * lf;
  }
  return sum;
}

bool MaxDistribution::exact_steps() const {
  return law_.is_discrete() && law_.breakpoints().size() * groups_.size() <= kMaxExactAtoms;
}

std::vector<double> MaxDistribution::split_points(double center, double t_end) const {
  std::vector<double> points = {lower_ - center, 0.0, t_end - center};
  const auto breaks = law_.breakpoints();
  if (breaks.size() * groups_.size() <= kMaxExactAtoms)
    for (const auto& g : groups_)
      for (double b : breaks) points.push_back((g.offset - center) + scale_ * b);
  if (!law_.is_discrete()) {
    // Geometric steps in t - lower, from far below the noise scale to the tail's start, follow
    // both the bulk and a heavy tail over many decades at a few pieces per doubling.
    for (double step = scale_ * 0x1.0p-12; lower_ + step < t_end; step *= 2.0)
      points.push_back((lower_ - center) + step);
  }
  if (!exact_steps())
    for (double p : kSplitProbabilities) points.push_back(quantile(p) - center);
  std::sort(points.begin(), points.end());
  const double v_low = lower_ - center;
  const double v_high = t_end - center;
  points.erase(std::remove_if(points.begin(), points.end(),
                              [&](double v) { return !(v >= v_low && v <= v_high); }),
               points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// Over the pieces on one side of the center c: the integral of |v|^power F(c + v) below c
// (upper = false) or of v^power (1 - F(c + v)) above it (upper = true), power 0 or 1.
double MaxDistribution::integrate_side(double center, std::span<const double> points, int power,
                                       bool upper) const {
  const bool exact = exact_steps();
  const auto probability = [&](double v) {
    const double log_f = log_cdf_at(center, v);
    return upper ? -std::expm1(log_f) : std::exp(log_f);
  };
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    throw_if_stop_requested();  // an exact mean at large N integrates many pieces
    const double a = points[i];
    const double b = points[i + 1];
    if ((b <= 0.0) == upper) continue;  // the piece lies on the other side
    if (exact) {
      // F is constant on (a, b): T's CDF jumps only at the split points. The midpoint keeps
      // rounding in (t - o)/s away from the jumps.
      const double level = probability(0.5 * (a + b));
      total += level * (power == 0 ? b - a : 0.5 * std::abs((b - a) * (b + a)));
      continue;
    }
    auto integrand = [&](double v) {
      const double f = probability(v);
      return power == 0 ? f : std::abs(v) * f;
    };
    // Integrate over u in [0, 1]: Boost's adaptive step compares an error estimate of the
    // unit-interval rule with the tolerance times the scaled estimate, so on a short piece it
    // never stops refining even when the integrand is constant.
    auto on_unit_interval = [&](double u) { return integrand(a + (b - a) * u); };
    total += (b - a) * boost::math::quadrature::gauss_kronrod<double, 31>::integrate(
                           on_unit_interval, 0.0, 1.0, kMaxRefinements, 1e-12);
  }
  return total;
}

// The first two moments about the median c, each integrand of one sign:
//   E[T] - c     = int_c^inf (1 - F) dt - int_lower^c F dt
//   E[(T - c)^2] = 2 int_c^inf (t - c)(1 - F) dt + 2 int_lower^c (c - t) F dt
// and Var = E[(T - c)^2] - (E[T] - c)^2, where (E[T] - c)^2 <= Var (mean and median lie within
// a standard deviation): no cancellation, unlike E[(T - lower)^2] - E[T - lower]^2, which
// loses every digit when T spreads over 1e-12 of its distance from lower.
MaxDistribution::CentralMoments MaxDistribution::central_moments(bool with_variance) const {
  const double center = quantile(0.5);
  const double t_end = std::max(tail_start(), center);
  const auto points = split_points(center, t_end);
  // Beyond t_end, 1 - F = sum_g n_g S to a relative kTailEpsilon: the law's partial moments.
  double tail0 = 0.0;
  double tail1 = 0.0;
  for (const auto& g : groups_) {
    const double x = group_tail_eta(g, t_end);
    tail0 += g.count * scale_ * law_.mean_excess(x);
    if (with_variance)
      tail1 += g.count * scale_ *
               ((g.offset - center) * law_.mean_excess(x) + scale_ * law_.second_excess(x));
  }
  CentralMoments m;
  const double shift =
      (integrate_side(center, points, 0, true) + tail0) - integrate_side(center, points, 0, false);
  m.mean = center + shift;
  if (with_variance) {
    const double about_center = 2.0 * (integrate_side(center, points, 1, true) + tail1) +
                                2.0 * integrate_side(center, points, 1, false);
    m.variance = std::max(about_center - shift * shift, 0.0);
  }
  return m;
}

double MaxDistribution::mean() const {
  if (scale_ == 0.0) return lower_;
  if (law_.tail_index() <= 1.0) return kInf;
  return central_moments(false).mean;
}

std::optional<double> MaxDistribution::sd() const {
  if (scale_ == 0.0) return 0.0;
  if (law_.tail_index() <= 2.0) return std::nullopt;
  return std::sqrt(central_moments(true).variance);
}

}  // namespace collnoise
