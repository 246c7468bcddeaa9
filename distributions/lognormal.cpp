#include "distributions/lognormal.hpp"

#include <fmt/format.h>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {
namespace {
// Upper normal tail Phi_c(z) and its inverse, exact far into the tail.
double normal_sf(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}
double normal_isf(double s) {
  return std::sqrt(2.0) * boost::math::erfc_inv(2.0 * s);
}
}  // namespace

LognormalLaw::LognormalLaw(double sigma, const std::string& param_name) : sigma_(sigma) {
  // Beyond sigma = 10 the unit-mean law's median is below e^-50: every sample is 0 or huge.
  if (!(sigma > 0.0 && sigma <= 10.0))
    throw InputError(fmt::format("{} = {} is out of range: the lognormal sigma must lie in (0, 10]",
                                 param_name, sigma));
}

std::string LognormalLaw::describe() const {
  return fmt::format("lognormal(sigma={})", sigma_);
}

double LognormalLaw::sf(double x) const {
  if (x <= 0.0) return 1.0;
  return normal_sf((std::log(x) + 0.5 * sigma_ * sigma_) / sigma_);
}
double LognormalLaw::cdf(double x) const {
  if (x <= 0.0) return 0.0;
  return normal_sf(-(std::log(x) + 0.5 * sigma_ * sigma_) / sigma_);
}
double LognormalLaw::isf(double s) const {
  if (s >= 1.0) return 0.0;
  return std::exp(sigma_ * normal_isf(s) - 0.5 * sigma_ * sigma_);
}
double LognormalLaw::quantile(double p) const {
  if (p <= 0.0) return 0.0;
  return std::exp(-sigma_ * normal_isf(p) - 0.5 * sigma_ * sigma_);
}

// E[eta^k 1{eta > x}] = exp(k mu + k^2 sigma^2/2) Phi_c((ln x - mu - k sigma^2)/sigma), mu =
// -sigma^2/2.
double LognormalLaw::mean_excess(double x) const {
  if (x <= 0.0) return 1.0 - x;
  const double z = std::log(x);
  const double partial1 = normal_sf((z - 0.5 * sigma_ * sigma_) / sigma_);
  return partial1 - x * sf(x);
}
double LognormalLaw::second_excess(double x) const {
  const double second_moment = std::exp(sigma_ * sigma_);
  if (x <= 0.0) return 0.5 * second_moment - 0.5 * x * x;
  const double z = std::log(x);
  const double partial2 = second_moment * normal_sf((z - 1.5 * sigma_ * sigma_) / sigma_);
  return 0.5 * (partial2 - x * x * sf(x));
}

LawKind lognormal_law_kind() {
  static const KeySpec sigma{.name = "sigma",
                             .meaning = "standard deviation of log(eta)",
                             .bounds = {0.0, 10.0, true, false}};
  return {.name = "lognormal",
          .meaning = "log(eta) ~ Normal(-sigma^2/2, sigma^2): unit mean, all moments finite",
          .shape_keys = {sigma},
          .make = [](ParamReader& reader, const std::string& prefix) {
            return std::make_shared<const LognormalLaw>(reader.number(sigma, prefix),
                                                        full_key(sigma, prefix));
          }};
}

}  // namespace collnoise
