#include "distributions/netgauge_loggp.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <string_view>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/text_fields.hpp"
#include "core/units.hpp"

namespace collnoise {
namespace {

constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 40;
// Netgauge writes every time in microseconds (G in microseconds per byte).
const TimeUnit& kMicroseconds = *find_time_unit("us");

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  return parse_whole(text, kMaxMessageBytes);
}

// The columns read, in this order, and where Netgauge puts them when no header says.
constexpr std::array<std::string_view, 6> kColumnNames = {"size", "L", "o_s", "o_r", "g", "G"};
constexpr std::array<std::size_t, 6> kDefaultColumns = {0, 5, 6, 7, 8, 9};
// The round-trip columns only the regime fit reads: a header without them leaves them NaN.
constexpr std::size_t kAbsent = ~std::size_t{0};
constexpr std::array<std::string_view, 3> kRoundTripNames = {"n", "PRTT(1,0,s)", "PRTT(n,0,s)"};
constexpr std::array<std::size_t, 3> kDefaultRoundTrips = {1, 2, 3};
// Their largest value: n a count of messages, the round trips the [loggops] range, 10^9 us.
constexpr std::array<double, 3> kRoundTripMax = {1.0e9, 1.0e9, 1.0e9};

bool usable(double x) {
  return std::isfinite(x) && x >= 0.0;
}

// The largest value of each column read, in the file's microseconds (per byte for G): the
// [loggops] keys' ranges, 10^3 s for L, o_s, o_r and g, 1 s per byte for G.
constexpr std::array<double, 6> kColumnMaxMicroseconds = {0.0, 1.0e9, 1.0e9, 1.0e9, 1.0e9, 1.0e6};
constexpr std::array<std::string_view, 6> kColumnKeys = {"",          "loggops.L", "loggops.o",
                                                         "loggops.o", "loggops.g", "loggops.G"};

// Netgauge writes -nan for a fit it has not made and may fit negative values: such rows are only
// skipped. An infinite value, or one beyond the [loggops] range, is no measurement: refused,
// naming the line, the column and the value as written.
void check_column_range(const std::string& path, int line_no, std::size_t c, double value_us,
                        std::string_view text) {
  if (std::isnan(value_us) || (std::isfinite(value_us) && value_us <= kColumnMaxMicroseconds[c]))
    return;
  const bool per_byte = c == 5;
  throw InputError(fmt::format(
      "{}:{}: {} = {} {} is out of range: LogGP values must lie in [0, {:g}] {} ({:g} s{}, the "
      "range of {}); Netgauge writes -nan for a value not measured",
      path, line_no, kColumnNames[c], text, per_byte ? "us per byte" : "us",
      kColumnMaxMicroseconds[c], per_byte ? "us per byte" : "us",
      kColumnMaxMicroseconds[c] * 1.0e-6, per_byte ? " per byte" : "", kColumnKeys[c]));
}

// Where the first row that cannot give `overheads` (L, o_s and o_r) or else g and G fails:
// "line 3: o_r = nan".
std::string first_unusable(const std::map<std::uint64_t, NetgaugeLogGPRow>& rows, bool overheads) {
  using Named = std::pair<std::string_view, double>;
  for (const auto& [bytes, row] : rows) {
    const std::vector<Named> values =
        overheads ? std::vector<Named>{{"L", row.L}, {"o_s", row.o_s}, {"o_r", row.o_r}}
                  : std::vector<Named>{{"g", row.g}, {"G", row.G}};
    for (const auto& [name, value] : values)
      if (!usable(value))
        return fmt::format(" (line {}: {} = {:g} us{})", row.line, name, value * 1.0e6,
                           name == "G" ? " per byte" : "");
  }
  return "";
}

// A round-trip column's value: NaN when absent or -nan; an infinite value, or one beyond its
// range, is refused like the LogGP columns'.
double round_trip_value(const std::string& path, int line_no, std::size_t c, std::size_t column,
                        const std::vector<double>& values, std::string_view text) {
  if (column == kAbsent || column >= values.size()) return std::nan("");
  const double v = values[column];
  if (std::isnan(v) || (std::isfinite(v) && v <= kRoundTripMax[c])) return v;
  throw InputError(fmt::format("{}:{}: {} = {} is out of range: it must lie in [0, {:g}]{}", path,
                               line_no, kRoundTripNames[c], text, kRoundTripMax[c],
                               c == 0 ? "" : " us"));
}

}  // namespace

