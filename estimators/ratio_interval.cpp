#include "estimators/ratio_interval.hpp"

#include <algorithm>
#include <cmath>

#include "estimators/student_t.hpp"

namespace collnoise {

RatioInterval ratio_of_means(const Accumulator& x, const Accumulator& y, const CoMoment& xy,
                             double level) {
  RatioInterval out;
  const auto n = static_cast<double>(y.count);
  if (y.count < 2) {
    out.reason = "fewer than two replications";
    return out;
  }
  const double t = student_t_critical(n - 1.0, level);
  const double y_half = t * y.sd() / std::sqrt(n);
  if (y.mean - y_half <= 0.0 && 0.0 <= y.mean + y_half) {
    out.denominator_may_be_zero = true;
    out.reason = "the denominator's interval contains 0";
    return out;
  }
  const double r = x.mean / y.mean;
  const double var =
      (x.variance() - 2.0 * r * xy.covariance() + r * r * y.variance()) / (n * y.mean * y.mean);
  const double half = t * std::sqrt(std::max(var, 0.0));
  out.ratio = r;
  out.ci_low = r - half;
  out.ci_high = r + half;
  return out;
}

}  // namespace collnoise
