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

/// The stream keys a run's noise is drawn from: `time` for the time-based noise (each rank's
/// pattern offset, its Poisson detours), `draws` for the draws made per operation (per-stage
/// delays, each message's extra latency). One replication key gives both; the iterations of a
/// benchmark loop share the loop's time key, so that its detours go on in time, and draw their
/// own per-operation delays (docs/models/streams.md).
struct NoiseKeys {
  std::uint64_t time = 0;
  std::uint64_t draws = 0;
  NoiseKeys() = default;
  // Implicit: a replication key is both (every run outside a loop).
  NoiseKeys(std::uint64_t key) : time(key), draws(key) {}  // NOLINT(google-explicit-constructor)
  NoiseKeys(std::uint64_t time_key, std::uint64_t draws_key) : time(time_key), draws(draws_key) {}
};

/// Simulates `s` once under `noise` drawn from the replication stream `key`, on `memory`, told to
/// `observer` (NoObserver, a PathCompositionRecorder, or a critical path and a timeline together);
/// `start`: every rank's start, ns, or empty for all at 0 (simulate_schedule).
template <class Sched, class Observer>
ScheduleRun run_noisy(const Sched& s, const ScheduleNet& net, const ScheduleNoiseSpec& noise,
                      NoiseKeys key, ScheduleEngineMemory& memory, Observer& observer,
                      std::span<const double> start);

}  // namespace collnoise
