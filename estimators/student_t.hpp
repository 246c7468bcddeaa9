#pragma once
// The one place Student t quantiles come from (docs/models/estimators.md): every t interval of
// collnoise (means, ratios, fitted slopes) uses this critical value.

namespace collnoise {

/// The two-sided critical value of a Student t interval at confidence `level` with `dof`
/// degrees of freedom: the t quantile at 0.5 + level / 2. Preconditions: dof > 0, 0 < level < 1.
double student_t_critical(double dof, double level);

}  // namespace collnoise
