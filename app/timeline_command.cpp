#include "app/timeline_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <filesystem>

#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "app/plot_command.hpp"
#include "app/replayable_point.hpp"
#include "core/errors.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "engine/schedules/timeline_recorder.hpp"
#include "outputs/atomic_file.hpp"
#include "outputs/path_conflicts.hpp"
#include "outputs/point_identity.hpp"
#include "outputs/result_file.hpp"
#include "outputs/timeline_chrome.hpp"
#include "outputs/timeline_otf2.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"

namespace collnoise {
namespace {

// Ranks shown when --ranks is not given.
constexpr std::uint32_t kDefaultRanks = 64;

std::uint32_t parse_rank(const std::string& text, std::uint32_t ranks) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    throw InputError(fmt::format("--ranks: '{}' is not a rank", text));
  if (value >= ranks)
    throw InputError(
        fmt::format("--ranks: rank {} is not in the schedule (ranks 0 to {})", value, ranks - 1));
  return static_cast<std::uint32_t>(value);
}

// "a-b", "a,b,c" (or a mix: "0-3,8"), increasing and without repeats; empty: the default.
std::vector<std::uint32_t> chosen_ranks(const std::string& text, std::uint32_t ranks) {
  std::vector<std::uint32_t> chosen;
  if (text.empty()) {
    for (std::uint32_t r = 0; r < std::min(ranks, kDefaultRanks); ++r) chosen.push_back(r);
    return chosen;
  }
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t dash = item.find('-');
    const std::uint32_t lo = parse_rank(item.substr(0, dash), ranks);
    const std::uint32_t hi =
        dash == std::string::npos ? lo : parse_rank(item.substr(dash + 1), ranks);
    if (hi < lo) throw InputError(fmt::format("--ranks: '{}' runs backwards", item));
    for (std::uint32_t r = lo; r <= hi; ++r) {
      if (!chosen.empty() && r <= chosen.back())
        throw InputError(fmt::format("--ranks: '{}' lists rank {} out of order or twice", text, r));
      chosen.push_back(r);
    }
    at = comma + 1;
  }
  return chosen;
}

// "t0,t1" seconds -> [t0, t1) ns; empty: the whole sample.
std::pair<double, double> window_ns(const std::string& text) {
  if (text.empty()) return {0.0, INFINITY};
  const std::size_t comma = text.find(',');
  double t0 = NAN, t1 = NAN;
  try {
    if (comma == std::string::npos) throw std::invalid_argument("one value");
    std::size_t used0 = 0, used1 = 0;
    t0 = std::stod(text.substr(0, comma), &used0);
    t1 = std::stod(text.substr(comma + 1), &used1);
    if (used0 != comma || used1 != text.size() - comma - 1) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw InputError(fmt::format("--window '{}': give two times in seconds, 'start,end'", text));
  }
  if (!(t0 >= 0.0) || !(t1 > t0) || !std::isfinite(t1))
    throw InputError(fmt::format("--window '{}': needs 0 <= start < end, finite", text));
  return {t0 * 1e9, t1 * 1e9};
}

std::string default_out(const TimelineOptions& o) {
  return fmt::format("{}-p{}-s{}.json", std::filesystem::path(o.result).stem().string(), o.point,
                     o.sample);
}

// The replay against what the run recorded of the same sample (its ranks' finishing times, when
// the point kept them for this sample): equal, or the result is not this engine's on this data.
void check_against_run(const Record& summary, std::uint64_t sample, const ScheduleRun& run) {
  const Field* index = summary.find("sample_finish_index");
  const Field* finish = summary.find("sample_finish");
  if (index == nullptr || finish == nullptr || !std::holds_alternative<std::uint64_t>(*index) ||
      std::get<std::uint64_t>(*index) != sample || !std::holds_alternative<Series>(*finish)) {
    print_note(fmt::format(
        "the result records no finishing times of sample {} (collective.finish_sample = {} "
        "records them): the replay is not compared with the run",
        sample, sample));
    return;
  }
  const Series& recorded = std::get<Series>(*finish);
  for (std::size_t r = 0; r < recorded.size() && r < run.finish.size(); ++r)
    if (recorded[r] && *recorded[r] != run.finish[r] * 1e-9)
      throw InputError(fmt::format(
          "the replay of sample {} differs from the run: rank {} finished at {} s in the run and "
          "{} s now (a result of another collnoise version?)",
          sample, r, *recorded[r], run.finish[r] * 1e-9));
}

