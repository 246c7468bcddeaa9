#include "app/compare_command.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>

#include "app/cli_values.hpp"
#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "app/output_guard.hpp"
#include "app/plot_command.hpp"
#include "app/replayable_point.hpp"
#include "core/errors.hpp"
#include "core/memory_limit.hpp"
#include "core/shown_text.hpp"
#include "core/stop_request.hpp"
#include "core/units.hpp"
#include "distributions/measured_times.hpp"
#include "engine/schedules/schedule_fields.hpp"
#include "estimators/quantile_interval.hpp"
#include "estimators/summary_fields.hpp"
#include "estimators/two_sample.hpp"
#include "outputs/path_conflicts.hpp"
#include "outputs/record_json.hpp"
#include "outputs/result_file.hpp"

namespace collnoise {
namespace {

// Points of the QQ figure: enough for a smooth curve, few enough for a small JSON.
constexpr std::size_t kQqPoints = 200;
// Below this many values above a quantile, its bootstrap interval cannot reach past the maximum.
constexpr double kTailValues = 10.0;

// The two samples compared, sorted, and what they are.
struct Samples {
  std::vector<double> simulated;
  std::vector<double> measured;
  std::string simulated_what;
  std::string measured_what;
  std::vector<std::string> warnings;
  // How the simulated side timed its samples and how its ranks entered (the point's
  // sample_timing and rank_entry; a result written before these fields: completion, together).
  std::string simulated_timing = "completion";
  std::string simulated_entry = "together";
  // --mode ranks: per iteration (measured) or sample (simulated), the largest rank time less the
  // smallest, and that spread divided by the largest; each sorted.
  std::vector<double> simulated_spread, measured_spread;
  std::vector<double> simulated_relative_spread, measured_relative_spread;
};

// Rows of `columns` values (row-major: an iteration's or a sample's ranks): each row's largest
// less its smallest, and that divided by the largest (0 for a row of zeros).
void row_spreads(std::span<const double> values, std::size_t columns, std::vector<double>& spread,
                 std::vector<double>& relative) {
  if (columns == 0) return;
  for (std::size_t start = 0; start + columns <= values.size(); start += columns) {
    const auto row = values.subspan(start, columns);
    const auto [low, high] = std::minmax_element(row.begin(), row.end());
    spread.push_back(*high - *low);
    relative.push_back(*high > 0.0 ? (*high - *low) / *high : 0.0);
  }
  std::sort(spread.begin(), spread.end());
  std::sort(relative.begin(), relative.end());
}

std::optional<std::uint64_t> whole_field(const Record& record, const std::string& key) {
  const Field* f = record.find(key);
  if (f == nullptr) return std::nullopt;
  if (const auto* u = std::get_if<std::uint64_t>(f)) return *u;
  if (const auto* i = std::get_if<std::int64_t>(f); i && *i >= 0)
    return static_cast<std::uint64_t>(*i);
  return std::nullopt;
}

std::vector<double> simulated_completions(const CompareOptions& o, std::size_t point,
                                          std::string& what) {
  const auto raw = read_raw_samples(o.result, point, read_options(!o.no_verify));
  if (!raw)
    throw InputError(fmt::format(
        "point {} of '{}' kept no raw samples: run it again with `[output] raw_samples = true` in "
        "its run file (docs/compare.md)",
        point, o.result));
  if (raw->unit != "seconds")
    throw InputError(
        fmt::format("point {} of '{}': its samples ({}) are in '{}', not seconds: "
                    "not times to compare",
                    point, o.result, raw->metric, raw->unit));
  if (raw->values.empty())
    throw InputError(fmt::format("point {} of '{}' holds no samples", point, o.result));
  what = fmt::format("{} samples of {} (raw samples)", raw->values.size(), raw->metric);
  return raw->values;
}

// --mode ranks: results keep each sample's completion only (raw samples), so the point's first
// samples are simulated again, each exactly as the run simulated it, and their ranks' finishing
// times pooled.
std::vector<double> simulated_rank_finishes(const CompareOptions& o, const ResultFile& result,
                                            std::string& what) {
  const auto held =
      whole_field(result.summaries[o.point], schedule_fields::kCompletion.samples().name)
          .value_or(0);
  const std::uint64_t samples = std::min(o.rank_samples, held);
  // The pooled finishing times, then their sorted copy, checked before the point is prepared
  // (whose engine's memory is checked there).
  const auto ranks = static_cast<std::size_t>(
      whole_field(result.summaries[o.point], schedule_fields::kRanks.name).value_or(0));
  check_memory_limit(
      static_cast<double>(samples) * static_cast<double>(ranks) * sizeof(double) * 2.0,
      fmt::format("--mode ranks: the finishing times of {} ranks in {} samples "
                  "(fewer with --rank-samples)",
                  ranks, samples));
  const ReplayablePoint replayable = replayable_point(
      result, o.result, o.point, "--mode ranks replays the samples of schedule points");
  if (samples == 0)
    throw InputError(fmt::format("--mode ranks: point {} of '{}' holds no samples to replay",
                                 o.point, o.result));
  std::vector<double> values;
  values.reserve(samples * ranks);
  for (std::uint64_t i = 0; i < samples; ++i) {
    throw_if_stop_requested();  // a replay of many ranks takes a while
    const std::vector<double> finish = replayable.study->rank_finishes(i);
    values.insert(values.end(), finish.begin(), finish.end());
  }
  what = fmt::format(
      "the finishing times of {} ranks in samples 0 to {}, pooled ({} values, "
      "replayed)",
      ranks, samples - 1, values.size());
  return values;
}

std::string measured_description(const MeasuredTimes& m, const std::string& mode) {
  if (!m.per_rank) return fmt::format("{} times (one a line, in {})", m.seconds.size(), m.unit);
  const std::string table = fmt::format("{} ranks x {} iterations at {} bytes, in {}", m.ranks,
                                        m.iterations(), m.message_bytes, m.unit);
  return mode == "max" ? fmt::format("{} iterations' largest rank time ({})", m.iterations(), table)
                       : fmt::format("{} rank times pooled ({})", m.seconds.size(), table);
}

// What differs between the point simulated and the measurement: said, not refused (a model of
// another size may be meant).
void check_match(const ResultFile& result, std::size_t point, const MeasuredTimes& m, Samples& s) {
  if (!m.per_rank) return;
  const auto ranks = whole_field(result.summaries[point], "ranks");
  if (ranks && *ranks != m.ranks)
    s.warnings.push_back(
        fmt::format("the point simulates {} ranks, the table measured {}", *ranks, m.ranks));
  const auto bytes = whole_field(result.params[point], "collective.message_bytes");
  if (bytes && *bytes != m.message_bytes)
    s.warnings.push_back(fmt::format("the point's message is {} bytes, the table's rows {}", *bytes,
                                     m.message_bytes));
}

std::string text_field(const Record& record, const std::string& key, const std::string& absent) {
  const Field* f = record.find(key);
  if (f == nullptr || !std::holds_alternative<std::string>(*f)) return absent;
  return std::get<std::string>(*f);
}

// The simulated side's timing and entry, and one line when its timing is not the measured
// side's: a per-rank table times each rank from its own barrier exit, a list of times is one
// time per iteration.
void check_timing(const ResultFile& result, std::size_t point, const MeasuredTimes& m, Samples& s) {
  const Record& summary = result.summaries[point];
  s.simulated_timing = text_field(summary, schedule_fields::kSampleTiming.name, "completion");
  s.simulated_entry = text_field(summary, schedule_fields::kRankEntry.name, "together");
  if (m.per_rank && s.simulated_timing == "completion")
    s.warnings.push_back(
        "the measured table times each rank from its own barrier exit, the point's samples are "
        "completions from a common start: timing.measure = \"per_rank\" compares like with like");
  if (!m.per_rank && s.simulated_timing == "per_rank")
    s.warnings.push_back(
        "the measured file lists one time per iteration, the point times each rank from its own "
        "start (timing.measure = \"per_rank\")");
}

// --size, checked by its validator: empty when not given.
std::optional<std::uint64_t> chosen_size(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parse_u64(text, "--size");
}

double confidence_level(const std::string& text, const ResultFile& result) {
  if (text.empty()) {
    const Field* stored = result.root.find("confidence");
    return stored && std::holds_alternative<double>(*stored) ? std::get<double>(*stored) : 0.95;
  }
  // The validator took a number in [0, 1]; its ends are no levels.
  const double level = std::strtod(text.c_str(), nullptr);
  if (!(level > 0.0 && level < 1.0))
    throw InputError(fmt::format("--confidence {}: give a level between 0 and 1", text));
  return level;
}

// std::sort in blocks merged pairwise, polling the stop request between steps: a measured file
// of 10^8 times takes seconds to sort, and a stop must be acted on within one.
void sort_polling(std::vector<double>& x) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  const auto at = [&](std::size_t i) {
    return x.begin() + static_cast<std::ptrdiff_t>(std::min(i, x.size()));
  };
  for (std::size_t from = 0; from < x.size(); from += kBlock) {
    throw_if_stop_requested();
    std::sort(at(from), at(from + kBlock));
  }
  for (std::size_t width = kBlock; width < x.size(); width *= 2)
    for (std::size_t from = 0; from + width < x.size(); from += 2 * width) {
      throw_if_stop_requested();
      std::inplace_merge(at(from), at(from + width), at(from + 2 * width));
    }
}

// What reading the measured file may hold at once: a time of at least two bytes of text (a digit
// and its separator) read into a double, copied for the iteration maxima and the sorted sides.
void check_measured_memory(const std::string& path) {
  std::error_code error;
  const auto bytes = std::filesystem::file_size(path, error);
  if (error) return;  // the reader names the fault
  check_memory_limit(static_cast<double>(bytes) / 2.0 * sizeof(double) * 3.0,
                     fmt::format("reading the measured file '{}' ({} bytes)", path, bytes));
}

// Times that differ below the resolution (seconds; 0: none) are one time: rounded to its nearest
// whole multiple, so that an atom (a noise-free time, a timer's tick) is one value on both sides.
void round_to_resolution(std::vector<double>& times, double resolution) {
  if (!(resolution > 0.0)) return;
  for (double& t : times) t = std::round(t / resolution) * resolution;
}

Samples samples_of(const CompareOptions& o, const ResultFile& result, std::size_t point) {
  check_measured_memory(o.measured);
  const MeasuredTimes m =
      read_measured_times(o.measured, {.unit = o.unit, .size = chosen_size(o.size)});
  Samples s;
  s.simulated = o.mode == "max" ? simulated_completions(o, point, s.simulated_what)
                                : simulated_rank_finishes(o, result, s.simulated_what);
  s.measured = o.mode == "max" ? m.iteration_maxima() : m.seconds;
  s.measured_what = measured_description(m, o.mode);
  check_match(result, point, m, s);
  check_timing(result, point, m, s);
  if (o.mode == "ranks") {  // both still in row order: a sample's (an iteration's) ranks together
    const auto ranks = whole_field(result.summaries[point], schedule_fields::kRanks.name);
    row_spreads(s.simulated, ranks.value_or(0), s.simulated_spread, s.simulated_relative_spread);
    if (m.per_rank) row_spreads(m.seconds, m.ranks, s.measured_spread, s.measured_relative_spread);
  }
  round_to_resolution(s.simulated, o.resolution);
  round_to_resolution(s.measured, o.resolution);
  sort_polling(s.simulated);
  sort_polling(s.measured);
  for (const double p : reported_probabilities())
    if (static_cast<double>(s.measured.size()) * (1.0 - p) < kTailValues)
      s.warnings.push_back(fmt::format(
          "the measured {} rests on fewer than {:g} values above it: its bootstrap interval cannot "
          "reach past the largest value and covers less than it claims",
          quantile_name(p), kTailValues));
  return s;
}

Json nullable_json(const Nullable& v) {
  return v.value ? Json(*v.value) : Json(nullptr);
}

void put_interval(Json& j, const Nullable& low, const Nullable& high) {
  j["ci_low"] = nullable_json(low);
  if (!low.value) j["ci_low_reason"] = low.reason;
  j["ci_high"] = nullable_json(high);
  if (!high.value) j["ci_high_reason"] = high.reason;
}

Json distance_json(const Distance& d, const std::string& method) {
  return Json{{"value", d.value}, {"ci_low", d.ci_low}, {"ci_high", d.ci_high}, {"method", method}};
}

// The reported quantiles of a simulated and a measured sample, each sorted and not empty.
Json quantiles_json(std::span<const double> simulated_sorted,
                    std::span<const double> measured_sorted, double level) {
  Json all = Json::array();
  for (const double p : reported_probabilities()) {
    const QuantileEstimate sim = quantile_from_sorted(simulated_sorted, p, level);
    const SampleQuantile meas = bootstrap_quantile(measured_sorted, p, level);
    Json simulated{{"value", nullable_json(sim.estimate)}};
    put_interval(simulated, sim.ci_low, sim.ci_high);
    simulated["method"] = "distribution-free (binomial order statistics)";
    Json measured{{"value", meas.estimate}};
    put_interval(measured, meas.ci_low, meas.ci_high);
    measured["method"] = "bootstrap percentile (exact)";
    all.push_back(Json{{"name", quantile_name(p)},
                       {"probability", p},
                       {"simulated", simulated},
                       {"measured", measured}});
  }
  return all;
}

// Both samples' quantiles at evenly spaced probabilities, for the QQ figure.
Json qq_json(const Samples& s) {
  const std::size_t k = std::min({kQqPoints, s.simulated.size(), s.measured.size()});
  Json p = Json::array(), sim = Json::array(), meas = Json::array();
  for (std::size_t i = 0; i < std::max<std::size_t>(k, 1); ++i) {
    const double probability =
        (static_cast<double>(i) + 0.5) / static_cast<double>(std::max<std::size_t>(k, 1));
    p.push_back(probability);
    sim.push_back(s.simulated[quantile_rank(s.simulated.size(), probability) - 1]);
    meas.push_back(s.measured[quantile_rank(s.measured.size(), probability) - 1]);
  }
  return Json{{"probabilities", p}, {"simulated", sim}, {"measured", meas}};
}

double mean_of(const std::vector<double>& x) {
  double sum = 0.0;
  for (const double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

// --mode ranks: the within-iteration spreads of both sides, their quantiles with intervals
// (null in --mode max, or when the measured file is a list without ranks).
Json spread_json(const Samples& s, double level) {
  if (s.simulated_spread.empty() || s.measured_spread.empty()) return nullptr;
  throw_if_stop_requested();
  return Json{
      {"what",
       "per sample (simulated) and per iteration (measured): the largest rank time less the "
       "smallest; relative: divided by the largest"},
      {"simulated_values", s.simulated_spread.size()},
      {"measured_values", s.measured_spread.size()},
      {"absolute", quantiles_json(s.simulated_spread, s.measured_spread, level)},
      {"relative", quantiles_json(s.simulated_relative_spread, s.measured_relative_spread, level)},
  };
}

Json comparison_json(const CompareOptions& o, const Samples& s, double level) {
  // Each step is linear (under a second at 10^8 values): the stop request is polled between.
  throw_if_stop_requested();
  const TwoSampleDistances d = two_sample_distances(s.simulated, s.measured, level);
  throw_if_stop_requested();
  const MeanRatio r = ratio_of_independent_means(s.measured, s.simulated, level);
  throw_if_stop_requested();
  Json ratio{{"value", nullable_json(r.ratio)}};
  if (!r.ratio.value) ratio["value_reason"] = r.ratio.reason;
  put_interval(ratio, r.ci_low, r.ci_high);
  ratio["method"] = "delta method on the log scale";
  return Json{
      {"format", "collnoise comparison"},
      {"result", o.result},
      {"point", o.point},
      {"measured_file", o.measured},
      {"mode", o.mode},
      {"confidence", level},
      {"units", "seconds"},
      {"resolution", o.resolution},
      {"simulated",
       {{"what", s.simulated_what},
        {"timing", s.simulated_timing},
        {"entry", s.simulated_entry},
        {"values", s.simulated.size()},
        {"mean", mean_of(s.simulated)}}},
      {"measured",
       {{"what", s.measured_what}, {"values", s.measured.size()}, {"mean", mean_of(s.measured)}}},
      {"ks_distance", distance_json(d.ks, "DKW bands of both samples")},
      {"wasserstein1",
       distance_json(d.wasserstein1, "DKW bands of both samples, within the samples' range")},
      {"ks_p_value", {{"value", d.ks_p_value}, {"method", "asymptotic Kolmogorov law"}}},
      {"ratio_of_means", ratio},
      {"quantiles", quantiles_json(s.simulated, s.measured, level)},
      {"qq", qq_json(s)},
      {"spread", spread_json(s, level)},
      {"warnings", s.warnings},
  };
}

// The unit times are shown in: the largest of s, ms, us, ns in which the medians are >= 1.
std::pair<double, const char*> display_unit(const Json& c) {
  const double median = std::max(c["quantiles"][0]["simulated"]["value"].is_number()
                                     ? c["quantiles"][0]["simulated"]["value"].get<double>()
                                     : 0.0,
                                 c["quantiles"][0]["measured"]["value"].get<double>());
  if (median >= 1.0) return {1.0, "s"};
  if (median >= 1e-3) return {1e3, "ms"};
  if (median >= 1e-6) return {1e6, "us"};
  return {1e9, "ns"};
}

std::string shown(const Json& v, double scale) {
  return v.is_number() ? fmt::format("{:.4g}", v.get<double>() * scale) : "n/a";
}

std::string interval_text(const Json& j, double scale) {
  return fmt::format("[{}, {}]", shown(j["ci_low"], scale), shown(j["ci_high"], scale));
}

std::string comparison_table(const Json& c) {
  const auto [scale, unit] = display_unit(c);
  std::string t = fmt::format(
      "'{}' point {} against '{}' (--mode {})\n  simulated: {}\n             timing {}, "
      "ranks entering {}\n  measured:  {}\n  confidence {:g}; times in {}\n\n",
      c["result"].get<std::string>(), c["point"].get<std::uint64_t>(),
      c["measured_file"].get<std::string>(), c["mode"].get<std::string>(),
      c["simulated"]["what"].get<std::string>(), c["simulated"]["timing"].get<std::string>(),
      c["simulated"]["entry"].get<std::string>(), c["measured"]["what"].get<std::string>(),
      c["confidence"].get<double>(), unit);
  if (const double r = c["resolution"].get<double>(); r > 0.0)
    t.insert(t.size() - 1, fmt::format("  both sides rounded to whole multiples of {:g} s\n", r));
  const auto row = [&](const char* name, const Json& j, double s, const char* how) {
    // A p-value below the smallest double is 0 as computed: said as a bound.
    const bool underflow =
        j["value"].is_number() && j["value"].get<double>() == 0.0 && !j.contains("ci_low");
    t += fmt::format("  {:<38} {:>10}  {:<24} {}\n", name,
                     underflow ? "< 1e-300" : shown(j["value"], s),
                     j.contains("ci_low") ? interval_text(j, s) : "", how);
  };
  t += fmt::format("effect sizes\n  {:<38} {:>10}  {:<24} {}\n", "", "value", "interval", "method");
  row("Kolmogorov-Smirnov distance", c["ks_distance"], 1.0, "DKW bands");
  row(fmt::format("Wasserstein-1 distance ({})", unit).c_str(), c["wasserstein1"], scale,
      "DKW bands, within the samples' range");
  row("KS p-value", c["ks_p_value"], 1.0, "asymptotic (any model fails at large n)");
  row("ratio of means, measured / simulated", c["ratio_of_means"], 1.0, "delta method, log scale");
  t += fmt::format("\nquantiles ({})\n  {:<8} {:>10}  {:<24} {:>10}  {}\n", unit, "", "simulated",
                   "interval", "measured", "interval (bootstrap)");
  const auto quantile_rows = [&](const Json& quantiles, double s) {
    for (const Json& q : quantiles)
      t += fmt::format("  {:<8} {:>10}  {:<24} {:>10}  {}\n", q["name"].get<std::string>(),
                       shown(q["simulated"]["value"], s), interval_text(q["simulated"], s),
                       shown(q["measured"]["value"], s), interval_text(q["measured"], s));
  };
  quantile_rows(c["quantiles"], scale);
  if (!c["spread"].is_null()) {
    t += fmt::format(
        "\nwithin-iteration spread, largest less smallest rank time ({}; {} simulated samples, "
        "{} measured iterations)\n",
        unit, c["spread"]["simulated_values"].get<std::uint64_t>(),
        c["spread"]["measured_values"].get<std::uint64_t>());
    quantile_rows(c["spread"]["absolute"], scale);
    t += "relative spread (divided by the largest rank time)\n";
    quantile_rows(c["spread"]["relative"], 1.0);
  }
  return t;
}

// A figure's extension, checked before anything is read.
void check_figure_extension(const CompareOptions& o) {
  const std::string ext = std::filesystem::path(o.figure).extension().string();
  if (ext != ".png" && ext != ".pdf" && ext != ".svg")
    throw InputError(fmt::format("--figure '{}': a .png, .pdf or .svg file", o.figure));
}

// The files compare reads, which the figure may not replace: the result, the measured file, and
// the run file and data files the result records (data-file paths are relative to the run
// file's folder).
std::vector<RolePath> compare_inputs(const CompareOptions& o, const ResultFile& result) {
  std::vector<RolePath> inputs = {{"the result", o.result}, {"the measured file", o.measured}};
  std::filesystem::path folder;
  if (const Field* run = result.root.find("run_file_path");
      run && std::holds_alternative<std::string>(*run) && !std::get<std::string>(*run).empty()) {
    inputs.push_back({"the result's run file", std::get<std::string>(*run)});
    folder = std::filesystem::path(std::get<std::string>(*run)).parent_path();
  }
  for (const auto& identity : result.identities)
    if (identity)
      for (const auto& file : identity->inputs)
        inputs.push_back({"the data file", std::filesystem::path(file.path).is_absolute()
                                               ? file.path
                                               : (folder / file.path).string()});
  return inputs;
}

// Before anything is computed, a figure that cannot be written is refused (exit 2, as `run`
// refuses its --out): a directory, a FIFO or a device (outputs/path_conflicts.hpp), an input, an
// existing figure without --force, a missing or read-only folder; the figure is locked while it
// is drawn.
std::optional<OutputGuard> guard_figure(const CompareOptions& o, const ResultFile& result) {
  std::optional<OutputGuard> guard;
  if (o.figure.empty()) return guard;
  const std::vector<RolePath> outputs = {{"--figure", o.figure}};
  guard.emplace(compare_inputs(o, result), outputs, o.force, print_note);
  return guard;
}

// The comparison's JSON for Python, in a file of the temporary folder removed on every way out.
class FigureData {
 public:
  explicit FigureData(const Json& comparison) {
    path_ = (std::filesystem::temp_directory_path() / "collnoise-compare-XXXXXX.json").string();
    const int fd = ::mkstemps(path_.data(), 5);
    if (fd < 0)
      throw RuntimeFailure(
          fmt::format("cannot create the figure's data '{}': {}", path_, std::strerror(errno)));
    const std::string text = json_text(comparison);
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int cause = errno;
        ::close(fd);
        ::unlink(path_.c_str());
        throw RuntimeFailure(
            fmt::format("cannot write the figure's data to '{}': {}", path_, std::strerror(cause)));
      }
      done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
      ::unlink(path_.c_str());
      throw RuntimeFailure(fmt::format("cannot write the figure's data to '{}'", path_));
    }
  }
  ~FigureData() { ::unlink(path_.c_str()); }
  FigureData(const FigureData&) = delete;
  FigureData& operator=(const FigureData&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Python's exit code: 0 drawn, 1 the figure could not be written (its message names it), 2 bad
// input. A stop request while it draws is passed on to it and thrown (app/plot_command.hpp).
int draw_figure(const CompareOptions& o, const Json& comparison) {
  const FigureData data(comparison);
  return run_python_module({"collnoise.figures.qq", data.path(), o.figure});
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, CompareOptions& o) {
  auto* cmd = app.add_subcommand(
      "compare", "hold a point's simulated times against measured ones (docs/compare.md)");
  cmd->add_option("RESULT", o.result, "result file (.h5) with raw samples")
      ->required()
      ->check(non_empty());
  cmd->add_option("MEASURED", o.measured,
                  "measured times: one a line (--unit), or a Netgauge per-rank table")
      ->required()
      ->check(non_empty());
  cmd->add_option("--point", o.point, "the point (default 0)")
      ->check(whole_number_in(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--mode", o.mode,
                  "max (default): iteration maxima against completions; ranks: per-rank times "
                  "against the simulated ranks' finishing times")
      ->check(CLI::IsMember({"max", "ranks"}));
  cmd->add_option("--rank-samples", o.rank_samples,
                  "--mode ranks: the samples replayed for their ranks' finishing times "
                  "(default 100, the point's first)")
      ->check(whole_number_in(1, std::uint64_t{1} << 40));
  // The time units every reader uses (core/units.hpp), not a list of its own.
  cmd->add_option("--unit", o.unit,
                  fmt::format("the measured times' unit: {}", accepted_units(Dimension::kTime)))
      ->check(CLI::Validator(
          [](const std::string& unit) {
            return find_time_unit(unit)
                       ? std::string()
                       : fmt::format("{} is not a time unit ({})", quoted_text(unit),
                                     accepted_units(Dimension::kTime));
          },
          "UNIT"));
  cmd->add_option("--resolution", o.resolution,
                  "seconds: both sides' times rounded to whole multiples of it first (a timer's "
                  "or another simulator's resolution, e.g. 1e-12 for whole picoseconds)")
      ->check(number_in(0.0, 1.0e6));
  cmd->add_option("--size", o.size, "the per-rank table's rows of this message size (bytes)")
      ->check(whole_number_in(0, std::uint64_t{1} << 62));
  cmd->add_option("--confidence", o.confidence,
                  "confidence level in (0, 1) (default: the result's)")
      ->check(number_in(0.0, 1.0));
  cmd->add_flag("--json", o.json, "JSON instead of a table");
  cmd->add_option("--figure", o.figure, "also draw a QQ figure (.png, .pdf or .svg; Python)")
      ->check(non_empty());
  add_max_memory_option(*cmd, o.max_memory_gib, "a comparison");
  cmd->add_flag("--force", o.force, "replace an existing figure");
  cmd->add_flag("--no-verify", o.no_verify, "read the result without checking its checksum");
  return cmd;
}

int compare_command(const CompareOptions& options) {
  // A stop request (its handlers are main's) ends every phase within a second (exit 3, nothing
  // left behind): the long ones (reading the measured file, sorting, the replays, Python's
  // drawing) poll it.
  set_memory_limit_gib(options.max_memory_gib);
  if (!options.figure.empty()) check_figure_extension(options);
  const ResultFile result = read_result_file(options.result, read_options(!options.no_verify));
  const std::optional<OutputGuard> guard = guard_figure(options, result);
  const std::size_t point = select_point(result, options.point, options.result);
  const double level = confidence_level(options.confidence, result);
  const Samples samples = samples_of(options, result, point);
  for (const auto& w : samples.warnings) print_warning(w);
  const Json comparison = comparison_json(options, samples, level);
  fmt::print("{}", options.json ? json_text(comparison) : comparison_table(comparison));
  return options.figure.empty() ? exit_code::kSuccess : draw_figure(options, comparison);
}

}  // namespace collnoise
