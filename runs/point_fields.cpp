#include "runs/point_fields.hpp"

#include <utility>

#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

std::vector<FieldSpec> with_bound_fields(std::vector<FieldSpec> fields) {
  for (FieldSpec& f : bound_field_specs()) fields.push_back(std::move(f));
  return fields;
}

}  // namespace

const std::vector<FieldSpec>& shared_point_fields() {
  const std::string targets = "with precision targets";
  const std::string mean_target = "with a precision target on the mean";
  const std::string quantile_target = "with a precision target on a quantile";
  static const std::vector<FieldSpec> fields = with_bound_fields({
      {"confidence", "", "the level of the point's intervals: the run's `confidence`",
       "unless the analysis has a level of its own (N_1/2)"},
      {"warnings", "", "the model's warnings joined with \"; \" (empty when none)"},
      {"precision_met", "", "whether the point met every precision target", targets},
      {"precision_samples", "", "samples the point took", targets},
      {"precision_batches", "", "batches the point was sampled in", targets},
      {"precision_predicted_samples", "", "samples predicted to meet the targets", targets},
      {"precision_max_samples", "", "the most samples a point may take (precision.max_samples)",
       targets},
      {"precision_min_samples", "", "the fewest samples a point takes (precision.min_samples)",
       targets},
      {"precision_mean_target", "", "the target relative half-width of the mean's interval",
       mean_target},
      {"precision_mean_achieved", "", "the relative half-width achieved", mean_target},
      {"precision_quantile", "", "the quantile's probability", quantile_target},
      {"precision_quantile_target", "", "the target relative half-width of its interval",
       quantile_target},
      {"precision_quantile_achieved", "", "the relative half-width achieved", quantile_target},
      {"precision_note", "", "why the targets were not met", "when a precision target is not met"},
  });
  return fields;
}

Record point_record(const PreparedPoint& point, PointSummary summary, double run_confidence,
                    const PrecisionOutcome* precision, const BoundInput* bounds) {
  Record record = std::move(summary.record);
  if (point.sampled || point.analysis->uses_run_confidence())
    record.set("confidence", Field(run_confidence));
  record.set("warnings", Field(join_warnings(summary.warnings)));
  if (precision) put_precision(record, precision->status, *precision->settings, precision->batches);
  if (bounds != nullptr && bounds->bounds != nullptr && bounds->tally != nullptr)
    put_bound_fields(record, *bounds->bounds, point, *bounds->tally, bounds->levels);
  return record;
}

}  // namespace collnoise
