#include "distributions/uniform.hpp"

#include <algorithm>
#include <memory>

namespace collnoise {

double UniformLaw::sf(double x) const {
  return std::clamp(1.0 - 0.5 * x, 0.0, 1.0);
}
double UniformLaw::cdf(double x) const {
  return std::clamp(0.5 * x, 0.0, 1.0);
}

double UniformLaw::mean_excess(double x) const {
  if (x <= 0.0) return 1.0 - x;
  if (x >= 2.0) return 0.0;
  return 0.25 * (2.0 - x) * (2.0 - x);
}

double UniformLaw::second_excess(double x) const {
  // Integral of y (1 - y/2) over [x, 2] = 2/3 - x^2/2 + x^3/6.
  if (x >= 2.0) return 0.0;
  if (x <= 0.0) return 2.0 / 3.0 - 0.5 * x * x;
  return 2.0 / 3.0 - 0.5 * x * x + x * x * x / 6.0;
}

LawKind uniform_law_kind() {
  return {.name = "uniform",
          .meaning = "eta ~ Uniform(0, 2): bounded, E[max of n] = 2n/(n+1)",
          .make = [](ParamReader&, const std::string&) {
            return std::make_shared<const UniformLaw>();
          }};
}

}  // namespace collnoise
