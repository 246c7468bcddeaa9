#include "distributions/weibull.hpp"

#include <fmt/format.h>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {

WeibullLaw::WeibullLaw(double k, const std::string& param_name) : k_(k), lambda_(0.0) {
  // Below k = 0.05 the unit-mean scale 1/Gamma(1 + 1/k) underflows long before the tail ends.
  if (!(k >= 0.05 && k <= 1000.0))
    throw InputError(fmt::format(
        "{} = {} is out of range: the Weibull shape k must lie in [0.05, 1000]", param_name, k));
  lambda_ = std::tgamma(1.0 + 1.0 / k);
}

std::string WeibullLaw::describe() const {
  return fmt::format("weibull(k={})", k_);
}

double WeibullLaw::sf(double x) const {
  if (x <= 0.0) return 1.0;
  const double z = std::pow(lambda_ * x, k_);
  return z > 746.0 ? 0.0 : std::exp(-z);  // exp underflows to 0 there (avoids the slow path)
}
double WeibullLaw::cdf(double x) const {
  return x <= 0.0 ? 0.0 : -std::expm1(-std::pow(lambda_ * x, k_));
}
double WeibullLaw::isf(double s) const {
  return std::pow(-std::log(s), 1.0 / k_) / lambda_;
}
double WeibullLaw::quantile(double p) const {
  return std::pow(-std::log1p(-p), 1.0 / k_) / lambda_;
}

// E[eta^m 1{eta > x}] = Gamma(1 + m/k) Q(1 + m/k, (lambda x)^k) / lambda^m.
double WeibullLaw::mean_excess(double x) const {
  if (x <= 0.0) return 1.0 - x;
  const double y = std::pow(lambda_ * x, k_);
  return boost::math::gamma_q(1.0 + 1.0 / k_, y) - x * sf(x);
}
double WeibullLaw::second_excess(double x) const {
  const double second_moment = std::tgamma(1.0 + 2.0 / k_) / (lambda_ * lambda_);
  if (x <= 0.0) return 0.5 * second_moment - 0.5 * x * x;
  const double y = std::pow(lambda_ * x, k_);
  return 0.5 * (second_moment * boost::math::gamma_q(1.0 + 2.0 / k_, y) - x * x * sf(x));
}

LawKind weibull_law_kind() {
  static const KeySpec k{.name = "k",
                         .meaning = "shape (k < 1: heavier than exponential; k = 1: exponential)",
                         .bounds = {0.05, 1000.0}};
  return {.name = "weibull",
          .meaning = "Weibull of shape k, rescaled to unit mean",
          .shape_keys = {k},
          .make = [](ParamReader& reader, const std::string& prefix) {
            return std::make_shared<const WeibullLaw>(reader.number(k, prefix),
                                                      full_key(k, prefix));
          }};
}

}  // namespace collnoise