std::uint64_t samples_of(const Record& summary) {
  const Field* n = summary.find("completion_samples");
  return n != nullptr && std::holds_alternative<std::uint64_t>(*n) ? std::get<std::uint64_t>(*n)
                                                                   : 0;
}

}  // namespace

CLI::App* add_timeline_command(CLI::App& app, TimelineOptions& o) {
  auto* cmd = app.add_subcommand(
      "timeline",
      "replay one sample of a schedule point and write its timeline (docs/timelines.md)");
  cmd->add_option("RESULT", o.result, "result file (.h5)")->required();
  cmd->add_option("--point", o.point, "the point (default 0)");
  cmd->add_option("--sample", o.sample, "the sample to replay")->required();
  cmd->add_option("--ranks", o.ranks, "ranks shown: 'a-b' or 'a,b,c' (default: up to 64, 0-63)");
  cmd->add_option("--window", o.window, "time window shown: 'start,end' in seconds");
  cmd->add_option("--out", o.out, "Chrome trace-event JSON (default <result>-p<P>-s<S>.json)");
  cmd->add_option("--otf2", o.otf2, "also write an OTF2 archive (a directory)");
  cmd->add_option("--figure", o.figure, "also draw a figure (.png, .pdf or .svg; Python)");
  cmd->add_flag("--force", o.force, "replace existing outputs");
  cmd->add_flag("--no-verify", o.no_verify, "read the result without checking its checksum");
  return cmd;
}

int timeline_command(const TimelineOptions& options) {
  const std::string out = options.out.empty() ? default_out(options) : options.out;
  const ResultFile result = read_result_file(options.result, read_options(!options.no_verify));
  const ReplayablePoint replayable =
      replayable_point(result, options.result, options.point, "timelines replay schedule points");
  const PreparedPoint& point = replayable.points[options.point];
  const ScheduleStudy* study = replayable.study;
  const Record& summary = result.summaries[options.point];
  if (options.sample >= samples_of(summary))
    throw InputError(fmt::format("--sample {}: point {} holds samples 0 to {}", options.sample,
                                 options.point, samples_of(summary) - 1));

  std::vector<RolePath> inputs = {{"the result", options.result}};
  for (const auto& f : point.input_files) inputs.push_back({"the data file", f.path});
  std::vector<RolePath> outputs = {{"--out", out}};
  if (!options.otf2.empty()) outputs.push_back({"--otf2", options.otf2});
  if (!options.figure.empty()) outputs.push_back({"--figure", options.figure});
  refuse_path_conflicts(inputs, outputs);
  for (const RolePath& o : outputs)  // (an archive named "out/" is the directory "out")
    for (const auto& stale :
         remove_stale_temporaries(std::filesystem::path(o.path).has_filename()
                                      ? o.path
                                      : std::filesystem::path(o.path).parent_path().string()))
      print_note(
          fmt::format("removed '{}', left by a run of this host that no longer runs", stale));

  const auto ranks = static_cast<std::uint32_t>(study->noiseless().finish.size());
  TimelineRecorder recorder(chosen_ranks(options.ranks, ranks));
  const auto [replayed, path] = study->replay(options.sample, recorder);
  if (!replayed.complete)
    throw RuntimeFailure(fmt::format("the replay did not complete: {}", replayed.incomplete));
  check_against_run(summary, options.sample, replayed);
  const auto [from, to] = window_ns(options.window);
  const Timeline timeline =
      recorder.result(path, from, to,
                      fmt::format("{} point {}, sample {}: {} ranks", options.result, options.point,
                                  options.sample, ranks));
  write_chrome_trace(timeline, out, options.force);
  fmt::print(
      "wrote {} ({} spans, {} messages; completion {} s, last rank {}{})\n", out,
      timeline.spans.size(), timeline.messages.size(), timeline.completion_ns * 1e-9,
      timeline.last_rank,
      timeline.path_leaves_chosen ? "; the critical path passes through ranks not shown" : "");
  if (!options.otf2.empty()) {
    write_otf2(timeline, options.otf2, options.force);
    fmt::print("wrote {}\n", options.otf2);
  }
  if (!options.figure.empty()) {
    if (!options.force && std::filesystem::exists(options.figure))
      throw InputError(fmt::format("--figure '{}' exists (--force replaces it)", options.figure));
    return run_python_module({"collnoise.figures.timeline", out, options.figure});
  }
  return exit_code::kSuccess;
}

}  // namespace collnoise
