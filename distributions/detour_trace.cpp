#include "distributions/detour_trace.hpp"
#include "distributions/time_noise_kind.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/shown_text.hpp"
#include "core/stop_request.hpp"
#include "distributions/empirical.hpp"
#include "distributions/gpd_tail.hpp"
#include "distributions/loggopsim_trace_reading.hpp"
#include "distributions/spliced_tail_law.hpp"

namespace collnoise {
namespace {

// One number of a line as written and as read.
struct Number {
  double value = 0.0;
  std::string_view text;
};

// Parses one number at `pos`, moving past it; nullopt when there is none.
std::optional<Number> next_number(const std::string& line, std::size_t& pos) {
  const std::size_t first = line.find_first_not_of(" \t\r", pos);
  if (first == std::string::npos) return std::nullopt;
  const char* begin = line.c_str() + first;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
  pos = static_cast<std::size_t>(end - line.c_str());
  return Number{value, std::string_view(begin, static_cast<std::size_t>(end - begin))};
}

// A start in seconds: its text converted by the time units' one rule; a number strtod reads that
// is no decimal (a hexadecimal float) from its double.
double start_in_seconds(const Number& start, const TimeUnit& unit) {
  const auto seconds = decimal_in_seconds(start.text, unit);
  return seconds ? *seconds : value_in_seconds(start.value, unit);
}

}  // namespace

const TimeUnit& trace_unit(const std::string& unit) {
  if (const TimeUnit* u = find_time_unit(unit)) return *u;
  throw InputError(fmt::format("noise.unit = \"{}\" is invalid: use {} (\"ns\" for Netgauge)", unit,
                               accepted_units(Dimension::kTime)));
}

namespace {

// One measurement of a trace file as parsed: its detours of non-zero length, in seconds (in the
// file's unit when no unit is known).
struct Measurement {
  std::vector<Detour> detours;
  double last_start = 0.0;
  double last_end = 0.0;
  int first_line = 0;  ///< the line of its first detour line
};

// Splits a trace into its measurements (detour_trace.hpp), checking every line: InputError with
// file and line for a malformed line or a negative value, and, with a unit, for a detour that
// ends beyond 10^6 s. With `entries` (and a unit), every line's entry in file order too.
std::vector<Measurement> parse_trace(const std::string& path, const TimeUnit* unit,
                                     std::vector<TraceEntry>* entries = nullptr) {
  TextLines in(path, fmt::format("detour trace '{}'", path));
  std::vector<Measurement> measurements;
  bool comment_after_data = false;  // a comment line since the last detour line
  double previous_start = 0.0;      // in the file's unit
  std::string line;
  for (int line_no = 1; in.next(line); ++line_no) {
    if ((line_no & 0xffff) == 0) throw_if_stop_requested();  // traces can be large
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      if (hash != std::string::npos && !measurements.empty()) comment_after_data = true;
      continue;
    }
    std::size_t pos = 0;
    const auto start = next_number(line, pos);
    const auto duration = start ? next_number(line, pos) : std::nullopt;
    if (!start || !duration || line.find_first_not_of(" \t\r", pos) != std::string::npos)
      throw InputError(
          fmt::format("{}:{}: {} is not 'start<TAB>duration'", path, line_no, quoted_text(line)));
    if (start->value < 0.0)
      throw InputError(fmt::format("{}:{}: negative detour start {}", path, line_no, start->value));
    if (duration->value < 0.0)
      throw InputError(
          fmt::format("{}:{}: negative detour duration {}", path, line_no, duration->value));
    if (measurements.empty() || comment_after_data || start->value < previous_start)
      measurements.push_back({.first_line = line_no});
    comment_after_data = false;
    previous_start = start->value;
    // Without a unit (counting measurements), times stay in the file's unit.
    const double end = start->value + duration->value;
    const double s = unit ? start_in_seconds(*start, *unit) : start->value;
    const double e = unit ? value_in_seconds(end, *unit) : end;
    if (unit && !(e <= 1.0e6))
      throw InputError(
          fmt::format("{}:{}: detour ends at {:g} s: trace times must lie within 1e6 seconds", path,
                      line_no, e));
    if (entries) entries->push_back({s, e - s});
    if (duration->value == 0.0) continue;  // an empty detour takes no CPU time
    Measurement& m = measurements.back();
    m.detours.push_back({s, e});
    m.last_end = std::max(m.last_end, e);
    m.last_start = std::max(m.last_start, s);
  }
  return measurements;
}

// Measurement `index` of `count` as a pattern. A file of one measurement is named as before
// measurements were told apart, so that its messages and description stay the same.
DetourPattern to_pattern(Measurement&& m, const std::string& path, std::size_t index,
                         std::size_t count, std::optional<double> span_seconds) {
  const std::string what =
      count == 1 ? fmt::format("detour trace '{}'", path)
                 : fmt::format("detour trace '{}', measurement {} of {} (from line {})", path,
                               index, count, m.first_line);
  if (m.detours.empty()) throw InputError(fmt::format("{} has no detours", what));
  // A detour may run past the span (it wraps to the start), but must begin inside it.
  if (span_seconds && !(*span_seconds > m.last_start))
    throw InputError(
        fmt::format("noise.span = {} s is too short for the {}, whose last detour starts at {} s",
                    *span_seconds, what, m.last_start));
  const double span = span_seconds ? *span_seconds : m.last_end;
  return DetourPattern(std::move(m.detours), span, what);
}

// Measurement `measurement` of the trace; `count` receives the number of measurements.
DetourPattern read_one_measurement(const std::string& path, const TimeUnit& unit,
                                   std::optional<double> span_seconds, std::size_t measurement,
                                   std::size_t& count) {
  auto measurements = parse_trace(path, &unit);
  if (measurements.empty()) throw InputError(fmt::format("detour trace '{}' has no detours", path));
  count = measurements.size();
  if (measurement >= count)
    throw InputError(
        fmt::format("detour trace '{}' holds {} measurement{}: there is no measurement {} "
                    "(noise.measurement counts from 0 to {})",
                    path, count, count == 1 ? "" : "s", measurement, count - 1));
  return to_pattern(std::move(measurements[measurement]), path, measurement, count, span_seconds);
}

}  // namespace

