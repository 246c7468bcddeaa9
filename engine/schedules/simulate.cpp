#include "engine/schedules/simulate.hpp"

namespace collnoise {

// The noiseless runs take the NoObserver instances (engine/noisy_run_plain.cpp, through run_noisy)
// with an empty noise spec: a quiet CPU and no network noise, the engine calls a quiet run always
// made.
ScheduleRun run_schedule(const Schedule& schedule, const ScheduleNet& net) {
  ScheduleEngineMemory memory;
  NoObserver none;
  return run_schedule(schedule, net, ScheduleNoiseSpec{}, 0, memory, none);
}

ScheduleRun run_schedule(const GeneratedSchedule& schedule, const ScheduleNet& net) {
  ScheduleEngineMemory memory;
  NoObserver none;
  return run_schedule(schedule, net, ScheduleNoiseSpec{}, 0, memory, none);
}

ScheduleRun run_schedule(const AnySchedule& schedule, const ScheduleNet& net) {
  return std::visit([&](const auto& x) { return run_schedule(x, net); }, schedule);
}

}  // namespace collnoise
