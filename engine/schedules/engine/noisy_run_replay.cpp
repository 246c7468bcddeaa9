// Runs observed by a critical path recorder and a timeline: one sample replayed
// (engine/schedules/engine/noisy_run.hpp says why apart).
#include "engine/schedules/engine/noisy_run_impl.hpp"
#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/paths/timeline_recorder.hpp"

namespace collnoise {

using Replayed = BothObservers<CriticalPathRecorder, TimelineRecorder>;

template ScheduleRun run_noisy<Schedule, Replayed>(const Schedule&, const ScheduleNet&,
                                                   const ScheduleNoiseSpec&, NoiseKeys,
                                                   ScheduleEngineMemory&, Replayed&,
                                                   std::span<const double>);
template ScheduleRun run_noisy<GeneratedSchedule, Replayed>(const GeneratedSchedule&,
                                                            const ScheduleNet&,
                                                            const ScheduleNoiseSpec&, NoiseKeys,
                                                            ScheduleEngineMemory&, Replayed&,
                                                            std::span<const double>);

}  // namespace collnoise
