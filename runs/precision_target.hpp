#pragma once
// Precision targets: instead of a fixed count, a point is sampled in batches until the
// confidence interval of its primary metric's mean (and/or of one quantile) is narrow enough,
// relative to the estimate, or the cap is reached. Batches are whole chunks; after each one the
// interval is measured on everything so far and the samples still needed predicted from the
// 1/sqrt(n) law. Because the decision depends only on the merged tally at batch ends, a run
// stops at the same sample count for any number of threads, processes or sittings.
//  - Sequential stopping under-covers when it may stop early on a lucky narrow interval: no
//    decision before precision.min_samples.
//  - A mean target needs a finite variance: refused where the primary metric's tail index <= 2
//    (use a quantile target there).
//  - Quantile intervals take whole histogram bins: a target finer than half a bin can never be
//    met, and the point stops saying so.
#include <cstdint>
#include <optional>
#include <string>

#include "core/record.hpp"
#include "estimators/tally.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"

namespace collnoise {

/// Where a point stands against its targets after a batch.
struct PrecisionStatus {
  std::uint64_t samples = 0;
  std::optional<double> mean_relative_half_width;      ///< achieved; null when undefined
  std::optional<double> quantile_relative_half_width;  ///< achieved; null when undefined
  bool met = false;
  bool unreachable = false;             ///< no number of samples can meet it (bin width)
  std::uint64_t predicted_samples = 0;  ///< samples the targets need, as predicted now
  std::string note;                     ///< why not met, when it is not
};

/// InputError naming the point if a target cannot apply to it (heavy tail, no histogram).
void check_precision_applies(const PrecisionSettings& settings, double primary_tail_index,
                             const TallyLayout& layout, const std::string& point_label);

/// The status of `tally` (all chunks so far) against the targets.
PrecisionStatus assess_precision(const Tally& tally, const PrecisionSettings& settings,
                                 double confidence);

/// The end (in samples) of the first batch: min_samples, rounded up to whole chunks, capped.
std::uint64_t first_batch_end(const PrecisionSettings& settings, const ChunkPlan& plan);

/// The end of the next batch after `status`, or nullopt when sampling stops (met, unreachable
/// or capped). Batches grow at most fourfold.
std::optional<std::uint64_t> next_batch_end(const PrecisionStatus& status,
                                            const PrecisionSettings& settings,
                                            const ChunkPlan& plan);

/// precision_* fields of a point's summary.
void put_precision(Record& summary, const PrecisionStatus& status,
                   const PrecisionSettings& settings, std::uint64_t batches);

}  // namespace collnoise
