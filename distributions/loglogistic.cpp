#include "distributions/loglogistic.hpp"

#include <fmt/format.h>

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <memory>

#include "core/errors.hpp"
#include "distributions/pareto.hpp"

namespace collnoise {

LogLogisticLaw::LogLogisticLaw(double beta, const std::string& param_name) : beta_(beta) {
  // beta > 1 for a finite mean; as for Pareto, 1.001 keeps the scale and the tail's integrals
  // representable, and beyond 1000 the law is a constant in all but name.
  if (!(beta >= 1.001 && beta <= 1000.0))
    throw InputError(fmt::format(
        "{} = {} is out of range: the log-logistic shape must lie in [1.001, 1000] (beta > 1 for "
        "a finite mean)",
        param_name, beta));
  const double pi = boost::math::constants::pi<double>();
  alpha_ = beta * std::sin(pi / beta) / pi;
}

std::string LogLogisticLaw::describe() const {
  return fmt::format("loglogistic(beta={})", beta_);
}

// With r = (x/alpha)^beta = exp(beta log(x/alpha)): S = 1/(1+r), F = 1/(1+1/r), both without
// cancellation at either end.
double LogLogisticLaw::sf(double x) const {
  if (x <= 0.0) return 1.0;
  return 1.0 / (1.0 + std::exp(beta_ * std::log(x / alpha_)));
}
double LogLogisticLaw::cdf(double x) const {
  if (x <= 0.0) return 0.0;
  return 1.0 / (1.0 + std::exp(-beta_ * std::log(x / alpha_)));
}
double LogLogisticLaw::log_cdf(double x) const {
  if (x <= 0.0) return -std::numeric_limits<double>::infinity();
  return -std::log1p(std::exp(-beta_ * std::log(x / alpha_)));
}
double LogLogisticLaw::isf(double s) const {
  if (s >= 1.0) return 0.0;
  return alpha_ * std::exp((std::log1p(-s) - std::log(s)) / beta_);
}
double LogLogisticLaw::quantile(double p) const {
  if (p <= 0.0) return 0.0;
  return alpha_ * std::exp((std::log(p) - std::log1p(-p)) / beta_);
}

// E[max of n] = integral of x d(F^n) = n alpha B(n + 1/beta, 1 - 1/beta), by x = alpha (u/(1-u))^
// (1/beta): = alpha Gamma(1 - 1/beta) Gamma(n + 1/beta) / Gamma(n).
double LogLogisticLaw::expected_max(double n) const {
  const double d = 1.0 / beta_;
  return alpha_ * std::tgamma(1.0 - d) * gamma_ratio(n + d, d);
}

LawKind loglogistic_law_kind() {
  static const KeySpec beta{
      .name = "beta",
      .meaning = "shape and tail index: P(eta > x) ~ x^-beta (infinite variance for beta <= 2)",
      .bounds = {1.001, 1000.0}};
  return {.name = "loglogistic",
          .meaning = "P(eta > x) = 1/(1 + (x/alpha)^beta), alpha for unit mean: heavy tail",
          .shape_keys = {beta},
          .make = [](ParamReader& reader, const std::string& prefix) {
            return std::make_shared<const LogLogisticLaw>(reader.number(beta, prefix),
                                                          full_key(beta, prefix));
          }};
}

}  // namespace collnoise
