#pragma once
// A power law fitted to points (docs/models/estimators.md): the least-squares slope of log y
// against log x, with a Student t interval from the residuals.
#include <optional>
#include <string>
#include <vector>

namespace collnoise {

/// Least-squares slope of log w against log m, with a Student t interval from the residuals
/// (model misfit and sampling noise both widen it). The slope needs 2 points, its interval 3.
struct SlopeFit {
  double slope = 0.0;
  std::optional<double> ci_low;
  std::optional<double> ci_high;
  std::string reason;  ///< when there is no interval
};
SlopeFit log_log_slope(const std::vector<double>& m, const std::vector<double>& w, double level);

}  // namespace collnoise
