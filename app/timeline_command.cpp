#include "app/timeline_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <span>
#include <variant>

#include "app/cli_values.hpp"
#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "app/plot_command.hpp"
#include "app/replayable_point.hpp"
#include "core/errors.hpp"
#include "core/memory_limit.hpp"
#include "core/stop_poll.hpp"
#include "core/stop_request.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/network/link_load.hpp"
#include "engine/schedules/paths/queue_stats.hpp"
#include "engine/schedules/paths/timeline_recorder.hpp"
#include "engine/schedules/schedule/any_schedule.hpp"
#include "engine/schedules/schedule_fields.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "outputs/atomic_file.hpp"
#include "outputs/link_load_io.hpp"
#include "outputs/path_conflicts.hpp"
#include "outputs/point_identity.hpp"
#include "outputs/queue_stats_io.hpp"
#include "outputs/result_file.hpp"
#include "outputs/timeline_chrome.hpp"
#include "outputs/timeline_otf2.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"
#include "runs/work_split.hpp"

namespace collnoise {
namespace {

// Ranks shown when --ranks is not given.
constexpr std::uint32_t kDefaultRanks = 64;

// One rank of --ranks `list`: a whole number below `ranks`, or InputError naming the item.
std::uint32_t parse_rank(const std::string& text, const std::string& item, const std::string& list,
                         std::uint32_t ranks) {
  const std::string valid = fmt::format("ranks are 0 to {}", ranks - 1);
  if (text.empty())
    throw InputError(fmt::format("--ranks '{}': '{}' lacks a rank ({}; give 'a-b' or 'a,b,c')",
                                 list, item, valid));
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range)
    throw InputError(fmt::format("--ranks '{}': {} is too large ({})", list, text, valid));
  if (error != std::errc() || end != text.data() + text.size())
    throw InputError(fmt::format("--ranks '{}': '{}' is not a rank ({})", list, text, valid));
  if (value >= ranks)
    throw InputError(
        fmt::format("--ranks '{}': rank {} is not in the schedule ({})", list, value, valid));
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
    if (item.empty())
      throw InputError(
          fmt::format("--ranks '{}': an empty item (give 'a-b' or 'a,b,c'; ranks are 0 to {})",
                      text, ranks - 1));
    // "-1", "3--1": a dash that begins a number is a minus sign, not a range.
    if (item.starts_with('-') || item.find("--") != std::string::npos)
      throw InputError(fmt::format("--ranks '{}': {} is negative (ranks are 0 to {})", text,
                                   item.starts_with('-') ? item : item.substr(item.find("--") + 1),
                                   ranks - 1));
    const std::size_t dash = item.find('-');
    const std::uint32_t lo = parse_rank(item.substr(0, dash), item, text, ranks);
    const std::uint32_t hi =
        dash == std::string::npos ? lo : parse_rank(item.substr(dash + 1), item, text, ranks);
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
  const Field* index = summary.find(schedule_fields::kSampleFinishIndex.name);
  const Field* finish = summary.find(schedule_fields::kSampleFinish.name);
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
  const Field* n = summary.find(schedule_fields::kCompletion.samples().name);
  return n != nullptr && std::holds_alternative<std::uint64_t>(*n) ? std::get<std::uint64_t>(*n)
                                                                   : 0;
}

// The part of a job array the result holds ("1/1": the whole run, or a merge of the parts).
PartSpec part_of(const ResultFile& result, const std::string& path) {
  const auto part = result.root.find("part");
  if (!part || !std::holds_alternative<std::string>(*part)) return {};
  try {
    return parse_part(std::get<std::string>(*part));
  } catch (const InputError&) {
    throw InputError(fmt::format("'{}' records the part '{}': not i/n, not a collnoise result",
                                 path, std::get<std::string>(*part)));
  }
}

// The samples [begin, end) of a point a result holds, by their index in the whole run: a part
// (`run --part i/n`) holds the samples of its chunks (runs/work_split.hpp), the others samples 0
// on (as many as the point sampled: precision targets may stop it early).
struct HeldSamples {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  PartSpec part;
  ChunkPlan plan;
};

HeldSamples held_samples(const ResultFile& result, const std::string& path, const RunSpec& run,
                         const PreparedPoint& point, const Record& summary) {
  HeldSamples held;
  held.part = part_of(result, path);
  held.plan = chunk_plan(run, *point.sampled);
  const ChunkRange chunks = part_range(held.plan.chunks(), held.part);
  held.begin = std::min(held.plan.samples, chunks.begin * held.plan.chunk_size);
  held.end = std::min(held.begin + samples_of(summary),
                      std::min(held.plan.samples, chunks.end * held.plan.chunk_size));
  return held;
}

std::string sample_range(std::uint64_t begin, std::uint64_t end) {
  return end > begin ? fmt::format("samples {} to {}", begin, end - 1) : "no samples";
}

// InputError unless the result holds sample `sample` of point `point`; a part's message says
// which part holds it.
void check_sample_held(const HeldSamples& held, std::uint64_t sample, std::uint64_t point) {
  if (sample >= held.begin && sample < held.end) return;
  if (held.part.whole())
    throw InputError(fmt::format("--sample {}: point {} holds {}", sample, point,
                                 sample_range(held.begin, held.end)));
  std::string holder = fmt::format("the run has samples 0 to {}", held.plan.samples - 1);
  if (sample < held.plan.samples) {
    PartSpec other{1, held.part.count};
    for (; other.index <= held.part.count; ++other.index)
      if (part_range(held.plan.chunks(), other).contains(sample / held.plan.chunk_size)) break;
    holder = fmt::format("part {} holds it", to_string(other));
  }
  throw InputError(fmt::format("--sample {}: this part ({}) of the run holds {} of point {}; {}",
                               sample, to_string(held.part), sample_range(held.begin, held.end),
                               point, holder));
}

// Bytes held per span and per message on the way to the files: the recorder's span, the
// timeline's copy, the JSON text of its event (some 300 bytes, twice while the text grows) and
// the OTF2 writer's copy and events; measured on recursive doubling with every rank shown
// (docs/timelines.md).
constexpr double kBytesPerSpan = 700.0;
constexpr double kBytesPerMessage = 700.0;

// The memory a timeline of the `chosen` ranks will hold, from the schedule's operations on
// them: an operation makes at most three spans (its work, the noise in it and its NIC's gap, or
// a rendezvous wait) and one message.
double timeline_bytes(const ScheduleStudy& study, const AnySchedule& schedule,
                      std::span<const std::uint32_t> chosen) {
  StopPoll poll;
  std::uint64_t operations = 0;
  std::visit(
      [&](const auto& s) {
        for (const std::uint32_t r : chosen) {
          poll.tick();
          operations += s.view(r).count();
        }
      },
      schedule);
  const auto ops = static_cast<double>(operations);
  return study.working_bytes(1) + 3.0 * ops * kBytesPerSpan + ops * kBytesPerMessage;
}

// Every path timeline writes may not be an input of it, nor another of its outputs; the OTF2
// archive (a folder) may not hold any of them, and may replace only an archive collnoise wrote.
void check_outputs(const TimelineOptions& options, const std::vector<RolePath>& inputs,
                   const std::vector<RolePath>& outputs) {
  refuse_path_conflicts(inputs, outputs);
  namespace fs = std::filesystem;
  for (const RolePath& o : outputs)
    if (o.role != "--otf2" && fs::is_directory(o.path))
      throw InputError(fmt::format("{} '{}' is a directory: name a file", o.role, o.path));
  if (!options.force && fs::exists(outputs.front().path))  // (before the replay, not after)
    throw InputError(fmt::format("{} '{}' exists: use --force to overwrite it",
                                 outputs.front().role, outputs.front().path));
  if (options.otf2.empty()) return;
  check_otf2_target(options.otf2, options.force);
  const fs::path named = options.otf2;  // "out/" names the folder "out"
  std::error_code error;
  const fs::path archive =
      fs::weakly_canonical(fs::absolute(named.has_filename() ? named : named.parent_path()), error);
  const auto inside = [&](const RolePath& p) {
    std::error_code e;
    const fs::path at = fs::weakly_canonical(fs::absolute(p.path), e);
    const auto [a, b] = std::mismatch(archive.begin(), archive.end(), at.begin(), at.end());
    return !e && !error && a == archive.end();
  };
  for (const auto& group : {inputs, outputs})
    for (const RolePath& p : group)
      if (p.role != "--otf2" && inside(p))
        throw InputError(fmt::format("--otf2 '{}' holds {} '{}': the archive would replace it",
                                     options.otf2, p.role, p.path));
}

// Bytes the queue recorder holds per rank (two lengths, two histograms of a few lengths).
constexpr double kBytesPerQueueRank = 128.0;

// Every rank's queues as the file holds them, with what was replayed.
QueueStatsFile queue_file(const QueueStatsRecorder& queues, std::string title) {
  QueueStatsFile file{std::move(title), kQueueSampleRule, {}, {}};
  for (const RankQueueLengths& r : queues.result()) {
    file.posted.add_rank(r.posted.histogram);
    file.unexpected.add_rank(r.unexpected.histogram);
  }
  return file;
}

void write_queues(const QueueStatsRecorder& queues, const std::string& title,
                  const TimelineOptions& options) {
  const QueueStatsFile file = queue_file(queues, title);
  write_queue_stats(file, options.queues, options.force);
  const auto largest = [](const QueueLengthTable& t) {
    return t.max.empty() ? std::uint64_t{0} : *std::max_element(t.max.begin(), t.max.end());
  };
  fmt::print("wrote {} (match queues of {} ranks; longest posted queue {}, unexpected {})\n",
             options.queues, file.posted.ranks(), largest(file.posted), largest(file.unexpected));
}

// The point's shared network, for --links: InputError naming the point when it has none.
const ContentionSpec& links_network(const ScheduleStudy& study, std::uint64_t point) {
  const ContentionSpec* spec = study.contention();
  if (spec == nullptr)
    throw InputError(
        fmt::format("--links: point {} has no network.contention, so its messages share no links "
                    "(docs/models/contention.md)",
                    point));
  return *spec;
}

// The links' statistics and the step functions of the busiest as the file holds them; names as
// the topology gives them.
LinkLoadFile link_file(std::span<const LinkLoadStats> all, std::span<const LinkLoadStats> traced,
                       const ContentionSpec& spec, std::string title, double completion_ns) {
  LinkLoadFile f{std::move(title),
                 spec.model_name(),
                 spec.model == ContentionModel::kFlows ? kFlowLinkLoadRule : kSimpleLinkLoadRule,
                 kLinkRankingRule,
                 completion_ns,
                 {},
                 {}};
  LinkLoadTable& t = f.table;
  StopPoll poll;
  for (const LinkLoadStats& s : all) {
    poll.tick();
    t.link.push_back(s.link);
    t.link_name.push_back(spec.topology->link_name(s.link));
    t.bytes_carried.push_back(s.bytes);
    t.busy_ns.push_back(s.busy_ns);
    t.mean_messages.push_back(s.mean_messages);
    t.max_messages.push_back(s.max_messages);
    t.mean_rate.push_back(s.mean_rate);
    t.max_rate.push_back(s.max_rate);
    t.bandwidth.push_back(s.bandwidth);
    t.utilisation.push_back(s.utilisation);
    t.background_messages.push_back(s.background);
  }
  for (const LinkLoadStats& s : traced) {
    for (const LinkStep& step : s.steps) {
      f.steps.times_ns.push_back(step.t);
      f.steps.messages.push_back(step.messages);
      f.steps.rates.push_back(step.rate);
    }
    f.steps.offsets.push_back(f.steps.times_ns.size());
    f.steps.end_ns.push_back(s.steps_end_ns);
    f.steps.truncated.push_back(s.steps_truncated ? 1 : 0);
  }
  return f;
}

// The busiest links' step functions: the sample replayed again (the same bits) with them
// traced, the ranking known from the first replay; their statistics must be the first's.
std::vector<LinkLoadStats> traced_links(const ScheduleStudy& study, const ContentionSpec& spec,
                                        std::uint64_t sample, std::span<const LinkLoadStats> top,
                                        double completion_ns) {
  std::vector<LinkId> chosen;
  for (const LinkLoadStats& s : top) chosen.push_back(s.link);
  LinkLoadRecorder again(spec.topology->link_id_bound(), chosen);
  TimelineRecorder none(std::vector<std::uint32_t>{});
  study.replay(sample, none, nullptr, &again);
  std::vector<LinkLoadStats> all = again.result(completion_ns);
  all.resize(top.size());
  for (std::size_t i = 0; i < top.size(); ++i)
    if (all[i].link != top[i].link || all[i].bytes != top[i].bytes ||
        all[i].busy_ns != top[i].busy_ns)
      throw RuntimeFailure(fmt::format(
          "the second replay of sample {} differs from the first on link {}", sample, top[i].link));
  return all;
}

void write_links(const ScheduleStudy& study, const LinkLoadRecorder& links, double completion_ns,
                 const std::string& title, const TimelineOptions& options) {
  const ContentionSpec& spec = *study.contention();
  const std::vector<LinkLoadStats> all = links.result(completion_ns);
  const std::span<const LinkLoadStats> top = busiest_links(all, options.top_links);
  const std::vector<LinkLoadStats> traced =
      top.empty() ? std::vector<LinkLoadStats>{}
                  : traced_links(study, spec, options.sample, top, completion_ns);
  write_link_load(link_file(all, traced, spec, title, completion_ns), options.links, options.force);
  if (all.empty()) {
    fmt::print("wrote {} (no message crossed a link)\n", options.links);
    return;
  }
  const LinkLoadStats& b = all.front();
  fmt::print(
      "wrote {} ({} links; busiest: link {}, {}: {} bytes, busy {:.6g} s, utilisation {:.4g}, "
      "most messages at once {})\n",
      options.links, all.size(), b.link, spec.topology->link_name(b.link), b.bytes,
      b.busy_ns * 1e-9, b.utilisation, b.max_messages);
}

// The message of a timeline interrupted by a signal: what was written, and what was not.
int interrupted(const char* phase, const std::vector<std::string>& written) {
  std::string kept = "nothing was written";
  if (!written.empty()) {
    kept = "wrote only";
    for (std::size_t k = 0; k < written.size(); ++k)
      kept += fmt::format("{} '{}'", k == 0 ? "" : (k + 1 == written.size() ? " and" : ","),
                          written[k]);
  }
  fmt::print(stderr, "collnoise: interrupted by signal {} while {}: {} (no temporary is left)\n",
             stop_signal(), phase, kept);
  return exit_code::kInterrupted;
}

}  // namespace

