#pragma once
// What a schedule study's [noise] table asks of its runs (docs/models/schedules.md, "Noise"):
// the CPU noise, the network's, and how they are placed, in the engine's nanoseconds.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "distributions/detour_pattern.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/poisson_detours.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"

namespace collnoise {

/// No CPU noise: every calc and overhead takes exactly its length.
struct NoCpuNoise {};

/// Periodic or trace noise: one detour pattern (ns) for every rank, each rank at its own random
/// offset (or one offset for `ranks_per_offset` ranks: co-scheduling).
struct PatternCpuNoise {
  std::shared_ptr<const DetourPattern> pattern;  ///< not null
  TimeSemantics semantics = TimeSemantics::kPreempt;
  std::uint32_t ranks_per_offset = 1;  ///< >= 1
};

/// A trace's measurements, one per rank in turn (noise.measurements = "per_rank"): rank r
/// replays patterns[r mod their number], in ns; placed as PatternCpuNoise.
struct PerRankCpuNoise {
  std::vector<std::shared_ptr<const DetourPattern>> patterns;  ///< not empty, none null
  TimeSemantics semantics = TimeSemantics::kPreempt;
  std::uint32_t ranks_per_offset = 1;  ///< >= 1
};

/// Poisson detours in ns (exact preemption only, so no semantics to choose).
struct PoissonCpuNoise {
  std::shared_ptr<const PoissonDetours> detours;  ///< not null
  std::uint32_t ranks_per_offset = 1;             ///< >= 1
};

/// The noise a schedule's CPUs see: none, per-stage (StageNoise scaled for 1 second of work, with
/// scale > 0), a pattern, one pattern per rank, or Poisson detours.
using ScheduleCpuNoise =
    std::variant<NoCpuNoise, StageNoise, PatternCpuNoise, PerRankCpuNoise, PoissonCpuNoise>;

/// The noise of a schedule's runs, in the engine's nanoseconds: its CPUs' and its network's.
struct ScheduleNoiseSpec {
  ScheduleCpuNoise cpu;                 ///< NoCpuNoise unless set
  std::optional<MessageDelays> delays;  ///< network noise: each message's extra latency
  /// The tail index of the delays the noise causes (the least of the CPU's and the network's).
  double tail_index = std::numeric_limits<double>::infinity();

  /// Whether any noise is given (else the runs are the noiseless run).
  bool noisy() const { return !std::holds_alternative<NoCpuNoise>(cpu) || delays.has_value(); }
  /// Whether some draws come from a fitted tail beyond the data (docs/models/tails.md): Poisson
  /// detours whose durations have one, or message delays with one.
  bool has_fitted_tails() const {
    const auto* poisson = std::get_if<PoissonCpuNoise>(&cpu);
    return (poisson && poisson->detours->duration_law()->fitted_tail_share() > 0.0) ||
           (delays && delays->has_fitted_tails());
  }
};

}  // namespace collnoise
