#pragma once
// Sensitivities of a schedule point's completion to its LogGOPS parameters by finite differences
// (docs/models/schedules.md, "Sensitivities"): the [sensitivity] keys, declared once here and
// registered with the schedule model's (schedule_model_kind.cpp), what a point read from them,
// and the parameters scaled.
//
// Each sample is simulated again at X (1 + h) and X (1 - h) for each named parameter X, on the
// sample's own streams (common random numbers): its derivative (T+ - T-) / (2 h X) holds while
// the critical path is the same at both steps, and is then the number of X's on it (messages
// for L, o and g; bytes for G and O). Whether the path changed within the step is told by the
// two one-sided differences, which then disagree. From the path (sensitivity.method = "path"),
// the derivative is the time of X along the sample's critical path divided by X: the same
// number while the path holds, from the attributed run alone.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "engine/loggops/loggops.hpp"
#include "engine/loggops/loggp_parameter.hpp"

namespace collnoise {

/// How sensitivities are taken: by finite differences (each sample simulated again at both
/// steps), from the sample's critical path (each parameter's time on it, summed by the recorder
/// of the attributed run: no run more), or both (the differences check the path's).
enum class SensitivityMethod : std::uint8_t { kDifferences, kPath, kBoth };

/// What a point read from the [sensitivity] keys: the parameters (none: no sensitivities), the
/// method, and the relative step h of the differences, 0 < h <= 0.5.
struct SensitivitySpec {
  std::vector<LogGPParameter> parameters;
  SensitivityMethod method = SensitivityMethod::kDifferences;
  double step = 0.01;
  bool any() const { return !parameters.empty(); }
  bool differences() const { return any() && method != SensitivityMethod::kPath; }
  bool from_path() const { return any() && method != SensitivityMethod::kDifferences; }
};

/// The [sensitivity] keys (not part of a point's stream identity: its samples are the same with
/// them or without).
std::vector<KeySpec> sensitivity_keys();

/// Reads them; `net` (ns) is the point's: a named parameter whose value there is 0 is refused (a
/// relative step cannot move it), as a name that is not a parameter or is named twice.
/// InputError naming the key.
SensitivitySpec read_sensitivity(ParamReader& reader, const ScheduleNet& net);

/// `net` with parameter `p` multiplied by `factor` wherever it is set: the point's value, every
/// message size's row of a LogGP file and the far pairs' class.
ScheduleNet scaled(const ScheduleNet& net, LogGPParameter p, double factor);

/// The point's value of `p`, ns (per byte for G and O): the one a derivative is taken to.
double parameter_of(const ScheduleNet& net, LogGPParameter p);

}  // namespace collnoise
