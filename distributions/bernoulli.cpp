#include "distributions/bernoulli.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {

BernoulliLaw::BernoulliLaw(double p, const std::string& param_name) : p_(p) {
  if (!(p > 0.0 && p <= 1.0))
    throw InputError(fmt::format("{} = {} is invalid: a Bernoulli probability must lie in (0, 1]",
                                 param_name, p));
}

std::string BernoulliLaw::describe() const {
  return fmt::format("bernoulli(p={})", p_);
}

double BernoulliLaw::sf(double x) const {
  if (x < 0.0) return 1.0;
  return x < 1.0 / p_ ? p_ : 0.0;
}
double BernoulliLaw::isf(double s) const {
  return s < p_ ? 1.0 / p_ : 0.0;
}
double BernoulliLaw::quantile(double q) const {
  return q > 1.0 - p_ ? 1.0 / p_ : 0.0;
}
double BernoulliLaw::expected_max(double n) const {
  return -std::expm1(n * std::log1p(-p_)) / p_;
}
double BernoulliLaw::mean_excess(double x) const {
  if (x < 0.0) return 1.0 - x;
  return x < 1.0 / p_ ? 1.0 - p_ * x : 0.0;
}
double BernoulliLaw::second_excess(double x) const {
  const double top = 1.0 / p_;
  if (x >= top) return 0.0;
  if (x < 0.0) return 0.5 * (p_ * top * top) - 0.5 * x * x;
  return 0.5 * p_ * (top - x) * (top + x);
}

}  // namespace collnoise
