// Runs observed by a path composition recorder: samples with their critical paths
// (engine/schedules/noisy_run.hpp says why apart).
#include "engine/schedules/noisy_run_impl.hpp"
#include "engine/schedules/path_composition.hpp"

namespace collnoise {

template ScheduleRun run_noisy<Schedule, PathCompositionRecorder>(
    const Schedule&, const ScheduleNet&, const ScheduleNoiseSpec&, std::uint64_t,
    ScheduleEngineMemory&, PathCompositionRecorder&);
template ScheduleRun run_noisy<GeneratedSchedule, PathCompositionRecorder>(
    const GeneratedSchedule&, const ScheduleNet&, const ScheduleNoiseSpec&, std::uint64_t,
    ScheduleEngineMemory&, PathCompositionRecorder&);

}  // namespace collnoise
