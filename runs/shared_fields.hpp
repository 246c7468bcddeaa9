#pragma once
// The declarations of the fields every point carries, whatever its model (runs/point_fields.hpp
// writes them, after the model's own), each once: docs/reference/summary-fields.md and the
// Python package's list of fields are generated from them. The user bounds' fields are a
// pattern of their own (estimators/bound_fields.hpp).
#include "core/field_spec.hpp"

namespace collnoise::shared_fields {

inline const std::string kTargets = "with precision targets";
inline const std::string kMeanTarget = "with a precision target on the mean";
inline const std::string kQuantileTarget = "with a precision target on a quantile";

inline const FieldSpec kConfidence{"confidence", "",
                                   "the level of the point's intervals: the run's `confidence`",
                                   "unless the analysis has a level of its own (N_1/2)"};
inline const FieldSpec kWarnings{"warnings", "",
                                 "the model's warnings joined with \"; \" (empty when none)", ""};
inline const FieldSpec kPrecisionMet{"precision_met", "",
                                     "whether the point met every precision target", kTargets};
inline const FieldSpec kPrecisionSamples{"precision_samples", "", "samples the point took",
                                         kTargets};
inline const FieldSpec kPrecisionBatches{"precision_batches", "",
                                         "batches the point was sampled in", kTargets};
inline const FieldSpec kPrecisionPredictedSamples{
    "precision_predicted_samples", "", "samples predicted to meet the targets", kTargets};
inline const FieldSpec kPrecisionMaxSamples{
    "precision_max_samples", "", "the most samples a point may take (precision.max_samples)",
    kTargets};
inline const FieldSpec kPrecisionMinSamples{
    "precision_min_samples", "", "the fewest samples a point takes (precision.min_samples)",
    kTargets};
inline const FieldSpec kPrecisionMeanTarget{"precision_mean_target", "",
                                            "the target relative half-width of the mean's interval",
                                            kMeanTarget};
inline const FieldSpec kPrecisionMeanAchieved{"precision_mean_achieved", "",
                                              "the relative half-width achieved", kMeanTarget};
inline const FieldSpec kPrecisionQuantile{"precision_quantile", "", "the quantile's probability",
                                          kQuantileTarget};
inline const FieldSpec kPrecisionQuantileTarget{"precision_quantile_target", "",
                                                "the target relative half-width of its interval",
                                                kQuantileTarget};
inline const FieldSpec kPrecisionQuantileAchieved{
    "precision_quantile_achieved", "", "the relative half-width achieved", kQuantileTarget};
inline const FieldSpec kPrecisionNote{"precision_note", "", "why the targets were not met",
                                      "when a precision target is not met"};

}  // namespace collnoise::shared_fields