DetourPattern read_detour_trace(const std::string& path, const TimeUnit& unit,
                                std::optional<double> span_seconds, std::size_t measurement) {
  std::size_t count = 0;
  return read_one_measurement(path, unit, span_seconds, measurement, count);
}

std::vector<DetourPattern> read_detour_measurements(const std::string& path, const TimeUnit& unit,
                                                    std::optional<double> span_seconds) {
  auto measurements = parse_trace(path, &unit);
  if (measurements.empty()) throw InputError(fmt::format("detour trace '{}' has no detours", path));
  std::vector<DetourPattern> patterns;
  patterns.reserve(measurements.size());
  for (std::size_t k = 0; k < measurements.size(); ++k)
    patterns.push_back(
        to_pattern(std::move(measurements[k]), path, k, measurements.size(), span_seconds));
  return patterns;
}

std::vector<double> detour_durations(const DetourPattern& pattern) {
  std::vector<double> out;
  out.reserve(pattern.busy().size());
  for (const Detour& d : pattern.busy()) out.push_back(d.end - d.start);
  return out;
}

std::vector<TraceEntry> read_trace_entries(const std::string& path, const TimeUnit& unit) {
  std::vector<TraceEntry> entries;
  parse_trace(path, &unit, &entries);
  return entries;
}

std::size_t count_measurements(const std::string& path) {
  return parse_trace(path, nullptr).size();
}

