#include <fmt/format.h>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <span>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/interrupt.hpp"
#include "app/progress.hpp"
#include "engine/errors.hpp"
#include "engine/process_group.hpp"
#include "outputs/result_file.hpp"
#include "outputs/summary_report.hpp"
#include "runs/point_factory.hpp"
#include "runs/precision_target.hpp"
#include "runs/run_executor.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"

namespace collnoise {

std::string default_output_path(const std::string& run_name) {
  return run_name + ".h5";
}

namespace {

std::string run_kind_label(const RunSpec& run, const std::vector<PreparedPoint>& points) {
  if (run.kind != RunKind::kSample) return to_string(run.kind);
  std::string kind;
  for (const auto& p : points) {
    if (kind.empty()) kind = p.kind;
    if (kind != p.kind) return "mixed";
  }
  return kind;
}

std::string output_path(const RunOptions& options, const RunSpec& run, const PartSpec& part) {
  if (!options.out.empty()) return options.out;
  if (part.whole()) return default_output_path(run.name);
  return fmt::format("{}.part{}of{}.h5", run.name, part.index, part.count);
}

// What the run file and the command line ask for together, refused before anything is sampled.
void check_combination(const RunSpec& run, const std::vector<PreparedPoint>& points,
                       const PartSpec& part) {
  if (!part.whole() && run.kind != RunKind::kSample)
    throw InputError(fmt::format("--part: a {} run has no samples to share out (run it whole)",
                                 to_string(run.kind)));
  if (!part.whole() && run.precision.enabled)
    throw InputError(
        "--part cannot be combined with precision targets: when to stop depends on every sample "
        "so far, which no part sees (run under mpirun instead, or give samples)");
  for (std::size_t i = 0; i < points.size(); ++i)
    if (points[i].sampled && run.precision.enabled)
      check_precision_applies(run.precision, points[i].sampled->primary_tail_index(),
                              empty_tally(run, *points[i].sampled).layout(),
                              fmt::format("{}: point {}", run.path, i));
}

// Checks that only rank 0 can make (its file system view), shared so every process agrees.
void check_outputs(const RunOptions& options, const std::string& out, const std::string& ckpt,
                   const ProcessGroup& group) {
  std::string error;
  if (group.is_root()) {
    try {
      if (std::filesystem::exists(out) && !options.force)
        throw InputError(fmt::format("output '{}' exists: use --force to overwrite it", out));
      check_writable(out);
      if (!ckpt.empty()) check_writable(ckpt);
      if (!options.resume.empty() && !std::filesystem::exists(options.resume))
        throw InputError(fmt::format("--resume: checkpoint '{}' does not exist", options.resume));
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  const auto error_bytes = std::as_bytes(std::span(error));
  Bytes message(error_bytes.begin(), error_bytes.end());
  message = group.broadcast_from_root(std::move(message));
  if (!message.empty())
    throw InputError(std::string(reinterpret_cast<const char*>(message.data()), message.size()));
}

std::string resume_hint(const RunOptions& options, const std::string& out, const std::string& ckpt,
                        const PartSpec& part) {
  std::string hint =
      fmt::format("collnoise run {} --out {} --resume {}", options.run_file, out, ckpt);
  if (!part.whole()) hint += " --part " + to_string(part);
  return hint;
}

void print_table(const std::vector<PointResult>& results) {
  std::vector<Record> params, summaries;
  for (const auto& r : results) {
    params.push_back(r.params);
    summaries.push_back(r.summary);
  }
  fmt::print("{}", summary_table(params, summaries));
}

}  // namespace

int run_command(const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const ProcessGroup& group = ProcessGroup::world();
  const PartSpec part = options.part.empty() ? PartSpec{} : parse_part(options.part);
  const RunSpec run = load_run_file(options.run_file, options.seed);
  const std::vector<PreparedPoint> points = prepare_points(run);
  check_combination(run, points, part);
  const std::string out = output_path(options, run, part);
  const std::string ckpt = options.no_checkpoint
                               ? std::string()
                               : (options.checkpoint.empty() ? out + ".ckpt" : options.checkpoint);
  check_outputs(options, out, ckpt, group);
  // By default the processes on one machine share its cores.
  const int threads = options.threads > 0 ? options.threads
                                          : std::max(1, omp_get_max_threads() / group.local_size());

  std::vector<std::uint64_t> work;
  for (const auto& p : points) work.push_back(p.sampled ? run.samples : p.analysis->work_units());
  Progress progress(!options.quiet && group.is_root(), work);
  const InterruptHandlers handlers;
  ExecutionOptions exec;
  exec.threads = threads;
  exec.part = part;
  exec.checkpoint_path = ckpt;
  exec.checkpoint_interval_s = options.checkpoint_every_s;
  exec.resume_path = options.resume;
  exec.stop_requested = [] { return InterruptHandlers::requested(); };
  exec.progress = [&](std::size_t point, std::uint64_t done) { progress.update(point, done); };
  if (options.interrupt_after_chunks > 0)
    exec.after_round = [&](std::uint64_t chunks) {
      if (chunks == options.interrupt_after_chunks) std::raise(SIGINT);
    };
  Execution execution = execute_run(run, points, exec, group);
  progress.finish();

  if (execution.interrupted) {
    if (group.is_root())
      fmt::print(stderr,
                 "collnoise: interrupted by signal {}: checkpoint '{}' holds {} of {} chunks; "
                 "resume with\n  {}\n",
                 InterruptHandlers::signal_number(), ckpt, execution.chunks_done,
                 execution.chunks_total, resume_hint(options, out, ckpt, part));
    return exit_code::kInterrupted;
  }
  if (!group.is_root()) return exit_code::kSuccess;

  std::vector<PointResult> results;
  for (std::size_t i = 0; i < points.size(); ++i) {
    PointOutcome& o = execution.points[i];
    results.push_back(PointResult{points[i].kind, points[i].params, o.summary,
                                  o.tally ? &*o.tally : nullptr, o.chunk_size});
  }
  RunInfo info;
  info.kind = run_kind_label(run, points);
  info.threads = threads;
  info.processes = group.size();
  info.part = to_string(part);
  info.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  try {
    write_result_file(out, run, info, results);
  } catch (const RuntimeFailure& e) {
    // Keep what was computed: a checkpoint of the finished run writes the result on resume.
    if (ckpt.empty()) throw;
    try {
      checkpoint_outcomes(ckpt, run, part, execution.points);
    } catch (const std::exception& second) {
      throw RuntimeFailure(fmt::format("{}; the checkpoint '{}' could not be written either: {}",
                                       e.what(), ckpt, second.what()));
    }
    throw RuntimeFailure(
        fmt::format("{}; every sample is kept in the checkpoint '{}': free the "
                    "space and resume with\n  {}",
                    e.what(), ckpt, resume_hint(options, out, ckpt, part)));
  }
  if (!ckpt.empty()) std::remove(ckpt.c_str());
  if (!options.quiet) {
    print_table(results);
    fmt::print("wrote {} ({} points, {:.2f} s, {} threads{}{})\n", out, results.size(),
               info.wall_time_s, threads,
               group.size() > 1 ? fmt::format(" x {} processes", group.size()) : "",
               part.whole() ? "" : ", part " + to_string(part));
  }
  return exit_code::kSuccess;
}

}  // namespace collnoise
