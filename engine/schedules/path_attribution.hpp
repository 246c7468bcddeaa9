#pragma once
// Where a schedule point's time and noise went, over its samples (docs/models/critical-path.md):
// the tallies a point keeps when the run file asks for critical paths (`output.critical_path`),
// and the summary fields made of them. Each sample's critical path (critical_path.hpp) becomes a
// row of metrics after the completion time; they merge like every other metric, so the
// attribution is the same for any threads, processes, parts and resumes.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/field_spec.hpp"
#include "core/record.hpp"
#include "engine/schedules/critical_path.hpp"
#include "estimators/histogram.hpp"
#include "estimators/tally.hpp"

namespace collnoise {

/// Units of weight one sample gives to the rank that finishes last: shared equally among tied
/// ranks, exactly for up to 16 of them (720720 is divisible by 1 to 16).
inline constexpr std::uint64_t kLastRankWeight = 720720;
/// The last-rank histogram has one bin per rank up to this many ranks, else equal rank ranges.
inline constexpr std::uint32_t kLastRankBins = 4096;

class PathAttribution {
 public:
  /// A schedule of `ranks` ranks whose ranks hold at most `most_operations` operations each.
  PathAttribution(std::uint32_t ranks, std::uint64_t most_operations);

  /// Step buckets in use (at most kPathBuckets): operations indices [b k, (b + 1) k) of a rank
  /// fall in bucket b, k = operations_per_bucket().
  std::size_t buckets() const { return buckets_; }
  std::uint64_t operations_per_bucket() const { return per_bucket_; }
  std::uint8_t bucket(std::uint64_t index) const {
    return static_cast<std::uint8_t>(index / per_bucket_);
  }
  /// bucket() as a critical-path recorder asks for it.
  StepBucket step_bucket() const {
    return [per_bucket = per_bucket_](std::uint32_t, std::uint64_t index) {
      return static_cast<std::uint8_t>(index / per_bucket);
    };
  }

  /// Appends its metrics (seconds), their pair and the last-rank histogram to `layout`, whose
  /// metric 0 is the completion time. The metrics start at first_metric().
  void add_to(TallyLayout& layout) const;
  static constexpr std::size_t first_metric() { return 1; }
  std::size_t metrics() const { return kPathCategories + 1 + buckets_; }
  /// Writes a sample's path (ns) into its row's attribution metrics (seconds).
  void fill(const CriticalPath& path, std::span<double> row) const;
  /// Counts the ranks that finished last in `histogram` (the layout's "last_rank").
  static void count_last(const CriticalPath& path, Histogram& histogram);

  /// The summary fields: per category the path's mean time with its interval, the noiseless
  /// path's and the excess over it; the noise charged and the share absorbed with its interval;
  /// the ranks that most often finish last and their shares; the path's noise by step.
  void summarize(Record& record, const Tally& tally, const CriticalPath& noiseless, double level,
                 std::vector<std::string>& warnings) const;
  /// The schema of the fields summarize writes (core/field_spec.hpp), each written `when`.
  static std::vector<FieldSpec> field_specs(const std::string& when);

 private:
  std::uint32_t ranks_;
  std::size_t buckets_;
  std::uint64_t per_bucket_;
};

}  // namespace collnoise
