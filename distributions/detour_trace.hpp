#pragma once
// Measured detour traces (docs/models/time-noise.md, docs/models/netgauge-files.md) in the
// Netgauge format that LogGOPSim reads: one detour per line, `start<TAB>duration` (any blank
// space separates), '#' starts a comment. Times are in the trace's unit (nanoseconds for
// Netgauge); the run file states it.
//
// A file may hold several measurements one after another, as it does when Netgauge's noise
// benchmark is run repeatedly and its outputs are appended: each has its own '#' header and a
// time axis that starts again. A new measurement starts at the first detour after a comment line
// that follows detours, or at a detour whose start is earlier than the previous detour's. Blank
// lines and comments after the end of a line's numbers separate nothing. Measurements are
// numbered from 0 in file order; each is its own repeating pattern.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/param_reader.hpp"
#include "distributions/detour_pattern.hpp"

namespace collnoise {

/// Seconds per unit of a trace: "ns", "us", "ms" or "s"; InputError otherwise.
double trace_unit_seconds(const std::string& unit);

/// Reads measurement number `measurement` (from 0) of a trace into a pattern that repeats at
/// `span_seconds` (detours past it wrap to the start), or by default at the end of that
/// measurement's last detour. InputError with file and line for an unreadable file, a malformed
/// line, a negative start or duration anywhere in the file; with the file and its number of
/// measurements for a `measurement` it does not hold; and for a measurement without detours.
DetourPattern read_detour_trace(const std::string& path, double seconds_per_unit,
                                std::optional<double> span_seconds = std::nullopt,
                                std::size_t measurement = 0);

/// Every measurement of a trace, in file order, each a pattern as read_detour_trace() makes it
/// (with the same `span_seconds`, if given, for all of them). Same errors, for any measurement.
std::vector<DetourPattern> read_detour_measurements(
    const std::string& path, double seconds_per_unit,
    std::optional<double> span_seconds = std::nullopt);

/// Every measurement of the trace a run file's trace law names under `prefix` (its file, unit and
/// span keys), for models that give each rank its own.
std::vector<DetourPattern> read_trace_measurements(ParamReader& reader, const std::string& prefix);

/// The number of measurements a trace holds (0 for a file without detour lines). InputError
/// with file and line for an unreadable file or a malformed line.
std::size_t count_measurements(const std::string& path);

}  // namespace collnoise
