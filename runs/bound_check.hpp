#pragma once
// User bounds held against a point (docs/bounds.md): the names a bound may use at a point, the
// check of its expression before anything is sampled, the statistic's interval at any level, the
// verdict, and the summary fields that record it.
//
// Verdicts. With [lo, hi] the statistic's interval (edges included) and B the bound's value:
//   ">="  holds when lo >= B, violated when hi < B, else undecided;
//   "<="  holds when hi <= B, violated when lo > B, else undecided;
//   "=="  with the band [B - t|B|, B + t|B|]: holds when [lo, hi] lies in the band, violated when
//         it misses the band, else undecided.
// "violated" says the bound is false at the interval's confidence; "holds" that it is true there.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/nullable.hpp"
#include "core/record.hpp"
#include "engine/study.hpp"
#include "estimators/tally.hpp"
#include "runs/user_bound.hpp"

namespace collnoise {

/// The names a bound may use at `point`: each numeric key of its parameters (variable_name:
/// dots and brackets as underscores), then each field its model's summary may hold, in SI units.
std::vector<std::string> bound_variable_names(const PreparedPoint& point);

/// InputError when a bound cannot apply at `point`: an analysis (bounds need samples), a
/// malformed expression, an unknown name, an assignment or a comma list ("<origin>: bound[i]
/// ("<name>"): expression "<text>", column C: ..."), a quantile statistic of a model that keeps
/// neither a histogram of its primary metric nor (`raw_samples`) the samples, or, when the run
/// samples until the bounds are decided (`until_decided`), a bound that reads only the point's
/// keys and is not a finite number there: it could never be decided. Polls the stop request.
void check_bounds_apply(const std::vector<UserBound>& bounds, const PreparedPoint& point,
                        const std::string& origin, bool raw_samples, bool until_decided = false);

/// A statistic of the primary metric with its interval.
struct StatisticInterval {
  Nullable estimate, low, high;
  std::string method;  ///< "student_t", "semiparametric_peng", "order_statistics_raw", ...
};

/// `statistic` ("mean", "median", "p90", "p99", "p999") of the primary metric at `level`: the
/// mean by the model's method, a quantile by distribution-free order statistics of the raw
/// samples when the tally keeps them, else of the histogram (whose interval takes whole bins).
/// `sorted`: the raw samples in order, sorted by the caller once for all of a point's bounds
/// (empty: sorted here when needed).
StatisticInterval statistic_interval(const SampledStudy& study, const Tally& tally,
                                     const std::string& statistic, double level,
                                     std::span<const double> sorted = {});

enum class BoundVerdict { kHolds, kViolated, kUndecided };
std::string verdict_text(BoundVerdict verdict);

/// The verdict of `bound` with value `value` against [low, high] (see above).
BoundVerdict bound_verdict(const UserBound& bound, double value, double low, double high);

/// The levels of a point's bound intervals: `level` for the verdict, `adjusted` for the verdict
/// adjusted for multiplicity (Bonferroni over every bound at every point of the run).
struct BoundLevels {
  double level = 0.95;
  double adjusted = 0.95;
  std::string method = "fixed";  ///< "fixed", or "spent over looks" under bounds_decided
};

/// Levels for a run of `points` points with `bounds` bounds at confidence `confidence`; with
/// `look` (1-based batch count under precision.until = "bounds_decided") the error is spent over
/// the looks: look k gets (1 - confidence) 6 / (pi^2 k^2), which sums to 1 - confidence.
BoundLevels bound_levels(double confidence, std::size_t points, std::size_t bounds,
                         std::optional<std::uint64_t> look);

/// Writes the bound fields (the pattern of estimators/bound_fields.hpp: bound_<i>_<member>, i from
/// 1) and bounds_decided into
/// `summary` (the model's fields, which the expressions read). Linear in the number of bounds
/// (the intervals are computed once per statistic); StopRequested on a stop request.
void put_bound_fields(Record& summary, const std::vector<UserBound>& bounds,
                      const PreparedPoint& point, const Tally& tally, const BoundLevels& levels);

/// Empty when every bound's verdict at `point` is decided at `level` (precision.until), else why
/// the first that is not is not: "bound[i] ("<name>") is undecided at level L", or "... has no
/// value at this point (...), so it can never be decided". StopRequested on a stop request.
std::string bounds_undecided(const std::vector<UserBound>& bounds, const PreparedPoint& point,
                             const Record& summary, const Tally& tally, double level);

}  // namespace collnoise
