#pragma once
// Where a schedule point's time and noise went, over its samples (docs/models/critical-path.md):
// the tallies a point keeps when the run file asks for critical paths (`output.critical_path`),
// and the summary fields made of them. Each sample's critical path (critical_path.hpp) becomes a
// row of metrics after the completion time; they merge like every other metric, so the
// attribution is the same for any threads, processes, parts and resumes.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/field_spec.hpp"
#include "core/record.hpp"
#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/schedule/schedule.hpp"
#include "estimators/histogram.hpp"
#include "estimators/tally.hpp"

namespace collnoise {

/// Units of weight one sample gives to the rank that finishes last: shared equally among tied
/// ranks, exactly for up to 16 of them (720720 is divisible by 1 to 16).
inline constexpr std::uint64_t kLastRankWeight = 720720;
/// The last-rank histogram has one bin per rank up to this many ranks, else equal rank ranges.
inline constexpr std::uint32_t kLastRankBins = 4096;

/// The steps the critical path's noise is spread over (docs/models/critical-path.md): a generated
/// algorithm's rounds, or else a rank's operations by their index.
struct PathSteps {
  std::uint64_t count = 1;  ///< rounds, or the most operations of a rank
  /// The round of a rank's send or receive, by its peer and tag (empty: the steps are the
  /// operations' indices).
  std::function<std::uint32_t(std::uint32_t rank, const Operation& op)> round_of;
};

class PathAttribution {
 public:
  /// A schedule of `ranks` ranks whose steps are `steps`; `network`: on a shared network
  /// (network.contention), with the network category (else the six of runs without one, as
  /// their files have them).
  PathAttribution(std::uint32_t ranks, PathSteps steps, bool network = false);

  /// Step buckets in use (at most kPathBuckets): steps [b k, (b + 1) k) fall in bucket b,
  /// k = steps_per_bucket().
  std::size_t buckets() const { return buckets_; }
  std::uint64_t steps_per_bucket() const { return per_bucket_; }
  /// The bucket of an operation, as a critical-path recorder asks for it: by its round (a
  /// computation: the round before it), or by its index.
  StepBucket step_bucket() const;

  /// Appends its metrics (seconds), their pair and the last-rank histogram to `layout`, whose
  /// metric 0 is the completion time. The metrics start at first_metric().
  void add_to(TallyLayout& layout) const;
  static constexpr std::size_t first_metric() { return 1; }
  std::size_t metrics() const { return categories_ + 1 + buckets_; }
  /// The categories its metrics and fields have (path_categories()).
  std::size_t categories() const { return categories_; }
  /// Writes a sample's path (ns) into its row's attribution metrics (seconds).
  void fill(const CriticalPath& path, std::span<double> row) const;
  /// Counts the ranks that finished last in `histogram` (the layout's "last_rank").
  static void count_last(const CriticalPath& path, Histogram& histogram);

  /// The summary fields: per category the path's mean time with its interval, the noiseless
  /// path's and the excess over it; the noise charged and the share absorbed with its interval;
  /// the ranks that most often finish last and their shares; the path's noise by step.
  void summarize(Record& record, const Tally& tally, const CriticalPath& noiseless, double level,
                 std::vector<std::string>& warnings) const;
  /// The schema of the fields summarize writes (core/field_spec.hpp), each written `when`, the
  /// network category's `network_when`.
  static std::vector<FieldSpec> field_specs(const std::string& when,
                                            const std::string& network_when);

 private:
  std::uint32_t ranks_;
  PathSteps steps_;
  std::size_t categories_;
  std::size_t buckets_;
  std::uint64_t per_bucket_;
};

}  // namespace collnoise