namespace {

const KeySpec kTraceFile{
    .name = "file", .type = KeyType::kFile, .meaning = "detour trace: lines 'start<TAB>duration'"};
const KeySpec kTraceUnit{.name = "unit",
                         .type = KeyType::kText,
                         .meaning = "the unit of the trace's times: s, ms, us or ns",
                         .fallback = std::string("ns")};
const KeySpec kTraceSpan{.name = "span",
                         .meaning = "the trace's period (default: from its last detour)",
                         .unit = "seconds",
                         .bounds = {1.0e-9, kMaxSeconds},
                         .optional = true};
const KeySpec kTraceMeasurement{
    .name = "measurement",
    .type = KeyType::kInteger,
    .meaning = "which measurement of a file holding several, counted from 0 in file order",
    .fallback = std::int64_t{0},
    .bounds = {0.0, 1.0e9}};
const KeySpec kTraceReading{
    .name = "reading",
    .type = KeyType::kChoice,
    .meaning =
        "a file of appended measurements read as measurements (each its own, "
        "noise.measurement picks one) or as loggopsim reads it (one list, searched)",
    .fallback = std::string("measurements"),
    .choices = {"measurements", "loggopsim"}};

const KeySpec kTraceReplay{
    .name = "replay",
    .type = KeyType::kChoice,
    .meaning =
        "how the trace's detours are drawn: trace (replayed from a random position) or poisson "
        "(a Poisson process of the trace's rate of detours, durations drawn from the trace's)",
    .fallback = std::string("trace"),
    .choices = {"trace", "poisson"}};
const KeySpec kTraceTail{
    .name = "tail",
    .type = KeyType::kChoice,
    .meaning =
        "with noise.replay = poisson: the durations as measured (none) or their body spliced to "
        "a generalised Pareto tail fitted above a threshold (gpd)",
    .fallback = std::string("none"),
    .choices = {"none", "gpd"}};

bool read_as_loggopsim(ParamReader& reader, const std::string& prefix) {
  return reader.text(kTraceReading, prefix) == "loggopsim";
}

// The pattern of the trace read as LogGOPSim reads it (one list of entries in file order); its
// period is that list's last start, so noise.span and noise.measurement have no say.
PatternNoise loggopsim_read_trace(ParamReader& reader, const std::string& prefix,
                                  const std::string& path, const TimeUnit& unit) {
  for (const KeySpec* k : {&kTraceSpan, &kTraceMeasurement})
    if (reader.has(full_key(*k, prefix)))
      throw InputError(fmt::format(
          "{} does not apply with {} = \"loggopsim\", which reads the whole file as one trace "
          "whose period is its last entry's start",
          full_key(*k, prefix), full_key(kTraceReading, prefix)));
  auto pattern = std::make_shared<const DetourPattern>(loggopsim_trace_pattern(
      read_trace_entries(path, unit), fmt::format("detour trace '{}'", path)));
  PatternNoise noise;
  noise.description = fmt::format("trace({}, as LogGOPSim reads it, {} busy intervals, span {} s)",
                                  path, pattern->busy().size(), pattern->span());
  noise.pattern = std::move(pattern);
  noise.period_key = full_key(kTraceReading, prefix) + " (the trace's last entry)";
  return noise;
}

// The trace as a Poisson process (noise.replay = "poisson"): its busy intervals' rate over its
// span, their durations drawn from their own values, or from them spliced to a generalised Pareto
// tail (noise.tail = "gpd"), which a replay cannot grow.
TimeNoiseLaw poisson_from_trace(const DetourPattern& pattern, bool gpd, const std::string& path,
                                const std::string& tail_key) {
  const std::vector<double> durations = detour_durations(pattern);
  if (durations.empty()) throw InputError(fmt::format("detour trace '{}' has no detours", path));
  const double rate = static_cast<double>(durations.size()) / pattern.span();
  double mean = 0.0;
  std::shared_ptr<const NoiseLaw> law;
  if (gpd) {
    std::string why;
    const auto tail = fit_gpd_tail(durations, kTailFitLevel, kTailFitSeed, why, 0);
    if (!tail)
      throw InputError(fmt::format("{} = \"gpd\": detour trace '{}': {}", tail_key, path, why));
    const auto spliced = std::make_shared<const SplicedTailLaw>(durations, *tail, path);
    mean = spliced->mean_seconds();
    law = spliced;
  } else {
    const auto empirical = std::make_shared<const EmpiricalLaw>(durations, path);
    mean = empirical->mean_delay_seconds();
    law = empirical;
  }
  return std::make_shared<const PoissonDetours>(rate, mean, std::move(law));
}

// noise.replay and noise.tail: whether the trace is drawn as a Poisson process, with which tail.
struct TraceReplay {
  bool poisson = false;
  bool gpd = false;
};

TraceReplay read_replay(ParamReader& reader, const std::string& prefix) {
  TraceReplay replay;
  replay.poisson = reader.text(kTraceReplay, prefix) == "poisson";
  const std::string tail_key = full_key(kTraceTail, prefix);
  if (!replay.poisson && reader.has(tail_key))
    throw InputError(
        fmt::format("{} applies with {} = \"poisson\" (a replayed trace cannot grow "
                    "a tail)",
                    tail_key, full_key(kTraceReplay, prefix)));
  replay.gpd = reader.text(kTraceTail, prefix) == "gpd";
  return replay;
}

}  // namespace

