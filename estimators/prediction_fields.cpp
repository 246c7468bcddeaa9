#include "estimators/prediction_fields.hpp"

#include <fmt/format.h>

namespace collnoise {

const PredictionFields& prediction_fields() {
  static const PredictionFields fields;
  return fields;
}

PredictedEstimateFields::PredictedEstimateFields(const std::string& value, const std::string& unit)
    : fields_{
          {value, unit, "the median over the draws of their estimate"},
          {value + "_mc_low", unit,
           "lower end of its Monte Carlo interval (the calibration's values taken as exact)"},
          {value + "_mc_high", unit, "upper end of its Monte Carlo interval"},
          {value + "_low", unit,
           "lower end of its predictive interval, Monte Carlo and calibration (the percentile "
           "interval of the draws' estimates)"},
          {value + "_high", unit, "upper end of its predictive interval"},
          {value + "_calibration_share", "",
           "the calibration's share of the variance of the draws' estimates (0 to 1)"},
          {value + "_dominant", "",
           fmt::format("which uncertainty dominates: '{}' or '{}'", kCalibrationDominates,
                       kMonteCarloDominates)},
      } {}

}  // namespace collnoise