CLI::App* add_timeline_command(CLI::App& app, TimelineOptions& o) {
  constexpr std::uint64_t kAny = std::numeric_limits<std::uint64_t>::max();
  auto* cmd = app.add_subcommand(
      "timeline",
      "replay one sample of a schedule point and write its timeline (docs/timelines.md)");
  cmd->add_option("RESULT", o.result, "result file (.h5)")->required()->check(non_empty());
  cmd->add_option("--point", o.point, "the point (default 0)")->check(whole_number_in(0, kAny));
  cmd->add_option("--sample", o.sample, "the sample to replay (its index in the whole run)")
      ->required()
      ->check(whole_number_in(0, kAny));
  cmd->add_option("--ranks", o.ranks, "ranks shown: 'a-b' or 'a,b,c' (default: up to 64, 0-63)")
      ->check(non_empty());
  cmd->add_option("--window", o.window, "time window shown: 'start,end' in seconds")
      ->check(non_empty());
  cmd->add_option("--out", o.out, "Chrome trace-event JSON (default <result>-p<P>-s<S>.json)")
      ->check(non_empty());
  cmd->add_option("--otf2", o.otf2, "also write an OTF2 archive (a directory)")->check(non_empty());
  cmd->add_option("--figure", o.figure, "also draw a figure (.png, .pdf or .svg; Python)")
      ->check(non_empty());
  cmd->add_option("--queues", o.queues,
                  "also write every rank's match-queue statistics (.json or .h5)")
      ->check(non_empty());
  cmd->add_option("--links", o.links,
                  "also write the load of the network's links (.json or .h5; network.contention)")
      ->check(non_empty());
  cmd->add_option("--top-links", o.top_links,
                  "--links: the busiest links whose load over time it holds (default 10)")
      ->check(whole_number_in(0, kAny));
  add_max_memory_option(*cmd, o.max_memory_gib, "a timeline");
  cmd->add_flag("--force", o.force,
                "replace existing outputs (an OTF2 folder only if it is an archive collnoise "
                "wrote)");
  cmd->add_flag("--no-verify", o.no_verify, "read the result without checking its checksum");
  return cmd;
}

