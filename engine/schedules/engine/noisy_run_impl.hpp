#pragma once
// The body of run_noisy (engine/schedules/engine/noisy_run.hpp), included by the files that
// instantiate it for an observer.
#include <vector>

#include "engine/schedules/engine/noisy_run.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"

namespace collnoise {
namespace noisy_run_detail {

// The CPU noise `cpu`, with the network noise of `noise` when it has some.
template <class Sched, class Cpu, class Observer>
ScheduleRun run_with(const Sched& s, const ScheduleNet& net, const ScheduleNoiseSpec& noise,
                     std::uint64_t key, Cpu& cpu, ScheduleEngineMemory& memory,
                     Observer& observer) {
  if (noise.delays) {
    WithMessageDelays<Cpu> both(cpu, *noise.delays, key);
    return simulate_schedule(s, net, both, memory, observer);
  }
  return simulate_schedule(s, net, cpu, memory, observer);
}

}  // namespace noisy_run_detail

template <class Sched, class Observer>
ScheduleRun run_noisy(const Sched& s, const ScheduleNet& net, const ScheduleNoiseSpec& noise,
                      std::uint64_t key, ScheduleEngineMemory& memory, Observer& observer) {
  using noisy_run_detail::run_with;
  if (noise.stage) {
    StageScheduleNoise n(*noise.stage, key);
    return run_with(s, net, noise, key, n, memory, observer);
  }
  if (noise.pattern) {
    std::vector<const DetourPattern*> patterns{noise.pattern.get()};
    if (!noise.per_rank.empty()) {
      patterns.clear();
      for (const auto& p : noise.per_rank) patterns.push_back(p.get());
    }
    PatternScheduleNoise n(std::move(patterns), noise.semantics, key, s.ranks(),
                           noise.ranks_per_offset);
    return run_with(s, net, noise, key, n, memory, observer);
  }
  if (noise.poisson) {
    PoissonScheduleNoise n(*noise.poisson, key, s.ranks(), noise.ranks_per_offset);
    return run_with(s, net, noise, key, n, memory, observer);
  }
  QuietSchedule quiet;
  return run_with(s, net, noise, key, quiet, memory, observer);
}

}  // namespace collnoise