NetgaugeLogGPTable NetgaugeLogGPTable::from_file(const std::string& path) {
  TextLines in(path, fmt::format("Netgauge LogGP file '{}'", path));
  std::array<std::size_t, 6> columns = kDefaultColumns;
  std::array<std::size_t, 3> round_trips = kDefaultRoundTrips;
  std::map<std::uint64_t, NetgaugeLogGPRow> by_size;
  std::string line;
  for (int line_no = 1; in.next(line); ++line_no) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) {
      // A column header: "# size n ... L o_s o_r g G ...".
      const auto names = fields_of(std::string_view(line).substr(hash + 1));
      if (!names.empty() && names.front() == "size") {
        for (std::size_t c = 0; c < kColumnNames.size(); ++c) {
          const auto at = std::find(names.begin(), names.end(), kColumnNames[c]);
          if (at == names.end())
            throw InputError(fmt::format("{}:{}: the column header has no column '{}'", path,
                                         line_no, kColumnNames[c]));
          columns[c] = static_cast<std::size_t>(at - names.begin());
        }
        for (std::size_t c = 0; c < kRoundTripNames.size(); ++c) {
          const auto at = std::find(names.begin(), names.end(), kRoundTripNames[c]);
          round_trips[c] =
              at == names.end() ? kAbsent : static_cast<std::size_t>(at - names.begin());
        }
      }
      line.erase(hash);
    }
    const auto fields = fields_of(line);
    if (fields.empty()) continue;
    const std::size_t needed = *std::max_element(columns.begin(), columns.end()) + 1;
    std::vector<double> values;
    for (const auto field : fields) {
      const auto value = parse_number(field);
      if (!value) break;
      values.push_back(*value);
    }
    const auto bytes = fields.size() > columns[0] ? parse_bytes(fields[columns[0]])
                                                  : std::optional<std::uint64_t>();
    if (values.size() != fields.size() || fields.size() < needed || !bytes) {
      const auto first = line.find_first_not_of(" \t\r");
      throw InputError(fmt::format(
          "{}:{}: '{}' is not a row of LogGP parameters (a size in bytes up to 2^40, then "
          "numbers, with L, o_s, o_r, g and G in columns {}, {}, {}, {} and {})",
          path, line_no, line.substr(first), columns[1] + 1, columns[2] + 1, columns[3] + 1,
          columns[4] + 1, columns[5] + 1));
    }
    for (std::size_t c = 1; c < columns.size(); ++c)
      check_column_range(path, line_no, c, values[columns[c]], fields[columns[c]]);
    // Microseconds (per byte for G) to seconds, each value's text by the time units' one rule;
    // Netgauge's -nan (and a hexadecimal float), which has no decimal, from its double.
    const auto at = [&](std::size_t c) {
      const auto seconds = decimal_in_seconds(fields[columns[c]], kMicroseconds);
      return seconds ? *seconds : value_in_seconds(values[columns[c]], kMicroseconds);
    };
    NetgaugeLogGPRow row{.message_bytes = *bytes,
                         .L = at(1),
                         .o_s = at(2),
                         .o_r = at(3),
                         .g = at(4),
                         .G = at(5),
                         .line = line_no};
    const auto round_trip = [&](std::size_t c) {
      const std::size_t column = round_trips[c];
      const double v = round_trip_value(path, line_no, c, column, values,
                                        column < fields.size() ? fields[column] : "");
      if (c == 0 || std::isnan(v)) return v;
      const auto seconds = decimal_in_seconds(fields[column], kMicroseconds);
      return seconds ? *seconds : value_in_seconds(v, kMicroseconds);
    };
    row.n = round_trip(0);
    row.rtt = round_trip(1);
    row.rtt_n = round_trip(2);
    row.overheads_usable = usable(row.L) && usable(row.o_s) && usable(row.o_r);
    row.gaps_usable = usable(row.g) && usable(row.G);
    by_size[*bytes] = row;  // a repeated size: the later row replaces the earlier
  }
  NetgaugeLogGPTable table;
  table.source_ = path;
  for (const auto& [bytes, row] : by_size) {
    if (row.overheads_usable) table.overhead_rows_.push_back(table.rows_.size());
    if (row.gaps_usable) table.gap_rows_.push_back(table.rows_.size());
    table.rows_.push_back(row);
  }
  if (table.overhead_rows_.empty() || table.gap_rows_.empty())
    throw InputError(fmt::format(
        "Netgauge LogGP file '{}' has no usable row: of its {} rows, {} have L, o_s and o_r "
        "finite and >= 0{}, and {} have g and G finite and >= 0{}; both are needed",
        path, table.rows_.size(), table.overhead_rows_.size(),
        table.overhead_rows_.empty() ? first_unusable(by_size, true) : "", table.gap_rows_.size(),
        table.gap_rows_.empty() ? first_unusable(by_size, false) : ""));
  return table;
}

std::size_t NetgaugeLogGPTable::nearest_of(const std::vector<std::size_t>& usable_rows,
                                           std::uint64_t bytes) const {
  // The first row at or above the size, against the last below it; a tie goes to the smaller.
  const auto above =
      std::lower_bound(usable_rows.begin(), usable_rows.end(), bytes,
                       [&](std::size_t i, std::uint64_t b) { return rows_[i].message_bytes < b; });
  if (above == usable_rows.begin()) return *above;
  if (above == usable_rows.end()) return usable_rows.back();
  const std::uint64_t up = rows_[*above].message_bytes - bytes;
  const std::uint64_t down = bytes - rows_[*(above - 1)].message_bytes;
  return up < down ? *above : *(above - 1);
}

NetgaugeLogGP NetgaugeLogGPTable::nearest(std::uint64_t message_bytes) const {
  const NetgaugeLogGPRow& over = rows_[nearest_of(overhead_rows_, message_bytes)];
  const NetgaugeLogGPRow& gaps = rows_[nearest_of(gap_rows_, message_bytes)];
  return {.message_bytes = over.message_bytes,
          .L = over.L,
          .o_s = over.o_s,
          .o_r = over.o_r,
          .o = (over.o_s + over.o_r) / 2.0,
          .line = over.line,
          .gap_message_bytes = gaps.message_bytes,
          .g = gaps.g,
          .G = gaps.G,
          .gap_line = gaps.line};
}

NetgaugeLogGP read_netgauge_loggp(const std::string& path, std::uint64_t message_bytes) {
  return NetgaugeLogGPTable::from_file(path).nearest(message_bytes);
}

}  // namespace collnoise