int timeline_command(const TimelineOptions& options) {
  set_memory_limit_gib(options.max_memory_gib);
  const std::string out = options.out.empty() ? default_out(options) : options.out;
  // The outputs against the result first (nothing is read that an output would replace), then
  // against the run file and data files the result records.
  std::vector<RolePath> inputs = {{"the result", options.result}};
  std::vector<RolePath> outputs = {{"--out", out}};
  if (!options.otf2.empty()) outputs.push_back({"--otf2", options.otf2});
  if (!options.figure.empty()) outputs.push_back({"--figure", options.figure});
  if (!options.queues.empty()) {
    check_queue_stats_path(options.queues, "--queues");
    outputs.push_back({"--queues", options.queues});
  }
  if (!options.links.empty()) {
    check_link_load_path(options.links, "--links");
    outputs.push_back({"--links", options.links});
  }
  check_outputs(options, inputs, outputs);
  const ResultFile result = read_result_file(options.result, read_options(!options.no_verify));
  const ReplayablePoint replayable =
      replayable_point(result, options.result, options.point, "timelines replay schedule points");
  const PreparedPoint& point = replayable.points[options.point];
  const ScheduleStudy* study = replayable.study;
  const Record& summary = result.summaries[options.point];
  const HeldSamples held = held_samples(result, options.result, replayable.run, point, summary);
  check_sample_held(held, options.sample, options.point);

  if (!replayable.run.path.empty())
    inputs.push_back({"the result's run file", replayable.run.path});
  for (const auto& f : point.input_files) inputs.push_back({"the data file", f.path});
  check_outputs(options, inputs, outputs);
  for (const RolePath& o : outputs)
    if ((o.role == "--figure" || o.role == "--queues" || o.role == "--links") && !options.force &&
        std::filesystem::exists(o.path))
      throw InputError(fmt::format("{} '{}' exists (--force replaces it)", o.role, o.path));
  for (const RolePath& o : outputs)  // (an archive named "out/" is the directory "out")
    for (const auto& stale :
         remove_stale_temporaries(std::filesystem::path(o.path).has_filename()
                                      ? o.path
                                      : std::filesystem::path(o.path).parent_path().string()))
      print_note(
          fmt::format("removed '{}', left by a run of this host that no longer runs", stale));

  const std::shared_ptr<const AnySchedule> schedule = study->schedule();
  const std::uint32_t ranks = ranks_of(*schedule);
  const std::vector<std::uint32_t> shown = chosen_ranks(options.ranks, ranks);
  const ContentionSpec* network =
      options.links.empty() ? nullptr : &links_network(*study, options.point);
  check_memory_limit(
      timeline_bytes(*study, *schedule, shown) +
          (options.queues.empty() ? 0.0 : kBytesPerQueueRank * ranks) +
          (network == nullptr
               ? 0.0
               : LinkLoadRecorder::bytes(network->topology->link_id_bound(), options.top_links,
                                         LinkLoadRecorder::kDefaultMaxSteps)),
      fmt::format("the timeline of the {} ranks shown (fewer with --ranks)", shown.size()));
  std::vector<std::string> written;
  const char* phase = "replaying the sample";
  try {
    TimelineRecorder recorder(shown);
    QueueStatsRecorder queues;
    // Every link's statistics; the busiest links' steps come from a second replay.
    LinkLoadRecorder links(network == nullptr ? 0 : network->topology->link_id_bound(), {});
    const auto [replayed, path] =
        study->replay(options.sample, recorder, options.queues.empty() ? nullptr : &queues,
                      network == nullptr ? nullptr : &links);
    if (!replayed.complete)
      throw RuntimeFailure(fmt::format("the replay did not complete: {}", replayed.incomplete));
    check_against_run(summary, options.sample, replayed);
    const auto [from, to] = window_ns(options.window);
    const std::string title = fmt::format("{} point {}, sample {}: {} ranks", options.result,
                                          options.point, options.sample, ranks);
    const Timeline timeline = recorder.result(path, from, to, title);
    phase = "writing the JSON";
    write_chrome_trace(timeline, out, options.force);
    written.push_back(out);
    fmt::print(
        "wrote {} ({} spans, {} messages; completion {} s, last rank {}{})\n", out,
        timeline.spans.size(), timeline.messages.size(), timeline.completion_ns * 1e-9,
        timeline.last_rank,
        timeline.path_leaves_chosen ? "; the critical path passes through ranks not shown" : "");
    if (!options.otf2.empty()) {
      phase = "writing the OTF2 archive";
      throw_if_stop_requested();  // (a signal while the JSON was written)
      write_otf2(timeline, options.otf2, options.force);
      written.push_back(options.otf2);
      fmt::print("wrote {}\n", options.otf2);
    }
    if (!options.queues.empty()) {
      phase = "writing the queue statistics";
      throw_if_stop_requested();
      write_queues(queues, title, options);
      written.push_back(options.queues);
    }
    if (!options.links.empty()) {
      phase = "writing the link load";
      throw_if_stop_requested();
      // (the last rank's end, a background job's ranks included: every message has left the
      // links by then)
      const double end = std::max(*std::max_element(replayed.finish.begin(), replayed.finish.end()),
                                  replayed.untimed_finish);
      write_links(*study, links, end, title, options);
      written.push_back(options.links);
    }
    if (!options.figure.empty()) {
      phase = "drawing the figure";
      throw_if_stop_requested();
      std::fflush(stdout);  // (before Python's own lines)
      return run_python_module({"collnoise.figures.timeline", out, options.figure});
    }
  } catch (const StopRequested&) {
    return interrupted(phase, written);
  }
  return exit_code::kSuccess;
}

}  // namespace collnoise
