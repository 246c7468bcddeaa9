#pragma once
// A ratio of means over paired samples, E[X] / E[Y], with a delta-method interval
// (docs/models/estimators.md):
//   r = mean(x) / mean(y),   Var(r) ~ (Var X - 2 r Cov(X, Y) + r^2 Var Y) / (n mean(y)^2),
// and a Student t critical value with n - 1 degrees of freedom. No ratio is given when the
// denominator's own t interval contains 0 (the ratio would be unbounded).
#include <optional>
#include <string>

#include "estimators/accumulator.hpp"
#include "estimators/co_moment.hpp"

namespace collnoise {

struct RatioInterval {
  std::optional<double> ratio;
  std::optional<double> ci_low;
  std::optional<double> ci_high;
  std::string reason;  ///< why there is no ratio: "fewer than two replications", the denominator
  bool denominator_may_be_zero = false;  ///< the denominator's interval contains 0
};

/// `x`, `y`: the numerator's and denominator's samples; `xy`: their co-moment (paired).
/// Precondition: 0 < level < 1.
RatioInterval ratio_of_means(const Accumulator& x, const Accumulator& y, const CoMoment& xy,
                             double level);

}  // namespace collnoise
