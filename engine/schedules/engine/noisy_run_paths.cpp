// Runs observed by a path composition recorder: samples with their critical paths
// (engine/schedules/engine/noisy_run.hpp says why apart).
#include "engine/schedules/engine/noisy_run_impl.hpp"
#include "engine/schedules/paths/path_composition.hpp"

namespace collnoise {

template ScheduleRun run_noisy<Schedule, PathCompositionRecorder>(
    const Schedule&, const ScheduleNet&, const ScheduleNoiseSpec&, NoiseKeys, ScheduleEngineMemory&,
    PathCompositionRecorder&, std::span<const double>);
template ScheduleRun run_noisy<GeneratedSchedule, PathCompositionRecorder>(
    const GeneratedSchedule&, const ScheduleNet&, const ScheduleNoiseSpec&, NoiseKeys,
    ScheduleEngineMemory&, PathCompositionRecorder&, std::span<const double>);

}  // namespace collnoise
