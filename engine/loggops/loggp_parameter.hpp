#pragma once
// The LogGOPS parameters a completion's sensitivity is taken to (docs/models/schedules.md,
// "Sensitivities"): declared once, for the finite-difference keys (sensitivity_keys.hpp) and the
// critical-path recorder that sums each parameter's time along a path
// (engine/schedules/paths/path_composition.hpp).
#include <array>
#include <cstddef>
#include <cstdint>

namespace collnoise {

/// A LogGOPS parameter a sensitivity is taken to.
enum class LogGPParameter : std::uint8_t { kL, kSmallO, kSmallG, kBigG, kBigO };
inline constexpr std::size_t kLogGPParameters = 5;
/// The parameters in the order of their fields: L, o, g, G, O.
inline constexpr std::array<LogGPParameter, kLogGPParameters> kAllLogGPParameters = {
    LogGPParameter::kL, LogGPParameter::kSmallO, LogGPParameter::kSmallG, LogGPParameter::kBigG,
    LogGPParameter::kBigO};
/// Its name as the keys give it ("L", "o", "g", "G", "O").
constexpr const char* loggp_parameter_name(LogGPParameter p) {
  constexpr std::array<const char*, kLogGPParameters> kNames = {"L", "o", "g", "G", "O"};
  return kNames[static_cast<std::size_t>(p)];
}
/// Whether it is a per-byte parameter (G, O), whose sensitivity counts bytes.
constexpr bool per_byte(LogGPParameter p) {
  return p == LogGPParameter::kBigG || p == LogGPParameter::kBigO;
}
/// What one unit of a sensitivity to it counts: "messages" (L, o, g) or "bytes" (G, O).
constexpr const char* loggp_parameter_count(LogGPParameter p) {
  return per_byte(p) ? "bytes" : "messages";
}
/// Its place in arrays indexed by parameter.
constexpr std::size_t index_of(LogGPParameter p) {
  return static_cast<std::size_t>(p);
}

/// Nanoseconds of each parameter along a path, indexed by index_of: the L's, o's and g's it
/// charged, and the (s-1)G and (s-1)O of its messages' bytes.
using ParameterTimes = std::array<double, kLogGPParameters>;

}  // namespace collnoise
