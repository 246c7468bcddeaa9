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
// two one-sided differences, which then disagree.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "engine/loggops/loggops.hpp"

namespace collnoise {

/// A LogGOPS parameter a sensitivity is taken to.
enum class LogGPParameter : std::uint8_t { kL, kSmallO, kSmallG, kBigG, kBigO };
inline constexpr std::size_t kLogGPParameters = 5;
/// The parameters in the order of their fields: L, o, g, G, O.
inline constexpr std::array<LogGPParameter, kLogGPParameters> kAllLogGPParameters = {
    LogGPParameter::kL, LogGPParameter::kSmallO, LogGPParameter::kSmallG, LogGPParameter::kBigG,
    LogGPParameter::kBigO};
/// Its name as the keys give it ("L", "o", "g", "G", "O").
const char* loggp_parameter_name(LogGPParameter p);
/// Whether it is a per-byte parameter (G, O), whose sensitivity counts bytes.
constexpr bool per_byte(LogGPParameter p) {
  return p == LogGPParameter::kBigG || p == LogGPParameter::kBigO;
}
/// What one unit of a sensitivity to it counts: "messages" (L, o, g) or "bytes" (G, O).
const char* loggp_parameter_count(LogGPParameter p);

/// What a point read from the [sensitivity] keys: the parameters (none: no sensitivities) and
/// the relative step h, 0 < h <= 0.5.
struct SensitivitySpec {
  std::vector<LogGPParameter> parameters;
  double step = 0.01;
  bool any() const { return !parameters.empty(); }
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
