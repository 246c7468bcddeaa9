#pragma once
// The fields of a prediction with intervals (runs/prediction.hpp; docs/calibration.md,
// "Predictions with intervals"), declared once: the run writes them, the summary table and
// `collnoise summary` read them, docs/reference/summary-fields.md lists them.
#include <string>

#include "core/field_spec.hpp"

namespace collnoise {

/// The fields every prediction holds before its estimates'.
struct PredictionFields {
  FieldSpec first_point{
      "first_point", "",
      "the point of its first draw; its draws are the next prediction_draws points"};
  FieldSpec draws{"prediction_draws", "",
                  "calibration draws it was simulated at (prediction.draws)"};
  FieldSpec level{"prediction_level", "",
                  "confidence level of its intervals (the run's confidence)"};
  FieldSpec machine{"machine_file", "", "the machine file, as the run file names it"};
  FieldSpec extrapolation{
      "extrapolation", "",
      "whether the point has more ranks than the largest the calibration was fitted to; null "
      "when either is unknown"};
  FieldSpec largest_calibrated_ranks{
      "largest_calibrated_ranks", "",
      "machine.largest_ranks: the largest rank count of the calibration's tables; null when it "
      "was fitted to none"};
  /// Every member, in the order a prediction writes them.
  FieldList specs() const {
    return {first_point, draws, level, machine, extrapolation, largest_calibrated_ranks};
  }
};

const PredictionFields& prediction_fields();

/// What a prediction's "<estimate>_dominant" holds.
inline constexpr const char* kCalibrationDominates = "calibration";
inline constexpr const char* kMonteCarloDominates = "Monte Carlo";

/// The fields a prediction holds for one estimate with an interval (a mean or a reported
/// quantile, estimators/summary_fields.hpp) named `value`, in its unit: <value>,
/// <value>_mc_low, <value>_mc_high, <value>_low, <value>_high, <value>_calibration_share and
/// <value>_dominant.
class PredictedEstimateFields {
 public:
  PredictedEstimateFields(const std::string& value, const std::string& unit);
  const FieldSpec& value() const { return fields_[0]; }
  const FieldSpec& mc_low() const { return fields_[1]; }
  const FieldSpec& mc_high() const { return fields_[2]; }
  const FieldSpec& low() const { return fields_[3]; }
  const FieldSpec& high() const { return fields_[4]; }
  const FieldSpec& calibration_share() const { return fields_[5]; }
  const FieldSpec& dominant() const { return fields_[6]; }
  /// Every member, in the order a prediction writes them.
  const FieldList& specs() const { return fields_; }

 private:
  FieldList fields_;
};

}  // namespace collnoise
