#pragma once
// Reading the columns of measurement files (Netgauge's latencies and LogGP parameters): a line's
// blank-separated fields, and numbers that must fill a whole field.
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace collnoise {

/// The fields of `line` separated by spaces, tabs or carriage returns.
inline std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  while (true) {
    const std::size_t first = line.find_first_not_of(" \t\r", pos);
    if (first == std::string_view::npos) break;
    std::size_t last = line.find_first_of(" \t\r", first);
    if (last == std::string_view::npos) last = line.size();
    fields.push_back(line.substr(first, last - first));
    pos = last;
  }
  return fields;
}

/// A number filling the whole field, or nullopt (out of range included). "nan" and "inf"
/// (Netgauge writes "-nan") are numbers here: callers that refuse them check.
inline std::optional<double> parse_number(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || end == copy.c_str() || errno == ERANGE)
    return std::nullopt;
  return value;
}

/// A whole number written with decimal digits only, at most `largest`, or nullopt.
inline std::optional<std::uint64_t> parse_whole(std::string_view text, std::uint64_t largest) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > largest)
    return std::nullopt;
  return value;
}

}  // namespace collnoise
