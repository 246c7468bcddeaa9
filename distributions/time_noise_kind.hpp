#pragma once
// Time-based noise as run files name it (docs/models/time-noise.md): periodic detours, Poisson
// detours, a measured trace. Each kind reads its own keys and builds the detours the engines
// replay (distributions/time_noise.hpp); distributions/time_noises.cpp lists them, one line each.
#include <functional>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "distributions/time_noise.hpp"

namespace collnoise {

struct TimeNoiseKind {
  std::string name;     ///< as in run files: law = "periodic"
  std::string meaning;  ///< one line
  std::vector<KeySpec> keys;
  /// Reads the keys under `prefix` ("noise") and builds the detours. InputError naming the key.
  std::function<TimeNoiseLaw(ParamReader&, const std::string& prefix)> make;
};

/// Every kind of time-based noise (distributions/time_noises.cpp).
const std::vector<TimeNoiseKind>& time_noise_kinds();
const TimeNoiseKind* find_time_noise_kind(const std::string& name);

/// The kinds of periodic, trace and Poisson noise (defined beside their detours).
TimeNoiseKind periodic_noise_kind();
TimeNoiseKind trace_noise_kind();
TimeNoiseKind poisson_noise_kind();

/// Whether `<prefix>.law` names time-based noise (true) or a per-stage law (false), without
/// reading it. InputError listing every known law when it names neither (or is missing).
bool names_time_noise(const ParamReader& reader, const std::string& prefix);

/// Reads the time-based noise named by `<prefix>.law`.
TimeNoiseLaw read_time_noise(ParamReader& reader, const std::string& prefix);

/// Refuses (InputError naming noise.P or noise.span) a repeating detour pattern too short for
/// the point's simulated times: about (noiseless + operations x the longest detour) / (1 -
/// busy fraction), with a margin of 16 for waiting on other ranks. `noiseless` in seconds,
/// `operations` the CPU operations of one rank.
void check_time_noise_horizon(const TimeNoiseLaw& law, double noiseless, double operations);

}  // namespace collnoise
