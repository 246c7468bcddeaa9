#include "distributions/loggopsim_trace_reading.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstdint>

#include "core/errors.hpp"
#include "core/stop_request.hpp"

namespace collnoise {

std::size_t loggopsim_search(const std::vector<TraceEntry>& entries, double x) {
  // LogGOPSim's search, operation for operation: unsigned int bounds (max = pos - 1 may wrap),
  // stopping when min >= max (an exact hit stops it too), then a walk to the entry whose start
  // is at or before x and whose successor's start is after it.
  const auto last = static_cast<std::uint32_t>(entries.size() - 1);
  std::uint32_t min = 0;
  std::uint32_t max = last;
  std::uint32_t pos = 0;
  do {
    pos = static_cast<std::uint32_t>((std::uint64_t{min} + max) / 2);
    if (pos > last) pos = last;  // a wrapped max: LogGOPSim would read beyond its list
    if (x > entries[pos].start)
      min = pos + 1;
    else
      max = pos - 1;
  } while (x != entries[pos].start && min < max);
  // The walk; at the list's ends LogGOPSim would read beyond it: it stops there instead.
  while (true) {
    if (entries[pos].start > x) {
      if (pos == 0) break;
      --pos;
      continue;
    }
    if (pos == last || entries[pos + 1].start > x) break;
    ++pos;
  }
  return pos;
}

namespace {

// The distinct entry starts below the period, sorted: the search reaches one entry between
// two consecutive ones.
std::vector<double> distinct_starts(const std::vector<TraceEntry>& entries, double period) {
  std::vector<double> starts;
  starts.reserve(entries.size());
  for (const TraceEntry& e : entries)
    if (e.start < period) starts.push_back(e.start);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  return starts;
}

}  // namespace

DetourPattern loggopsim_trace_pattern(const std::vector<TraceEntry>& entries,
                                      const std::string& what) {
  if (entries.size() < 2)
    throw InputError(fmt::format("{}: LogGOPSim's reading needs two entries at least", what));
  const double period = entries.back().start;  // LogGOPSim's trctime: the last entry's start
  if (!(period > 0.0))
    throw InputError(fmt::format(
        "{}: the last entry starts at 0, which LogGOPSim's reading takes as the period", what));
  const std::vector<double> starts = distinct_starts(entries, period);
  // Times at or before the first entry's start reach no entry (no detour in progress).
  std::vector<Detour> detours;
  std::size_t previous = entries.size();  // the entry reached on the interval before
  for (std::size_t k = 0; k < starts.size(); ++k) {
    if ((k & 0xffff) == 0) throw_if_stop_requested();
    const double from = starts[k];
    const double to = k + 1 < starts.size() ? starts[k + 1] : period;
    const double x = from + (to - from) / 2;  // any time strictly between gives the same entry
    if (!(x > entries[0].start)) continue;
    const std::size_t reached = loggopsim_search(entries, x);
    if (reached == previous) continue;  // the same entry on: its detour is already there
    previous = reached;
    const TraceEntry& e = entries[reached];
    const double end = e.start + e.duration;
    // Reached from `from` on: the detour's rest from there (all of it when it starts there).
    if (end > from && e.duration > 0.0) detours.push_back({std::max(e.start, from), end});
  }
  if (detours.empty())
    throw InputError(fmt::format("{}: LogGOPSim's reading of it reaches no detour", what));
  return DetourPattern(std::move(detours), period, what + " (as LogGOPSim reads it)");
}

}  // namespace collnoise
