#pragma once
// Predictions with intervals (docs/calibration.md, "Predictions with intervals"). A run that
// includes a machine file and sets `prediction.draws = D` simulates each of its points D times,
// once at each of the first D of the machine file's [[machine.draws]] (the calibration's bootstrap
// refits, runs/machine_file.hpp), every draw with the run's samples and its own streams. The D
// draws' summaries of one point give its prediction: for each estimate with an interval (a mean
// or a reported quantile, estimators/summary_fields.hpp)
//   - the prediction: the median over the draws of the draw's estimate;
//   - the Monte Carlo interval: the prediction plus the median over the draws of the distances
//     from a draw's estimate to its own interval's ends (what the interval would be if the
//     calibration knew its values exactly);
//   - the predictive interval (Monte Carlo and calibration): the percentile interval of the draws'
//     estimates at the run's confidence level (Hyndman and Fan's type 7), which holds both the
//     spread of the refitted values and each draw's own sampling error;
//   - the calibration's share of the estimates' variance: 1 - (the mean of the draws' Monte
//     Carlo variances, from their intervals' widths taken as normal) / (the variance of the
//     draws' estimates), clipped to [0, 1], and which of the two dominates.
// A point whose rank count exceeds the largest the calibration saw (machine.largest_ranks) is
// marked an extrapolation. The predictions are derived from the points' summaries: `run` and
// `merge` compute them alike, and a result file holds them beside its points.
#include <span>
#include <string>
#include <vector>

#include "core/field_spec.hpp"
#include "core/record.hpp"
#include "engine/study.hpp"
#include "outputs/result_file.hpp"
#include "runs/run_file.hpp"

namespace collnoise {

/// The parameter naming the draw a point simulates, from 1 (in its parameters and its streams).
const FieldSpec& prediction_draw_field();

/// The predictions of a run with prediction.draws, one per point of the run file in its order
/// (params: those all its draws share, so neither the drawn keys, what follows from them, nor the
/// draw; summary: prediction_fields(),
/// then each estimate's PredictedEstimateFields, estimators/prediction_fields.hpp), from the
/// summaries of `points` (results[i] is points[i]'s); none when the run asks none.
/// Preconditions: `points` and `results` are the run's, all of them (a whole run or a merge).
std::vector<PredictionResult> predictions_of(const RunSpec& run,
                                             std::span<const PreparedPoint> points,
                                             std::span<const PointResult> results);

}  // namespace collnoise
