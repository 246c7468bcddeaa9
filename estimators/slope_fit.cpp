#include "estimators/slope_fit.hpp"

#include <cmath>

#include "estimators/student_t.hpp"

namespace collnoise {

SlopeFit log_log_slope(const std::vector<double>& m, const std::vector<double>& w, double level) {
  SlopeFit fit;
  const std::size_t n = m.size();
  if (n < 2 || w.size() != n) {
    fit.reason = "fewer than two points";
    return fit;
  }
  double sx = 0, sy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sx += std::log(m[i]);
    sy += std::log(w[i]);
  }
  const double mx = sx / static_cast<double>(n), my = sy / static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = std::log(m[i]) - mx;
    sxx += dx * dx;
    sxy += dx * (std::log(w[i]) - my);
  }
  if (!(sxx > 0.0)) {
    fit.reason = "all m equal";
    return fit;
  }
  fit.slope = sxy / sxx;
  if (n < 3) {
    fit.reason = "an interval needs at least three points";
    return fit;
  }
  double rss = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = std::log(w[i]) - my - fit.slope * (std::log(m[i]) - mx);
    rss += r * r;
  }
  const double se = std::sqrt(rss / static_cast<double>(n - 2) / sxx);
  const double t = student_t_critical(static_cast<double>(n - 2), level);
  fit.ci_low = fit.slope - t * se;
  fit.ci_high = fit.slope + t * se;
  return fit;
}

}  // namespace collnoise
