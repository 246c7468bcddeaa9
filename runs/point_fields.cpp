#include "runs/point_fields.hpp"

#include <utility>

#include "estimators/summary_fields.hpp"

namespace collnoise {

Record point_record(const PreparedPoint& point, PointSummary summary, double run_confidence,
                    const PrecisionOutcome* precision) {
  Record record = std::move(summary.record);
  if (point.sampled || point.analysis->uses_run_confidence())
    record.set("confidence", Field(run_confidence));
  record.set("warnings", Field(join_warnings(summary.warnings)));
  if (precision) put_precision(record, precision->status, *precision->settings, precision->batches);
  return record;
}

}  // namespace collnoise
