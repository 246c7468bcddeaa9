#include "distributions/exponential.hpp"

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <cmath>

namespace collnoise {

double ExponentialLaw::sf(double x) const {
  return x <= 0.0 ? 1.0 : std::exp(-x);
}
double ExponentialLaw::cdf(double x) const {
  return x <= 0.0 ? 0.0 : -std::expm1(-x);
}
double ExponentialLaw::log_cdf(double x) const {
  if (x <= 0.0) return -std::numeric_limits<double>::infinity();
  // Beyond 746, exp(-x) is below half the smallest subnormal: the result is 0, reached without
  // libm's slow underflow path (exact distributions of deep trees evaluate it millions of times).
  if (x > 746.0) return -0.0;
  return x > 0.7 ? std::log1p(-std::exp(-x)) : std::log(-std::expm1(-x));
}
double ExponentialLaw::isf(double s) const {
  return -std::log(s);
}
double ExponentialLaw::quantile(double p) const {
  return -std::log1p(-p);
}
double ExponentialLaw::expected_max(double n) const {
  return harmonic_number(n);
}
double ExponentialLaw::mean_excess(double x) const {
  return sf(x) - (x < 0.0 ? x : 0.0);
}
double ExponentialLaw::second_excess(double x) const {
  if (x < 0.0) return 1.0 - 0.5 * x * x;  // S = 1 below 0
  return (x + 1.0) * std::exp(-x);
}

std::optional<TreeBarrierBound> ExponentialLaw::tree_barrier_bound(double leaves,
                                                                   double scale) const {
  return TreeBarrierBound{2, scale * harmonic_number(leaves)};
}

// E[T] ~ w + s ln N + 2 tau log2 N reaches 2w at ln N = 1 / (f/(1-f) + 2 tau/(w ln 2)).
std::optional<LawFormula> ExponentialLaw::nhalf_approximation(double overhead, double w,
                                                              double tau) const {
  return LawFormula{std::exp(1.0 / (overhead + 2.0 * tau / (w * std::log(2.0)))),
                    "exp(1 / (f/(1-f) + 2 tau/(w ln 2)))"};
}

// E[max of m] = H_m ~ ln m: W = K m s H_m.
std::optional<std::string> ExponentialLaw::max_growth_note() const {
  return "m H_m is not a power law (its log-log slope is 1 + 1/H_m)";
}

double harmonic_number(double n) {
  if (n < 1.0)
    return n <= 0.0 ? 0.0 : boost::math::digamma(n + 1.0) + boost::math::constants::euler<double>();
  if (n <= 64.0 && n == std::floor(n)) {
    double h = 0.0;
    for (int k = static_cast<int>(n); k >= 1; --k) h += 1.0 / k;  // small terms first
    return h;
  }
  if (n < 1e8) return boost::math::digamma(n + 1.0) + boost::math::constants::euler<double>();
  // psi(n+1) = ln n + 1/(2n) - 1/(12 n^2) + 1/(120 n^4) - ...: exact to rounding here.
  const double inv = 1.0 / n;
  return std::log(n) + boost::math::constants::euler<double>() + 0.5 * inv - inv * inv / 12.0;
}

LawKind exponential_law_kind() {
  return {.name = "exponential",
          .meaning = "eta ~ Exp(1): light tail, E[max of n] = H_n",
          .make = [](ParamReader&, const std::string&) {
            return std::make_shared<const ExponentialLaw>();
          }};
}

}  // namespace collnoise
