#pragma once
// Time-based noise of a point (docs/models/time-noise.md): periodic(P, D), Poisson detours, or a
// measured trace. The laws here say where detours lie; engine/cpu_noise.hpp turns them into each
// rank's advance() for one replication, with the rank's random offset or stream.
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "distributions/detour_pattern.hpp"
#include "distributions/poisson_detours.hpp"

namespace collnoise {

/// Detours from a repeating pattern; each rank's pattern starts at a uniform random offset in
/// [0, span), drawn once per replication: periodic(P, D) (detours at phi + kP) and traces (each
/// rank reading the trace from its own random position, wrapping at the end).
struct PatternNoise {
  std::shared_ptr<const DetourPattern> pattern;
  std::string description;  ///< "periodic(P=0.01 s, D=0.0001 s)", "trace(file.txt, 1200 detours)"
  std::string period_key;   ///< the key that sets the period, for messages ("noise.P")
};

using TimeNoiseLaw = std::variant<PatternNoise, std::shared_ptr<const PoissonDetours>>;

/// periodic(P, D): detours [phi + kP, phi + kP + D) for every integer k. InputError naming the
/// key unless P > 0 and 0 < D < P (seconds).
PatternNoise periodic_noise(double period, double duration);

/// The tail index of the delays the noise causes: infinity for repeating patterns (bounded
/// detours), the durations' for Poisson detours (a Pareto duration law makes times heavy-tailed).
double tail_index(const TimeNoiseLaw& law);

/// Long-run fraction of CPU time lost to detours (D/P for periodic noise).
double busy_fraction(const TimeNoiseLaw& law);
std::string describe(const TimeNoiseLaw& law);

}  // namespace collnoise
