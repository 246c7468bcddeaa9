#pragma once
// Writing schedules as GOAL text (docs/models/schedules.md), as LogGOPSim's txt2bin reads it:
// every rank's operations labelled l<k>, then its dependencies, each operation's dependents in
// the order they were declared, so that LogGOPSim simulates the schedule exactly as collnoise
// does.
#include <ostream>

#include "engine/schedules/schedule.hpp"

namespace collnoise {

/// Writes `schedule` to `out`. The caller checks the stream.
void write_goal(const Schedule& schedule, std::ostream& out);

}  // namespace collnoise
