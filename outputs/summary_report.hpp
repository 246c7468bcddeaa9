#pragma once
// Human and machine reports of a result: a fixed-width table, and the JSON document of
// `summary --json` (docs/cli.md).
#include <span>
#include <string>
#include <vector>

#include "core/record.hpp"
#include "outputs/result_file.hpp"

namespace collnoise {

/// A table with one row per point: the parameters that differ between points and those the
/// first point's model always shows (`table_params`: one key a line), then the columns it chose
/// (`table_columns`: lines "header<TAB>field<TAB>format", format "z" for two decimals; empty: the
/// sample count, mean and interval where present).
std::string summary_table(const std::vector<Record>& params, const std::vector<Record>& summaries,
                          const std::string& table_columns, const std::string& table_params);

/// The same table of the points a run or merge has just written.
std::string summary_table(const std::vector<PointResult>& results);

/// The predictions of a run with prediction.draws (runs/prediction.hpp) as a table: the
/// parameters that differ, whether each is an extrapolation, then for each estimate of the
/// points' table columns (`point_columns`, as summary_table takes them; with a mean, its median
/// and p99 too) the prediction, its predictive interval, its Monte Carlo interval and which
/// dominates. Empty when there are none.
std::string prediction_table(std::span<const PredictionResult> predictions,
                             const std::string& point_columns, const std::string& table_params);
/// The same of the predictions a run or merge has just made of `results`.
std::string prediction_table(std::span<const PredictionResult> predictions,
                             const std::vector<PointResult>& results);

/// {"format_version", "kind", "name", "seed", "stream_format", "engine_version", "git_sha",
///  "points": [{"params": {...}, ...summary}], "predictions": [the same of each prediction, when
///  the run made any], "units": {key: unit}} (docs/cli.md). Parameters
/// missing from a point but present in another are null with a reason; "units" holds the unit
/// of every parameter and summary field that declares one (empty for files written before).
std::string summary_json(const Record& root, const std::vector<Record>& params,
                         const std::vector<Record>& summaries,
                         std::span<const PredictionResult> predictions = {});

}  // namespace collnoise
