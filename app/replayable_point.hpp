#pragma once
// A schedule point of a result prepared again from the run file the result recorded, to replay
// its samples (`collnoise timeline`, `collnoise compare --mode ranks`): a sample's value depends
// on the point's streams and the sample's index only, so the replay is the run's sample, unless
// a data file the point read has changed since (then refused).
#include <cstddef>
#include <string>
#include <vector>

#include "engine/schedules/schedule_study.hpp"
#include "outputs/result_file.hpp"
#include "runs/run_file.hpp"

namespace collnoise {

struct ReplayablePoint {
  RunSpec run;
  std::vector<PreparedPoint> points;
  const ScheduleStudy* study = nullptr;  ///< the chosen point's, owned by `points`
};

/// Point `point` of `result` (read from `path`), prepared again. InputError when the result
/// records no run file, the point is not a schedule point (`purpose` says what needs one:
/// "timelines replay schedule points"), or the data it read differs from what it read then.
ReplayablePoint replayable_point(const ResultFile& result, const std::string& path,
                                 std::size_t point, const std::string& purpose);

}  // namespace collnoise
