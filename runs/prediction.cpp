#include "runs/prediction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <optional>

#include "estimators/block_bootstrap.hpp"
#include "estimators/prediction_fields.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

std::optional<double> number_in(const Record& record, const std::string& name) {
  const Field* field = record.find(name);
  if (!field) return std::nullopt;
  if (const auto* d = std::get_if<double>(field)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(field)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<std::uint64_t>(field)) return static_cast<double>(*u);
  return std::nullopt;
}

double median_of(std::vector<double> values) {
  const auto [low, high] = percentile_interval(std::move(values), 0.0);
  return 0.5 * (low + high);
}

double variance_of(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  double mean = 0.0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double sum = 0.0;
  for (double v : values) sum += (v - mean) * (v - mean);
  return sum / static_cast<double>(values.size() - 1);
}

/// One estimate over the draws: each draw's value and, where it has one, its interval's ends.
struct DrawnEstimate {
  std::vector<double> values;
  std::vector<double> below;  ///< value - low, per draw with an interval
  std::vector<double> above;  ///< high - value
  std::string missing;        ///< why a draw has no value (the prediction is null)
};

DrawnEstimate drawn_estimate(const IntervalEstimate& estimate,
                             std::span<const Record> draw_summaries) {
  DrawnEstimate drawn;
  for (const Record& summary : draw_summaries) {
    const std::optional<double> value = number_in(summary, estimate.value);
    if (!value) {
      const Field* field = summary.find(estimate.value);
      const auto* null = field ? std::get_if<Null>(field) : nullptr;
      drawn.missing = null ? null->reason : "a draw has no " + estimate.value;
      return drawn;
    }
    drawn.values.push_back(*value);
    const std::optional<double> low = number_in(summary, estimate.low);
    const std::optional<double> high = number_in(summary, estimate.high);
    if (low && high) {
      drawn.below.push_back(*value - *low);
      drawn.above.push_back(*high - *value);
    }
  }
  return drawn;
}

void put_estimate(Record& out, const PredictedEstimateFields& fields, const DrawnEstimate& drawn,
                  double level) {
  if (!drawn.missing.empty()) {
    for (const FieldSpec& field : fields.specs()) out.put(field, Field(Null{drawn.missing}));
    return;
  }
  const double value = median_of(drawn.values);
  out.put(fields.value(), Field(value));
  const bool every_draw_has_interval = drawn.below.size() == drawn.values.size();
  const std::string no_interval = "a draw's estimate has no interval";
  double mc_variance = 0.0;
  if (every_draw_has_interval) {
    out.put(fields.mc_low(), Field(value - median_of(drawn.below)));
    out.put(fields.mc_high(), Field(value + median_of(drawn.above)));
    const double z =
        boost::math::quantile(boost::math::normal_distribution<double>(), 0.5 + 0.5 * level);
    for (std::size_t d = 0; d < drawn.below.size(); ++d) {
      const double sd = (drawn.below[d] + drawn.above[d]) / (2.0 * z);
      mc_variance += sd * sd / static_cast<double>(drawn.below.size());
    }
  } else {
    out.put(fields.mc_low(), Field(Null{no_interval}));
    out.put(fields.mc_high(), Field(Null{no_interval}));
  }
  const auto [low, high] = percentile_interval(drawn.values, level);
  out.put(fields.low(), Field(low));
  out.put(fields.high(), Field(high));
  if (!every_draw_has_interval) {
    out.put(fields.calibration_share(), Field(Null{no_interval}));
    out.put(fields.dominant(), Field(Null{no_interval}));
    return;
  }
  const double total = variance_of(drawn.values);
  const double share = total > 0.0 ? std::clamp(1.0 - mc_variance / total, 0.0, 1.0) : 0.0;
  out.put(fields.calibration_share(), Field(share));
  out.put(fields.dominant(),
          Field(std::string(share >= 0.5 ? kCalibrationDominates : kMonteCarloDominates)));
}

/// The parameters every draw of the point shares: not the drawn keys, nor what follows from them
/// (a model's record of the values it simulated), nor the draw.
Record shared_params(std::span<const PreparedPoint> draws) {
  const Record& first = draws.front().params;
  const auto shared = [&](const std::string& key, const Field& value) {
    for (const PreparedPoint& draw : draws.subspan(1)) {
      const Field* other = draw.params.find(key);
      if (!other || !(*other == value)) return false;
    }
    return key != prediction_draw_field().name;
  };
  Record params;
  for (const auto& [key, value] : first.fields())
    if (shared(key, value)) params.set(key, value);
  for (const auto& [key, unit] : first.units())
    if (params.find(key)) params.set_unit(key, unit);
  return params;
}

void put_extrapolation(Record& out, const RunSpec& run, const PreparedPoint& point,
                       const Record& summary) {
  const PredictionFields& f = prediction_fields();
  const std::optional<std::uint64_t> largest = run.machine->largest_ranks;
  const std::optional<double> ranks = point.model && point.model->ranks_field
                                          ? number_in(summary, point.model->ranks_field->name)
                                          : std::nullopt;
  if (!largest)
    out.put(f.extrapolation, Field(Null{"the machine file was fitted to no table"}));
  else if (!ranks)
    out.put(f.extrapolation, Field(Null{"the point has no rank count"}));
  else
    out.put(f.extrapolation, Field(*ranks > static_cast<double>(*largest)));
  if (largest)
    out.put(f.largest_calibrated_ranks, Field(*largest));
  else
    out.put(f.largest_calibrated_ranks, Field(Null{"the machine file was fitted to no table"}));
}

PredictionResult prediction_of(const RunSpec& run, std::size_t first,
                               std::span<const PreparedPoint> points,
                               std::span<const Record> summaries) {
  const std::size_t draws = run.prediction_draws;
  PredictionResult prediction;
  prediction.params = shared_params(points.subspan(first, draws));
  Record& out = prediction.summary;
  const PredictionFields& f = prediction_fields();
  out.put(f.first_point, Field(static_cast<std::uint64_t>(first)));
  out.put(f.draws, Field(static_cast<std::uint64_t>(draws)));
  out.put(f.level, Field(run.confidence));
  out.put(f.machine, Field(run.machine->given_path));
  put_extrapolation(out, run, points[first], summaries[first]);
  const std::span<const Record> drawn = summaries.subspan(first, draws);
  for (const IntervalEstimate& estimate : interval_estimates(summaries[first]))
    put_estimate(out,
                 PredictedEstimateFields(estimate.value, summaries[first].unit_of(estimate.value)),
                 drawn_estimate(estimate, drawn), run.confidence);
  return prediction;
}

}  // namespace

const FieldSpec& prediction_draw_field() {
  static const FieldSpec field{"prediction.draw", "",
                               "the machine file's calibration draw the point simulates, from 1"};
  return field;
}

std::vector<PredictionResult> predictions_of(const RunSpec& run,
                                             std::span<const PreparedPoint> points,
                                             std::span<const PointResult> results) {
  std::vector<PredictionResult> predictions;
  if (run.prediction_draws == 0 || !run.machine) return predictions;
  std::vector<Record> summaries;
  for (const PointResult& r : results) summaries.push_back(r.summary);
  for (std::size_t first = 0; first + run.prediction_draws <= points.size();
       first += run.prediction_draws)
    predictions.push_back(prediction_of(run, first, points, summaries));
  return predictions;
}

}  // namespace collnoise
