#include "distributions/measured_times.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/shown_text.hpp"
#include "core/stop_poll.hpp"
#include "core/text_fields.hpp"
#include "core/units.hpp"

namespace collnoise {
namespace {

constexpr std::string_view kTableHeader = "#MessageSize";

// A line's text before any '#' comment.
std::string_view before_comment(std::string_view line) {
  return line.substr(0, line.find('#'));
}

// The largest time a measured file may hold, as every data file's times (docs/run-files.md).
constexpr double kLargestSeconds = 1.0e6;

// One time in `unit`, as seconds: the decimal written in seconds rounded once (core/units.hpp),
// as a run file's "2.5us" is and as decimal_in_seconds() converts it (the same bits). InputError
// naming the place for anything but a finite time in [0, 10^6] seconds, checked after the
// conversion.
double time_in_seconds(std::string_view text, const std::string& unit, const std::string& where) {
  const auto value = parse_number(text);
  if (!value || !std::isfinite(*value))
    throw InputError(
        fmt::format("{}: {} is not a time (a number >= 0 in {})", where, quoted_text(text), unit));
  double seconds = 0.0;
  try {
    seconds = seconds_from_text(where, fmt::format("{}{}", text, unit), Dimension::kTime);
  } catch (const InputError&) {
    throw InputError(
        fmt::format("{}: {} is not a time (a decimal number >= 0 in {}, as 12.5 or "
                    "1.25e1)",
                    where, quoted_text(text), unit));
  }
  if (!(seconds >= 0.0 && seconds <= kLargestSeconds))
    throw InputError(
        fmt::format("{}: {} {} ({:.10g} seconds) is out of range: it must lie in [0, {:g}] seconds",
                    where, quoted_text(text), unit, seconds, kLargestSeconds));
  return seconds + 0.0;  // -0 is 0
}

// The header "#MessageSize Rank0Time(us) Rank1Time(us) ...": the ranks and their unit.
std::pair<std::size_t, std::string> read_header(std::string_view line, const std::string& where) {
  const auto fields = fields_of(line);
  std::string unit;
  for (std::size_t r = 1; r < fields.size(); ++r) {
    const std::string prefix = fmt::format("Rank{}Time(", r - 1);
    const std::string_view f = fields[r];
    if (!f.starts_with(prefix) || !f.ends_with(")"))
      throw InputError(fmt::format("{}: header column {} is {}, expected '{}<unit>)'", where, r + 1,
                                   quoted_text(f), prefix));
    const std::string u(f.substr(prefix.size(), f.size() - prefix.size() - 1));
    seconds_per_unit(u, fmt::format("{}: the unit of column {}", where, r + 1));
    if (!unit.empty() && u != unit)
      throw InputError(fmt::format("{}: column {} is in {}, column 2 in {}: one unit for all",
                                   where, r + 1, u, unit));
    unit = u;
  }
  if (fields.size() < 2 || fields[0] != kTableHeader)
    throw InputError(fmt::format("{}: a per-rank table's header is '{} Rank0Time(us) ...'", where,
                                 kTableHeader));
  return {fields.size() - 1, unit};
}

// The unit the times are read in: the header's, which --unit may repeat but not contradict.
std::string table_unit(const std::string& header_unit, const std::string& given,
                       const std::string& path) {
  if (!given.empty() && given != header_unit)
    throw InputError(fmt::format("--unit {}: '{}' gives its times in {} (its header)", given, path,
                                 header_unit));
  return header_unit;
}

struct Row {
  std::uint64_t bytes;
  std::vector<double> seconds;
};

MeasuredTimes read_table(TextLines& lines, std::size_t& line_number, std::string_view header,
                         const std::string& path, const MeasuredOptions& options) {
  MeasuredTimes out;
  out.per_rank = true;
  const auto [ranks, header_unit] =
      read_header(header, fmt::format("'{}', line {}", path, line_number));
  out.ranks = ranks;
  out.unit = table_unit(header_unit, options.unit, path);
  std::set<std::uint64_t> sizes;
  std::string line;
  StopPoll poll;  // measured files can be large
  while (lines.next(line)) {
    ++line_number;
    poll.tick();
    const auto fields = fields_of(before_comment(line));
    if (fields.empty()) continue;
    const std::string where = fmt::format("'{}', line {}", path, line_number);
    if (fields.size() != ranks + 1)
      throw InputError(fmt::format("{}: {} values, expected the message size and {} rank times",
                                   where, fields.size(), ranks));
    const auto bytes = parse_whole(fields[0], std::uint64_t{1} << 62);
    if (!bytes)
      throw InputError(
          fmt::format("{}: {} is not a message size in bytes", where, quoted_text(fields[0])));
    sizes.insert(*bytes);
    if (options.size && *bytes != *options.size) continue;
    for (std::size_t r = 1; r <= ranks; ++r)
      out.seconds.push_back(time_in_seconds(fields[r], out.unit, where));
  }
  const auto listed = [&] { return fmt::format("{}", fmt::join(sizes, ", ")); };
  if (sizes.empty()) throw InputError(fmt::format("'{}' holds no rows of times", path));
  if (options.size && out.seconds.empty())
    throw InputError(
        fmt::format("--size {}: '{}' holds rows of {} bytes only", *options.size, path, listed()));
  if (!options.size && sizes.size() > 1)
    throw InputError(
        fmt::format("'{}' holds rows of {} bytes: choose one with --size", path, listed()));
  out.message_bytes = options.size ? *options.size : *sizes.begin();
  return out;
}

MeasuredTimes read_list(TextLines& lines, std::size_t& line_number, std::string_view first,
                        const std::string& path, const MeasuredOptions& options) {
  if (options.unit.empty())
    throw InputError(fmt::format("'{}' is a list of times: give their unit with --unit ({})", path,
                                 measured_time_units()));
  if (options.size)
    throw InputError(
        fmt::format("--size {}: '{}' is a list of times, not a per-rank table with message sizes",
                    *options.size, path));
  MeasuredTimes out;
  out.unit = options.unit;
  const auto read_line = [&](std::string_view line) {
    const auto fields = fields_of(before_comment(line));
    if (fields.empty()) return;
    const std::string where = fmt::format("'{}', line {}", path, line_number);
    if (fields.size() != 1)
      throw InputError(
          fmt::format("{}: {} values, expected one time a line", where, fields.size()));
    out.seconds.push_back(time_in_seconds(fields[0], out.unit, where));
  };
  read_line(first);
  StopPoll poll;  // measured files can be large
  for (std::string line; lines.next(line);) {
    ++line_number;
    poll.tick();
    read_line(line);
  }
  if (out.seconds.empty()) throw InputError(fmt::format("'{}' holds no times", path));
  return out;
}

}  // namespace

std::string measured_time_units() {
  return accepted_units(Dimension::kTime);
}

double seconds_per_unit(const std::string& unit, const std::string& what) {
  // The table's unit, and its "1" in seconds (the double nearest 10^power): checks and messages
  // use it; times convert through their own text, not by a product with it.
  return *decimal_in_seconds("1", time_unit(unit, what));
}

std::vector<double> MeasuredTimes::iteration_maxima() const {
  std::vector<double> maxima;
  maxima.reserve(iterations());
  for (std::size_t i = 0; i < iterations(); ++i)
    maxima.push_back(
        *std::max_element(seconds.begin() + static_cast<std::ptrdiff_t>(i * ranks),
                          seconds.begin() + static_cast<std::ptrdiff_t>((i + 1) * ranks)));
  return maxima;
}

MeasuredTimes read_measured_times(const std::string& path, const MeasuredOptions& options) {
  if (!options.unit.empty()) seconds_per_unit(options.unit, "--unit");
  TextLines lines(path, fmt::format("measured file '{}'", path));
  std::size_t line_number = 0;
  std::string line;
  StopPoll poll;  // a file of comments only is read to its end
  // The first line that holds anything tells the format.
  while (lines.next(line)) {
    ++line_number;
    poll.tick();
    const std::string_view text = line;
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (text.substr(text.find_first_not_of(" \t\r")).starts_with(kTableHeader))
      return read_table(lines, line_number, text, path, options);
    if (fields_of(before_comment(text)).empty()) continue;  // a comment before a list
    return read_list(lines, line_number, line, path, options);
  }
  throw InputError(fmt::format("'{}' holds no times", path));
}

}  // namespace collnoise
