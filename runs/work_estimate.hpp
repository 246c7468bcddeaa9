#pragma once
// What a run will cost before it starts: core-seconds and bytes per point, from each model's
// cost model (right within a factor of 3, bench/HISTORY.md "Cost model"), so that astronomical
// work (per-rank sampling at N = 2^60, 10^12 replications) or memory (10^12 histogram bins) is
// refused at once with the point and the estimate named, instead of running for ever or ending
// in an allocation failure. Progress shows the same estimate.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/study.hpp"
#include "runs/run_file.hpp"

namespace collnoise {

struct PointEstimate {
  double core_seconds = 0.0;  ///< of the point's samples in this part (or its analysis)
  double bytes = 0.0;         ///< its tally and working memory at the peak
};

struct RunEstimate {
  std::vector<PointEstimate> points;
  double core_seconds = 0.0;  ///< every point
  double peak_bytes = 0.0;    ///< rank 0's peak: every tally, the largest working set, the image
};

/// `samples_share`: the fraction of each point's samples this process group runs (1 for a whole
/// run, about 1/n for a part of n).
RunEstimate estimate_run(const RunSpec& run, const std::vector<PreparedPoint>& points, int threads,
                         double samples_share);

/// The limits a run is held to.
struct WorkLimits {
  double max_core_seconds = 0.0;
  double max_bytes = 0.0;
};

/// The run file's [limits] and the command line's (which take precedence); defaults: 30 days of
/// the cores in use, and 80% of the memory this process may use.
WorkLimits work_limits(const RunSpec& run, double cli_core_hours, double cli_memory_gib,
                       int cores_in_use);

/// InputError naming the most expensive point and the estimate when a limit is exceeded, and how
/// to raise the limit.
void check_work_limits(const RunSpec& run, const std::vector<PreparedPoint>& points,
                       const RunEstimate& estimate, const WorkLimits& limits);

/// "3.2 core-hours", "45 core-seconds", "12 core-days".
std::string describe_core_seconds(double seconds);
/// "45 s", "3.2 min", "2.1 h", "4.5 days".
std::string describe_duration(double seconds);
/// "512 MiB", "3.1 GiB".
std::string describe_bytes(double bytes);

}  // namespace collnoise
