#pragma once
// Writing schedules as GOAL text (docs/models/schedules.md), as LogGOPSim's txt2bin reads it:
// every rank's operations labelled l<k>, then its dependencies, each operation's dependents in
// the order they were declared, so that LogGOPSim simulates the schedule exactly as collnoise
// does. A schedule generated on the fly is written rank by rank, never stored.
#include <ostream>

#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

/// Writes `schedule` to `out`. The caller checks the stream. StopRequested when a stop is
/// requested meanwhile (polled by elapsed time, core/stop_poll.hpp): the text is then partial.
void write_goal(const Schedule& schedule, std::ostream& out);
void write_goal(const GeneratedSchedule& schedule, std::ostream& out);

}  // namespace collnoise
