#pragma once
// LogGOPSim's reading of a detour trace (docs/models/time-noise.md, "LogGOPSim's reading of
// appended measurements"). LogGOPSim reads a trace file as one list of (start, duration) entries
// in file order and finds the entry before a time by a binary search followed by a walk. A file
// of several appended measurements, each starting again at 0, is not sorted, so the search
// settles in one measurement or another depending on the time looked up: for a file of two
// measurements only the second is ever reached; of three, the first below a time the search
// decides and the third above it. This file finds, for every time of the trace's period, the
// entry LogGOPSim's search reaches, and returns the detours LogGOPSim therefore replays, as one
// pattern collnoise replays with the same lookups.
#include <string>
#include <vector>

#include "distributions/detour_pattern.hpp"

namespace collnoise {

/// One trace line as LogGOPSim keeps it: start and duration in seconds, in file order (empty
/// detours included: they take part in the search).
struct TraceEntry {
  double start = 0.0;
  double duration = 0.0;
};

/// The detours LogGOPSim's search reaches in `entries` (file order), repeating at its period,
/// the start of the file's last entry. Between two consecutive distinct entry starts the search
/// reaches one entry; where it reaches a detour of another measurement than just before, that
/// detour's rest is a detour from there on. Differences from LogGOPSim that remain: a window
/// (an overhead or a calc) that straddles such a switch sees the new measurement's detour where
/// LogGOPSim would walk on in the old one, and the file's first entry counts for a window that
/// starts before it (a few switches and one entry in traces of 10^5 detours). InputError naming
/// `what` for fewer than two entries or a last entry at time 0.
DetourPattern loggopsim_trace_pattern(const std::vector<TraceEntry>& entries,
                                      const std::string& what);

/// The index of the entry LogGOPSim's lookup reaches for time `x` in the trace's period
/// (x > entries[0].start), by its binary search in 32-bit unsigned arithmetic and its walk;
/// entries.size() - 1 at most. Exposed for tests.
std::size_t loggopsim_search(const std::vector<TraceEntry>& entries, double x);

}  // namespace collnoise
