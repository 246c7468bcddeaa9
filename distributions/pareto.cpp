#include "distributions/pareto.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {

ParetoLaw::ParetoLaw(double a, const std::string& param_name)
    : a_(a), c_((a - 1.0) / a), zero_beyond_(std::exp(747.0 / a)) {
  // Above 1 for a finite mean; 1.001 keeps the scale (a-1)/a and the tail's integrals
  // representable, and beyond 1000 the law is a constant in all but name.
  if (!(a >= 1.001 && a <= 1000.0))
    throw InputError(fmt::format(
        "{} = {} is out of range: the Pareto tail index must lie in [1.001, 1000] (a > 1 for a "
        "finite mean)",
        param_name, a));
}

std::string ParetoLaw::describe() const {
  return fmt::format("pareto(a={})", a_);
}

double ParetoLaw::sf(double x) const {
  if (x <= c_) return 1.0;
  // pow underflows to 0 once a ln(x/c) exceeds 745.2: skip libm's slow underflow path.
  if (x > c_ * zero_beyond_) return 0.0;
  return std::pow(x / c_, -a_);
}
double ParetoLaw::cdf(double x) const {
  return x <= c_ ? 0.0 : -std::expm1(-a_ * std::log(x / c_));
}
double ParetoLaw::isf(double s) const {
  return c_ * std::pow(s, -1.0 / a_);
}
double ParetoLaw::quantile(double p) const {
  return c_ * std::exp(-std::log1p(-p) / a_);
}

double gamma_ratio(double z, double delta) {
  if (z < 1e6) return 1.0 / boost::math::tgamma_delta_ratio(z - delta, delta);
  // Gamma(z)/Gamma(z-d) = z^d [1 - d(d+1)/(2z) + C(d,2) (d+1)(3d+2)/(12 z^2) + O(z^-3)].
  const double d = delta;
  const double c1 = -d * (d + 1.0) / 2.0;
  const double c2 = d * (d - 1.0) / 2.0 * (d + 1.0) * (3.0 * d + 2.0) / 12.0;
  const double inv = 1.0 / z;
  return std::pow(z, d) * (1.0 + inv * (c1 + inv * c2));
}

// E[max of n X] = Gamma(n+1) Gamma(1-1/a) / Gamma(n+1-1/a).
double ParetoLaw::expected_max(double n) const {
  return c_ * std::tgamma(1.0 - 1.0 / a_) * gamma_ratio(n + 1.0, 1.0 / a_);
}

double ParetoLaw::mean_excess(double x) const {
  if (x <= c_) return 1.0 - x;
  return c_ * std::pow(x / c_, 1.0 - a_) / (a_ - 1.0);
}

double ParetoLaw::second_excess(double x) const {
  if (a_ <= 2.0) return std::numeric_limits<double>::infinity();
  const double tail_from_c = c_ * c_ / (a_ - 2.0);
  if (x <= c_) return 0.5 * (c_ - x) * (c_ + x) + tail_from_c;
  return c_ * c_ * std::pow(x / c_, 2.0 - a_) / (a_ - 2.0);
}

namespace {

// Agarwal et al.'s constant c_a = ((a-1)/a)^(1-1/a).
double agarwal_c(double a) {
  return std::pow((a - 1.0) / a, 1.0 - 1.0 / a);
}

}  // namespace

std::optional<TreeBarrierBound> ParetoLaw::tree_barrier_bound(double leaves, double scale) const {
  return TreeBarrierBound{3, scale * std::pow(leaves, 1.0 / a_) * agarwal_c(a_)};
}

std::optional<LawFormula> ParetoLaw::nhalf_approximation(double overhead, double w,
                                                         double tau) const {
  const double f = overhead / (1.0 + overhead);
  const double noise_term = 2.0 * std::pow((1.0 - f) / (f * agarwal_c(a_)), a_);
  const double latency_term =
      tau > 0.0 ? std::pow(2.0, w / (2.0 * tau) + 2.0) : std::numeric_limits<double>::infinity();
  return LawFormula{std::min(noise_term, latency_term),
                    "min(2 ((1-f)/(f c_a))^a, 2^(w/(2 tau) + 2)), c_a = ((a-1)/a)^(1-1/a)"};
}

LawKind pareto_law_kind() {
  static const KeySpec a{.name = "a",
                         .meaning = "tail index: P(eta > x) ~ x^-a (infinite variance for a <= 2)",
                         .bounds = {1.001, 1000.0}};
  return {.name = "pareto",
          .meaning = "eta = ((a-1)/a) X, P(X > x) = x^-a for x >= 1: heavy tail of index a",
          .shape_keys = {a},
          .make = [](ParamReader& reader, const std::string& prefix) {
            return std::make_shared<const ParetoLaw>(reader.number(a, prefix), full_key(a, prefix));
          }};
}

}  // namespace collnoise
