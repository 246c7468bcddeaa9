#include "runs/point_fields.hpp"

#include <utility>

#include "estimators/bound_fields.hpp"
#include "estimators/summary_fields.hpp"
#include "runs/shared_fields.hpp"

namespace collnoise {

const FieldList& shared_point_fields() {
  using namespace shared_fields;
  static const FieldList fields = [] {
    FieldList list = {kConfidence,
                      kWarnings,
                      kPrecisionMet,
                      kPrecisionSamples,
                      kPrecisionBatches,
                      kPrecisionPredictedSamples,
                      kPrecisionMaxSamples,
                      kPrecisionMinSamples,
                      kPrecisionMeanTarget,
                      kPrecisionMeanAchieved,
                      kPrecisionQuantile,
                      kPrecisionQuantileTarget,
                      kPrecisionQuantileAchieved,
                      kPrecisionNote};
    append_fields(list, bound_field_pattern());
    return list;
  }();
  return fields;
}

Record point_record(const PreparedPoint& point, PointSummary summary, double run_confidence,
                    const PrecisionOutcome* precision, const BoundInput* bounds) {
  Record record = std::move(summary.record);
  if (point.sampled || point.analysis->uses_run_confidence())
    record.put(shared_fields::kConfidence, Field(run_confidence));
  record.put(shared_fields::kWarnings, Field(join_warnings(summary.warnings)));
  if (precision) put_precision(record, precision->status, *precision->settings, precision->batches);
  if (bounds != nullptr && bounds->bounds != nullptr && bounds->tally != nullptr)
    put_bound_fields(record, *bounds->bounds, point, *bounds->tally, bounds->levels);
  return record;
}

}  // namespace collnoise
