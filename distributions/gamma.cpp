#include "distributions/gamma.hpp"

#include <fmt/format.h>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {

GammaLaw::GammaLaw(double k, const std::string& param_name) : k_(k) {
  if (!(k >= 1.0e-3 && k <= 1.0e6))
    throw InputError(fmt::format(
        "{} = {} is out of range: the gamma shape k must lie in [0.001, 1e6]", param_name, k));
}

std::string GammaLaw::describe() const {
  return fmt::format("gamma(k={})", k_);
}

double GammaLaw::sf(double x) const {
  return x <= 0.0 ? 1.0 : boost::math::gamma_q(k_, k_ * x);
}
double GammaLaw::cdf(double x) const {
  return x <= 0.0 ? 0.0 : boost::math::gamma_p(k_, k_ * x);
}
double GammaLaw::isf(double s) const {
  if (s >= 1.0) return 0.0;
  return boost::math::gamma_q_inv(k_, s) / k_;
}
double GammaLaw::quantile(double p) const {
  if (p <= 0.0) return 0.0;
  return boost::math::gamma_p_inv(k_, p) / k_;
}

// E[eta 1{eta > x}] = Q(k+1, kx); E[eta^2 1{eta > x}] = (k+1)/k Q(k+2, kx).
double GammaLaw::mean_excess(double x) const {
  if (x <= 0.0) return 1.0 - x;
  return boost::math::gamma_q(k_ + 1.0, k_ * x) - x * sf(x);
}
double GammaLaw::second_excess(double x) const {
  const double second_moment = (k_ + 1.0) / k_;
  if (x <= 0.0) return 0.5 * second_moment - 0.5 * x * x;
  return 0.5 * (second_moment * boost::math::gamma_q(k_ + 2.0, k_ * x) - x * x * sf(x));
}

LawKind gamma_law_kind() {
  static const KeySpec k{.name = "k", .meaning = "shape", .bounds = {0.001, 1.0e6}};
  return {.name = "gamma",
          .meaning = "Gamma of shape k and scale 1/k: unit mean, variance 1/k",
          .shape_keys = {k},
          .make = [](ParamReader& reader, const std::string& prefix) {
            return std::make_shared<const GammaLaw>(reader.number(k, prefix), full_key(k, prefix));
          }};
}

}  // namespace collnoise
