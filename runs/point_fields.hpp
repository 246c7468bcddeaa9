#pragma once
// The fields every point carries, whatever its model, written after the model's own fields by
// this one writer. `collnoise run` (runs/run_executor.cpp) and `collnoise merge` both call it, so
// a merged result holds the same fields as an unsplit run. A field every point shares is added
// here, declared in runs/shared_fields.hpp (documented in docs/reference/summary-fields.md),
// never in a model.
#include <cstdint>
#include <vector>

#include "core/field_spec.hpp"
#include "core/record.hpp"
#include "engine/study.hpp"
#include "runs/bound_check.hpp"
#include "runs/precision_target.hpp"

namespace collnoise {

/// Where a sampled point stopped against the run's precision targets.
struct PrecisionOutcome {
  const PrecisionSettings* settings = nullptr;
  PrecisionStatus status;
  std::uint64_t batches = 0;  ///< batches the point was sampled in
};

/// The schema of the fields every point shares, in the order point_record writes them
/// (docs/reference/summary-fields.md).
const FieldList& shared_point_fields();

/// The run's user bounds at a sampled point, and the levels of their intervals.
struct BoundInput {
  const std::vector<UserBound>* bounds = nullptr;
  const Tally* tally = nullptr;
  BoundLevels levels;
};

/// The point's summary record: the model's fields, then the fields every point shares, then the
/// verdicts of the run's bounds (runs/bound_check.hpp). `precision`: null when the run has no
/// precision targets; `bounds`: null when it has no bounds.
Record point_record(const PreparedPoint& point, PointSummary summary, double run_confidence,
                    const PrecisionOutcome* precision, const BoundInput* bounds = nullptr);

}  // namespace collnoise
