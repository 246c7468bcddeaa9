#include "distributions/detour_trace.hpp"
#include "distributions/time_noise_kind.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "core/errors.hpp"
#include "core/stop_request.hpp"

namespace collnoise {
namespace {

// Parses one number at `pos`, moving past it; nullopt when there is none.
std::optional<double> next_number(const std::string& line, std::size_t& pos) {
  const std::size_t first = line.find_first_not_of(" \t\r", pos);
  if (first == std::string::npos) return std::nullopt;
  const char* begin = line.c_str() + first;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
  pos = static_cast<std::size_t>(end - line.c_str());
  return value;
}

}  // namespace

double trace_unit_seconds(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  throw InputError(fmt::format(
      "noise.unit = \"{}\" is invalid: use \"ns\" (Netgauge), \"us\", \"ms\" or \"s\"", unit));
}

DetourPattern read_detour_trace(const std::string& path, double seconds_per_unit,
                                std::optional<double> span_seconds) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("detour trace '{}' cannot be read", path));
  std::vector<Detour> detours;
  double last_end = 0.0;
  double last_start = 0.0;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if ((line_no & 0xffff) == 0) throw_if_stop_requested();  // traces can be large
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::size_t pos = 0;
    const auto start = next_number(line, pos);
    const auto duration = start ? next_number(line, pos) : std::nullopt;
    if (!start || !duration || line.find_first_not_of(" \t\r", pos) != std::string::npos)
      throw InputError(fmt::format("{}:{}: '{}' is not 'start<TAB>duration'", path, line_no, line));
    if (*start < 0.0)
      throw InputError(fmt::format("{}:{}: negative detour start {}", path, line_no, *start));
    if (*duration < 0.0)
      throw InputError(fmt::format("{}:{}: negative detour duration {}", path, line_no, *duration));
    if (*duration == 0.0) continue;  // an empty detour takes no CPU time
    const double s = *start * seconds_per_unit;
    const double e = (*start + *duration) * seconds_per_unit;
    if (!(e <= 1.0e6))
      throw InputError(
          fmt::format("{}:{}: detour ends at {:g} s: trace times must lie within 1e6 seconds", path,
                      line_no, e));
    detours.push_back({s, e});
    last_end = std::max(last_end, e);
    last_start = std::max(last_start, s);
  }
  if (detours.empty()) throw InputError(fmt::format("detour trace '{}' has no detours", path));
  const double span = span_seconds ? *span_seconds : last_end;
  // A detour may run past the span (it wraps to the start), but must begin inside it.
  if (span_seconds && !(*span_seconds > last_start))
    throw InputError(fmt::format(
        "noise.span = {} s is too short for the trace '{}', whose last detour starts at {} s",
        *span_seconds, path, last_start));
  return DetourPattern(std::move(detours), span, fmt::format("detour trace '{}'", path));
}

TimeNoiseKind trace_noise_kind() {
  static const KeySpec file{.name = "file",
                            .type = KeyType::kFile,
                            .meaning = "detour trace: lines 'start<TAB>duration'"};
  static const KeySpec unit{.name = "unit",
                            .type = KeyType::kText,
                            .meaning = "the unit of the trace's times: s, ms, us or ns",
                            .fallback = std::string("ns")};
  static const KeySpec span{.name = "span",
                            .meaning = "the trace's period (default: from its last detour)",
                            .unit = "seconds",
                            .bounds = {1.0e-9, kMaxSeconds},
                            .optional = true};
  return {.name = "trace",
          .meaning = "a measured detour trace, replayed by every rank from a random position",
          .keys = {file, unit, span},
          .make = [](ParamReader& reader, const std::string& prefix) -> TimeNoiseLaw {
            const std::string path = reader.text(file, prefix);
            const double seconds_per_unit = trace_unit_seconds(reader.text(unit, prefix));
            const auto period = reader.optional_number(span, prefix);
            auto pattern = std::make_shared<const DetourPattern>(
                read_detour_trace(path, seconds_per_unit, period));
            PatternNoise noise;
            noise.description = fmt::format("trace({}, {} busy intervals, span {} s)", path,
                                            pattern->busy().size(), pattern->span());
            noise.pattern = std::move(pattern);
            noise.period_key = full_key(span, prefix) + " (the trace's period)";
            return noise;
          }};
}

}  // namespace collnoise
