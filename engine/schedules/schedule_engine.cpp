#include "engine/schedules/schedule_engine.hpp"

#include "engine/schedules/generated_schedule.hpp"
#include "engine/schedules/schedule_engine_impl.hpp"

namespace collnoise {

ScheduleEngineMemory::ScheduleEngineMemory()
    : buffers_(std::make_unique<schedule_detail::EngineBuffers>()) {}
ScheduleEngineMemory::~ScheduleEngineMemory() = default;
ScheduleEngineMemory::ScheduleEngineMemory(ScheduleEngineMemory&&) noexcept = default;
ScheduleEngineMemory& ScheduleEngineMemory::operator=(ScheduleEngineMemory&&) noexcept = default;

template ScheduleRun simulate_schedule<Schedule, QuietSchedule>(const Schedule&, const ScheduleNet&,
                                                                QuietSchedule&);

template ScheduleRun simulate_schedule<GeneratedSchedule, QuietSchedule>(const GeneratedSchedule&,
                                                                         const ScheduleNet&,
                                                                         QuietSchedule&);

ScheduleRun simulate_schedule(const Schedule& schedule, const ScheduleNet& net) {
  QuietSchedule quiet;
  return simulate_schedule(schedule, net, quiet);
}

ScheduleRun simulate_schedule(const GeneratedSchedule& schedule, const ScheduleNet& net) {
  QuietSchedule quiet;
  return simulate_schedule(schedule, net, quiet);
}

}  // namespace collnoise
