#pragma once
// Confidence intervals for a mean (docs/models/estimators.md).
//  - Student t over independent samples, for tails with finite variance;
//  - for tail index <= 2 (infinite variance, where t intervals under-cover badly), Peng's (2001)
//    semiparametric estimator: the k largest values are replaced by a Pareto tail fitted by Hill's
//    estimator, mu = (sum of the n-k smallest)/n + (k/n) u / (1 - gamma), u the (k+1)-th largest,
//    with a delta-method (influence function) variance
//      Var = Var(Y)/n + (k/n^2) u^2 gamma^2 / (1 - gamma)^4,
//    Y_i = x_i below u and u/(1-gamma) above it.
// Both are widened for rounding: the accumulator's own (Accumulator::rounding_bound) and, where
// the model bounds it, the rounding inside each sample, a bias that no number of samples averages
// away (docs/models/estimators.md, "Intervals at the arithmetic floor").
#include <optional>
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

/// What a model knows of the rounding inside one of its samples.
struct SampleRounding {
  /// |computed sample - exact sample| <= relative_bound * |sample|: for a sample computed by k
  /// roundings of non-negative terms, k u with u = 2^-53. None: not bounded.
  std::optional<double> relative_bound;

  static SampleRounding of_roundings(int roundings) { return {roundings * 0x1.0p-53}; }
};

/// The rounding a sample's doubles are presumed to carry when a model does not bound it: below
/// this many roundings' worth (times u times the samples' magnitude), an interval's half-width says
/// less than the arithmetic that made the samples, and the interval warns.
inline constexpr int kPresumedRoundings = 64;

/// Widens an interval by the accumulator's rounding bound plus, when known, the bias bound of the
/// rounding inside each sample (rounding.relative_bound times the mean |sample|: |mean| for
/// values of one sign, else the largest |sample|), rounding the ends outwards. Without a known
/// bound, warns when the half-width is below kPresumedRoundings roundings of that magnitude (and
/// the samples are not all equal).
void widen_for_rounding(MeanInterval& interval, const Accumulator& acc,
                        const SampleRounding& rounding);

/// Student t interval, widened for rounding (above). Precondition 0 < level < 1.
MeanInterval student_t_interval(const Accumulator& acc, double level,
                                const SampleRounding& rounding = {});

/// Peng's semiparametric interval on x - shift (shift: a lower bound of the values, seconds),
/// widened for rounding (above). Needs at least 100 samples and a Hill estimate below 1 (else null
/// with a reason).
MeanInterval semiparametric_interval(const Accumulator& acc, const TopValues& top, double shift,
                                     double level, const SampleRounding& rounding = {});

/// Hill's estimate of the tail index from the k largest values of x - shift (k >= 2).
Nullable hill_tail_index(const std::vector<double>& descending, std::size_t k, double shift);

/// The number of top order statistics the semiparametric method uses for n samples.
std::size_t tail_order_count(std::uint64_t n, std::size_t available);

/// Chooses the method from the law's tail index (docs/models/estimators.md): semiparametric for <=
/// 2, Student t otherwise, with a warning at or below 4.
MeanInterval mean_interval(const Accumulator& acc, const TopValues& top, double shift,
                           double tail_index, double level, const SampleRounding& rounding = {});

}  // namespace collnoise
