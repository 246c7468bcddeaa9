#pragma once
// The body of run_noisy (engine/schedules/engine/noisy_run.hpp), included by the files that
// instantiate it for an observer.
#include <span>
#include <variant>
#include <vector>

#include "engine/schedules/engine/noisy_run.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"

namespace collnoise {
namespace noisy_run_detail {

// The engine's noise for each kind of CPU noise of a spec, for a run of `ranks` ranks drawn from
// the stream keys `key` (the time-based noise from key.time, per-stage delays from key.draws).
// Per-rank patterns use the pattern noise too: the engine's instances stay one per engine noise
// type (quiet, stage, pattern, Poisson).
inline QuietSchedule engine_noise(const NoCpuNoise&, NoiseKeys, std::uint32_t) {
  return {};
}
inline StageScheduleNoise engine_noise(const StageNoise& stage, NoiseKeys key, std::uint32_t) {
  return StageScheduleNoise(stage, key.draws);
}
inline PatternScheduleNoise engine_noise(const PatternCpuNoise& p, NoiseKeys key,
                                         std::uint32_t ranks) {
  return PatternScheduleNoise(std::vector<const DetourPattern*>{p.pattern.get()}, p.semantics,
                              key.time, ranks, p.ranks_per_offset);
}
inline PatternScheduleNoise engine_noise(const PerRankCpuNoise& p, NoiseKeys key,
                                         std::uint32_t ranks) {
  std::vector<const DetourPattern*> patterns;
  for (const auto& pattern : p.patterns) patterns.push_back(pattern.get());
  return PatternScheduleNoise(std::move(patterns), p.semantics, key.time, ranks,
                              p.ranks_per_offset);
}
inline PoissonScheduleNoise engine_noise(const PoissonCpuNoise& p, NoiseKeys key,
                                         std::uint32_t ranks) {
  return PoissonScheduleNoise(*p.detours, key.time, ranks, p.ranks_per_offset);
}

// The CPU noise `cpu`, with the network noise of `noise` when it has some.
template <class Sched, class Cpu, class Observer>
ScheduleRun run_with(const Sched& s, const ScheduleNet& net, const ScheduleNoiseSpec& noise,
                     NoiseKeys key, Cpu& cpu, ScheduleEngineMemory& memory, Observer& observer,
                     std::span<const double> start) {
  if (noise.delays) {
    WithMessageDelays<Cpu> both(cpu, *noise.delays, key.draws);
    if (!noise.delays->has_fitted_tails())
      return simulate_schedule(s, net, both, memory, observer, start);
    std::vector<std::uint8_t> marks(s.ranks(), 0);
    both.mark_fitted_tails(marks);
    ScheduleRun run = simulate_schedule(s, net, both, memory, observer, start);
    run.received_from_tail = std::move(marks);
    return run;
  }
  return simulate_schedule(s, net, cpu, memory, observer, start);
}

}  // namespace noisy_run_detail

template <class Sched, class Observer>
ScheduleRun run_noisy(const Sched& s, const ScheduleNet& net, const ScheduleNoiseSpec& noise,
                      NoiseKeys key, ScheduleEngineMemory& memory, Observer& observer,
                      std::span<const double> start) {
  return std::visit(
      [&](const auto& kind) {
        auto cpu = noisy_run_detail::engine_noise(kind, key, s.ranks());
        return noisy_run_detail::run_with(s, net, noise, key, cpu, memory, observer, start);
      },
      noise.cpu);
}

}  // namespace collnoise
