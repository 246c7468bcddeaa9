#pragma once
// Confidence intervals for a mean (docs/models/estimators.md).
//  - Student t over independent samples, for tails with finite variance;
//  - for tail index <= 2 (infinite variance, where t intervals under-cover badly), Peng's (2001)
//    semiparametric estimator: the k largest values are replaced by a Pareto tail fitted by Hill's
//    estimator, mu = (sum of the n-k smallest)/n + (k/n) u / (1 - gamma), u the (k+1)-th largest,
//    with a delta-method (influence function) variance
//      Var = Var(Y)/n + (k/n^2) u^2 gamma^2 / (1 - gamma)^4,
//    Y_i = x_i below u and u/(1-gamma) above it.
#include <string>
#include <vector>

#include "core/nullable.hpp"
#include "estimators/accumulator.hpp"
#include "estimators/top_values.hpp"

namespace collnoise {

struct MeanInterval {
  double mean = 0.0;  ///< the sample mean
  Nullable ci_low;
  Nullable ci_high;
  Nullable standard_error;
  Nullable corrected_mean;  ///< the tail-corrected point estimate (semiparametric method only)
  std::string method;       ///< "student_t" or "semiparametric_peng"
  double level = 0.95;
  std::vector<std::string> warnings;
};

/// Student t interval. Precondition 0 < level < 1.
MeanInterval student_t_interval(const Accumulator& acc, double level);

/// Peng's semiparametric interval on x - shift (shift: a lower bound of the values, seconds).
/// Needs at least 100 samples and a Hill estimate below 1 (else null with a reason).
MeanInterval semiparametric_interval(const Accumulator& acc, const TopValues& top, double shift,
                                     double level);

/// Hill's estimate of the tail index from the k largest values of x - shift (k >= 2).
Nullable hill_tail_index(const std::vector<double>& descending, std::size_t k, double shift);

/// The number of top order statistics the semiparametric method uses for n samples.
std::size_t tail_order_count(std::uint64_t n, std::size_t available);

/// Chooses the method from the law's tail index (docs/models/estimators.md): semiparametric for <=
/// 2, Student t otherwise, with a warning at or below 4.
MeanInterval mean_interval(const Accumulator& acc, const TopValues& top, double shift,
                           double tail_index, double level);

}  // namespace collnoise
