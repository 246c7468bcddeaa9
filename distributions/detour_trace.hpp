#pragma once
// Measured detour traces (docs/models/time-noise.md) in the Netgauge format that LogGOPSim reads:
// one detour per line, `start<TAB>duration` (any blank space separates), '#' starts a comment.
// Times are in the trace's unit (nanoseconds for Netgauge); the run file states it.
#include <optional>
#include <string>

#include "distributions/detour_pattern.hpp"

namespace collnoise {

/// Seconds per unit of a trace: "ns", "us", "ms" or "s"; InputError otherwise.
double trace_unit_seconds(const std::string& unit);

/// Reads a trace into a pattern that repeats at `span_seconds` (detours past it wrap to the
/// start), or by default at the end of the trace's last detour. InputError with file and line for
/// an unreadable file, a malformed line, a negative start or duration, or a trace without detours.
DetourPattern read_detour_trace(const std::string& path, double seconds_per_unit,
                                std::optional<double> span_seconds = std::nullopt);

}  // namespace collnoise
