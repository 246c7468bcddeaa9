#pragma once
// Simulating a schedule: the one entry point (docs/models/schedules.md, "Where it lives").
//
// engine/schedules/ is split into rooms, one per concept; a run passes through them in order:
//   schedule/    what is simulated: the compact stored Schedule and its builder, the
//                GeneratedSchedule made on the fly, AnySchedule (either), rank classes
//   goal/        GOAL files read into a Schedule and written back out
//   algorithms/  the built-in collectives' generators, one file each, listed in algorithms.cpp
//   engine/      the LogGOPS engine (schedule_engine.hpp, its body schedule_engine_impl.hpp with
//                its event queue, match lists and waiting rooms), its working memory, the CPU
//                noise (schedule_noise.hpp), the network's (message_delays.hpp), the noise a
//                study asks for (schedule_noise_spec.hpp) and the instances of run_schedule()
//   paths/       observers of a run: critical paths, their composition over many samples and
//                attribution to the noise, timelines
//   .            this header, and the model (schedule_study.hpp, schedule_model_kind.cpp) that
//                samples through it
// Rooms include each other's headers (all are the engine layer, scripts/check_layers.py); none
// includes runs/, outputs/ or app/.
//
// run_schedule() below is the way to run a schedule. The engine's kernel (simulate_schedule in
// engine/schedule_engine.hpp, templated on the noise object itself) is for tests and benchmarks
// that bring a noise type of their own; everything else, the study included, comes here, where
// the noise is a ScheduleNoiseSpec and the engine instance is picked for it. The instances are
// compiled in engine/noisy_run_{plain,paths,replay}.cpp (engine/noisy_run.hpp says why
// apart), one per observer: NoObserver, PathCompositionRecorder and
// BothObservers<CriticalPathRecorder, TimelineRecorder>; another observer fails to link.
#include <concepts>
#include <cstdint>
#include <span>
#include <variant>

#include "engine/schedules/engine/engine_observer.hpp"
#include "engine/schedules/engine/noisy_run.hpp"
#include "engine/schedules/engine/schedule_engine.hpp"
#include "engine/schedules/engine/schedule_noise_spec.hpp"
#include "engine/schedules/schedule/any_schedule.hpp"

namespace collnoise {

/// Simulates `schedule` (a Schedule or a GeneratedSchedule) once on `net` under `noise`, told to
/// `observer`: every rank's finishing time (ns) and the run's counts.
///  - `net`: LogGOPS parameters in ns (G and O per byte), engine/loggops/loggops.hpp;
///  - `noise`: in ns. Its `cpu` is one kind of CPU noise (none, per-stage, a pattern, a pattern
///    per rank, Poisson detours: ScheduleCpuNoise in engine/schedule_noise_spec.hpp); `delays`,
///    when given, is the network noise beside it. A default spec is the noiseless run;
///  - `key`: the replication's stream key (stream_key(study key, kReplication, index)); every
///    draw of the run comes from it, so one key gives one run, bit for bit. Noiseless runs
///    ignore it. A benchmark loop's iteration gives two (NoiseKeys, engine/noisy_run.hpp): its
///    loop's for the time-based noise, its own for the per-operation draws;
///  - `memory`: the engine's working memory, reused from run to run, one run at a time;
///  - `observer`: one of the three instantiated observers (above), told every occupation;
///  - `start`: every rank's start, ns (its CPUs and NICs free from then; the times stay
///    absolute), or empty for every rank at 0 (docs/models/schedules.md, "Entry, timing and
///    loop"). Preconditions: one finite start >= 0 per rank (else InputError).
/// Preconditions: at most 2^30 ranks (else InputError). A run that cannot finish (a receive
/// without its send) returns complete = false with the reason instead of throwing.
template <class Sched, class Observer>
requires(!std::same_as<Sched, AnySchedule>) ScheduleRun
    run_schedule(const Sched& schedule, const ScheduleNet& net, const ScheduleNoiseSpec& noise,
                 NoiseKeys key, ScheduleEngineMemory& memory, Observer& observer,
                 std::span<const double> start = {}) {
  return run_noisy(schedule, net, noise, key, memory, observer, start);
}

/// The same for either kind of schedule a study holds; no observer by default.
template <class Observer = NoObserver>
ScheduleRun run_schedule(const AnySchedule& schedule, const ScheduleNet& net,
                         const ScheduleNoiseSpec& noise, NoiseKeys key,
                         ScheduleEngineMemory& memory, Observer&& observer = {},
                         std::span<const double> start = {}) {
  return std::visit(
      [&](const auto& x) { return run_schedule(x, net, noise, key, memory, observer, start); },
      schedule);
}

/// The noiseless run, unobserved, on memory of its own (released at the end).
ScheduleRun run_schedule(const Schedule& schedule, const ScheduleNet& net);
ScheduleRun run_schedule(const GeneratedSchedule& schedule, const ScheduleNet& net);
ScheduleRun run_schedule(const AnySchedule& schedule, const ScheduleNet& net);

}  // namespace collnoise
