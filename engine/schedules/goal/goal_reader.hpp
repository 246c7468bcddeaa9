#pragma once
// Reading GOAL schedules (docs/models/schedules.md), the text format of LogGOPSim and Schedgen:
//
//   num_ranks 2
//   rank 0 {
//     l1: send 8b to 1 tag 5        // size in bytes, destination, optional tag, cpu, nic
//     l2: calc 100                  // nanoseconds of computation, optional cpu
//     l2 requires l1                // l2 starts once l1 has finished
//   }
//   rank 1 {
//     l1: recv 8b from 0 tag -1     // -1: any tag (or, after from, any source)
//   }
//
// with `irequires` (start once the other has started), `//` and `/* */` comments. The file is
// read in blocks and compiled rank by rank into a compact Schedule: memory follows the schedule,
// not the text (a 2^20-rank schedule is gigabytes of text). Every error names the file, line and
// column; malformed input never crashes. Beyond LogGOPSim, a dependency may name a label defined
// later in its rank block.
#include <string>

#include "engine/schedules/schedule/any_schedule.hpp"
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

/// Reads the GOAL file at `path`. InputError "path:line:column: ..." on malformed text, an
/// unknown peer, a label used but never defined, a dependency cycle, ranks missing or out of
/// order, or receives that no send can match (counted per destination rank).
Schedule read_goal_file(const std::string& path);

/// Reads GOAL text (`origin` names it in messages).
Schedule read_goal_text(const std::string& text, const std::string& origin);

/// Reads the GOAL file at `path` as a run simulates it: as rank classes where its ranks share
/// their programs up to their peers (engine/schedules/schedule/rank_classes.hpp; each rank joins
/// them as it is read, so a regular 2^20-rank file takes megabytes, not the gigabyte its stored
/// form would), else stored. The same operations either way; the same errors as read_goal_file().
AnySchedule read_goal_schedule(const std::string& path);
/// The same from text.
AnySchedule read_goal_schedule_text(const std::string& text, const std::string& origin);

}  // namespace collnoise
