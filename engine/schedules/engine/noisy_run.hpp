#pragma once
// One run of a schedule under a study's noise (engine/schedules/engine/schedule_noise_spec.hpp):
// the engine picked for the kind of schedule, its CPU noise and, when it has some, the network's.
// Internal to engine/schedules: callers go through run_schedule (engine/schedules/simulate.hpp).
//
// The engine is compiled once per kind of schedule, noise, observer and counter width, over a
// hundred instances of its loop. They are compiled in three files, one per observer
// (noisy_run_plain.cpp, noisy_run_paths.cpp, noisy_run_replay.cpp), not in the study's: one file
// held them all and took four minutes and gigabytes to compile, twenty minutes and more in the
// sanitized build; apart, a parallel build compiles them side by side. A run with an observer
// none of them instantiates fails to link.
#include <cstdint>
#include <span>

#include "engine/schedules/engine/engine_observer.hpp"
#include "engine/schedules/engine/schedule_engine.hpp"
#include "engine/schedules/engine/schedule_noise_spec.hpp"
#include "engine/schedules/schedule/any_schedule.hpp"

namespace collnoise {

/// Simulates `s` once under `noise` drawn from the replication stream `key`, on `memory`, told to
/// `observer` (NoObserver, a PathCompositionRecorder, or a critical path and a timeline together);
/// `start`: every rank's start, ns, or empty for all at 0 (simulate_schedule).
template <class Sched, class Observer>
ScheduleRun run_noisy(const Sched& s, const ScheduleNet& net, const ScheduleNoiseSpec& noise,
                      std::uint64_t key, ScheduleEngineMemory& memory, Observer& observer,
                      std::span<const double> start);

}  // namespace collnoise
