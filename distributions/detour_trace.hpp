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
#include "core/units.hpp"
#include "distributions/detour_pattern.hpp"
#include "distributions/loggopsim_trace_reading.hpp"

namespace collnoise {

/// The unit of a trace's times (noise.unit), from the time units of core/units.hpp: "ns"
/// (Netgauge), "us" (or "µs"), "ms" or "s"; InputError naming noise.unit otherwise.
const TimeUnit& trace_unit(const std::string& unit);

/// Reads measurement number `measurement` (from 0) of a trace into a pattern that repeats at
/// `span_seconds` (detours past it wrap to the start), or by default at the end of that
/// measurement's last detour. InputError with file and line for an unreadable file, a malformed
/// line, a negative start or duration anywhere in the file; with the file and its number of
/// measurements for a `measurement` it does not hold; and for a measurement without detours.
///
/// A detour's start is its text converted as core/units.hpp's decimal_in_seconds() converts it
/// (the decimal in seconds, rounded once), the same bits as the run-file value "<start><unit>".
/// Its end, start + duration, is no text of the file: the sum in the file's unit, a double,
/// converts through value_in_seconds(), so a sum of whole nanoseconds is exact before it.
DetourPattern read_detour_trace(const std::string& path, const TimeUnit& unit,
                                std::optional<double> span_seconds = std::nullopt,
                                std::size_t measurement = 0);

/// The lengths of a pattern's busy intervals (its merged detours), seconds, in order: what a
/// Poisson process drawn from a trace takes as its durations.
std::vector<double> detour_durations(const DetourPattern& pattern);

/// Every measurement of a trace, in file order, each a pattern as read_detour_trace() makes it
/// (with the same `span_seconds`, if given, for all of them). Same errors, for any measurement.
std::vector<DetourPattern> read_detour_measurements(
    const std::string& path, const TimeUnit& unit,
    std::optional<double> span_seconds = std::nullopt);

/// Every measurement of the trace a run file's trace law names under `prefix` (its file, unit and
/// span keys), for models that give each rank its own.
std::vector<DetourPattern> read_trace_measurements(ParamReader& reader, const std::string& prefix);

/// Every line's entry of a trace in file order, in seconds, empty detours included (the list
/// LogGOPSim reads; distributions/loggopsim_trace_reading.hpp). Same errors as
/// read_detour_trace() for the file's lines.
std::vector<TraceEntry> read_trace_entries(const std::string& path, const TimeUnit& unit);

/// The number of measurements a trace holds (0 for a file without detour lines). InputError
/// with file and line for an unreadable file or a malformed line.
std::size_t count_measurements(const std::string& path);

}  // namespace collnoise
