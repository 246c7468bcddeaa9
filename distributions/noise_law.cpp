#include "distributions/noise_law.hpp"

#include <boost/math/quadrature/tanh_sinh.hpp>
#include <cmath>

#include "distributions/max_distribution.hpp"

namespace collnoise {

double NoiseLaw::log_cdf(double x) const {
  const double s = sf(x);
  return s < 0.5 ? std::log1p(-s) : std::log(cdf(x));
}

double NoiseLaw::expected_max(double n) const {
  const MaxDistribution max_of_n(*this, 1.0, {MaxGroup{0.0, n}});
  return max_of_n.mean();
}

// Fallbacks by the quantile substitution y = ISF(v): the integrals over [x, inf) become
// integrals over v in (0, S(x)), where tanh-sinh copes with the endpoint singularity of heavy
// tails. Laws with closed forms override these.
double NoiseLaw::mean_excess(double x) const {
  const double s = sf(x);
  if (s <= 0.0) return 0.0;
  if (tail_index() <= 1.0) return std::numeric_limits<double>::infinity();
  boost::math::quadrature::tanh_sinh<double> integrator;
  return integrator.integrate([&](double v) { return isf(v) - x; }, 0.0, s);
}

double NoiseLaw::second_excess(double x) const {
  const double s = sf(x);
  if (s <= 0.0) return 0.0;
  if (tail_index() <= 2.0) return std::numeric_limits<double>::infinity();
  boost::math::quadrature::tanh_sinh<double> integrator;
  return 0.5 * integrator.integrate(
                   [&](double v) {
                     const double y = isf(v);
                     return (y - x) * (y + x);
                   },
                   0.0, s);
}

}  // namespace collnoise