std::vector<DetourPattern> read_trace_measurements(ParamReader& reader, const std::string& prefix) {
  if (read_replay(reader, prefix).poisson)
    throw InputError(fmt::format(
        "{} = \"poisson\" draws one process for every rank: it gives no measurement to each rank",
        full_key(kTraceReplay, prefix)));
  if (read_as_loggopsim(reader, prefix))
    throw InputError(fmt::format(
        "{} = \"loggopsim\" reads the file's measurements as one trace, as LogGOPSim does: it "
        "gives no measurement to each rank",
        full_key(kTraceReading, prefix)));
  const std::string path = reader.text(kTraceFile, prefix);
  return read_detour_measurements(path, trace_unit(reader.text(kTraceUnit, prefix)),
                                  reader.optional_number(kTraceSpan, prefix));
}

TimeNoiseKind trace_noise_kind() {
  return {.name = "trace",
          .meaning = "a measured detour trace, replayed by every rank from a random position",
          .keys = {kTraceFile, kTraceUnit, kTraceSpan, kTraceMeasurement, kTraceReading,
                   kTraceReplay, kTraceTail},
          .make = [](ParamReader& reader, const std::string& prefix) -> TimeNoiseLaw {
            const std::string path = reader.text(kTraceFile, prefix);
            const TimeUnit& unit = trace_unit(reader.text(kTraceUnit, prefix));
            const TraceReplay replay = read_replay(reader, prefix);
            if (read_as_loggopsim(reader, prefix)) {
              PatternNoise noise = loggopsim_read_trace(reader, prefix, path, unit);
              if (!replay.poisson) return noise;
              return poisson_from_trace(*noise.pattern, replay.gpd, path,
                                        full_key(kTraceTail, prefix));
            }
            const auto period = reader.optional_number(kTraceSpan, prefix);
            const auto index = static_cast<std::size_t>(reader.integer(kTraceMeasurement, prefix));
            std::size_t count = 0;
            auto pattern = std::make_shared<const DetourPattern>(
                read_one_measurement(path, unit, period, index, count));
            if (replay.poisson)
              return poisson_from_trace(*pattern, replay.gpd, path, full_key(kTraceTail, prefix));
            PatternNoise noise;
            // A file of one measurement is described as before measurements were told apart.
            const std::string which =
                count == 1 ? std::string() : fmt::format("measurement {} of {}, ", index, count);
            noise.description = fmt::format("trace({}, {}{} busy intervals, span {} s)", path,
                                            which, pattern->busy().size(), pattern->span());
            noise.pattern = std::move(pattern);
            noise.period_key = full_key(kTraceSpan, prefix) + " (the trace's period)";
            return noise;
          }};
}

}  // namespace collnoise
