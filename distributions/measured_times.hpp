#pragma once
// Measured times of a collective, read for `collnoise compare` (docs/compare.md). Two formats:
//
//  - a list: one time a line, in the unit the caller gives (s, ms, us or ns, core/units.hpp's
//    table); blank lines and
//    '#' comments (whole lines, or after the time) are skipped;
//  - a per-rank table of Netgauge's collective benchmarks (the format of the cloud_noise_data
//    set's `*_collectives` folders): a header line `#MessageSize Rank0Time(us) Rank1Time(us)
//    ...`, then one row per iteration: the message size in bytes, then each rank's time in the
//    header's unit. Rows of several sizes may share a file; one is selected.
//
// Anything else is refused with one line naming the file and the line.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collnoise {

/// The time units a measured file may be in, for messages: core/units.hpp's table, the one every
/// reader uses ("s, ms, us (or µs), ns").
std::string measured_time_units();

/// Seconds per `unit` (a unit of core/units.hpp's table: "s", "ms", "us", "µs", "ns"), for checks;
/// times convert from their text, not by a product with it. InputError naming `what` otherwise.
double seconds_per_unit(const std::string& unit, const std::string& what);

struct MeasuredTimes {
  bool per_rank = false;            ///< a per-rank table; else a list
  std::uint64_t message_bytes = 0;  ///< per_rank: the size of the rows read
  std::size_t ranks = 1;            ///< per_rank: the table's rank columns; a list: 1
  std::string unit;                 ///< the unit the file's times are written in
  /// Seconds, row-major: iterations x ranks (a list: one value a row).
  std::vector<double> seconds;

  std::size_t iterations() const { return seconds.size() / ranks; }
  /// Each iteration's largest rank time (a list: its values), seconds.
  std::vector<double> iteration_maxima() const;
};

struct MeasuredOptions {
  std::string unit;                   ///< empty: a table's header gives it (a list needs one)
  std::optional<std::uint64_t> size;  ///< the table rows to read; needed when it holds several
};

/// Reads a list or a per-rank table (told apart by a first non-blank line starting with
/// "#MessageSize"). InputError naming the file and line for a malformed line, a time that is
/// not finite or outside [0, 10^6] seconds (checked in seconds, after the unit's conversion), a
/// row with the wrong number of times, the text at fault quoted as core/shown_text.hpp shows it;
/// StopRequested when a stop is requested while it reads; naming the file for a list without
/// --unit, a unit differing from the header's, a size the table lacks or several sizes without
/// one chosen, and a file without times.
MeasuredTimes read_measured_times(const std::string& path, const MeasuredOptions& options);

}  // namespace collnoise
