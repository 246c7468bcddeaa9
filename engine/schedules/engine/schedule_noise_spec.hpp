#pragma once
// What a schedule study's [noise] table asks of its runs (docs/models/schedules.md, "Noise"):
// the CPU noise, the network's, and how they are placed, in the engine's nanoseconds.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "distributions/detour_pattern.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/poisson_detours.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"

namespace collnoise {

/// The noise a schedule's CPUs see, in the engine's nanoseconds.
struct ScheduleNoiseSpec {
  std::optional<StageNoise> stage;
  std::shared_ptr<const DetourPattern> pattern;  ///< periodic or trace noise, in ns
  /// A trace's measurements, one per rank in turn (noise.measurements = "per_rank"), in ns.
  std::vector<std::shared_ptr<const DetourPattern>> per_rank;
  std::shared_ptr<const PoissonDetours> poisson;  ///< Poisson detours, in ns
  std::optional<MessageDelays> delays;            ///< network noise: each message's extra latency
  TimeSemantics semantics = TimeSemantics::kPreempt;
  std::uint32_t ranks_per_offset = 1;  ///< ranks sharing one detour offset (co-scheduling)
  double tail_index = std::numeric_limits<double>::infinity();
};

}  // namespace collnoise
