#pragma once
// The [noise] table of a point: a per-stage law (MODELS.md §1a: exponential, pareto, bernoulli,
// lognormal, weibull, gamma, uniform, none, empirical, mixture) or time-based noise (§1b:
// periodic, poisson, trace). Reads exactly the keys the named law takes.
#include <optional>
#include <string>
#include <vector>

#include "core/param_reader.hpp"
#include "distributions/registry.hpp"
#include "distributions/time_noise.hpp"

namespace collnoise {

struct NoiseSetup {
  std::string law;                   ///< as in the run file
  std::optional<LawSpec> stage;      ///< per-stage law (build with make_stage_noise)
  std::optional<TimeNoiseLaw> time;  ///< time-based law
};

/// Names of the time-based laws.
const std::vector<std::string>& time_law_names();

/// Reads noise.* for one point. InputError naming the key at fault.
NoiseSetup read_noise(ParamReader& reader, const std::vector<ParamMap>& components);

/// Refuses (InputError naming noise.P or noise.span) a repeating detour pattern too short for
/// the point's simulated times: about (noiseless + operations x the longest detour) / (1 -
/// busy fraction), with a margin of 16 for waiting on other ranks. `noiseless` in seconds,
/// `operations` the CPU operations of one rank.
void check_time_noise_horizon(const TimeNoiseLaw& law, double noiseless, double operations);

}  // namespace collnoise
