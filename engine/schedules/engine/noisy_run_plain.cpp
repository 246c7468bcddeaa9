// Runs observed by no one: the samples (engine/schedules/engine/noisy_run.hpp says why apart).
#include "engine/schedules/engine/noisy_run_impl.hpp"

namespace collnoise {

template ScheduleRun run_noisy<Schedule, NoObserver>(const Schedule&, const ScheduleNet&,
                                                     const ScheduleNoiseSpec&, NoiseKeys,
                                                     ScheduleEngineMemory&, NoObserver&,
                                                     std::span<const double>);
template ScheduleRun run_noisy<GeneratedSchedule, NoObserver>(const GeneratedSchedule&,
                                                              const ScheduleNet&,
                                                              const ScheduleNoiseSpec&, NoiseKeys,
                                                              ScheduleEngineMemory&, NoObserver&,
                                                              std::span<const double>);

}  // namespace collnoise
