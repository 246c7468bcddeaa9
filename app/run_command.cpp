#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/interrupt.hpp"
#include "app/messages.hpp"
#include "app/output_guard.hpp"
#include "app/progress.hpp"
#include "app/shipped_runs.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/memory_limit.hpp"
#include "core/process_group.hpp"
#include "core/stop_request.hpp"
#include "outputs/atomic_file.hpp"
#include "outputs/checkpoint.hpp"
#include "outputs/file_seal.hpp"
#include "outputs/result_file.hpp"
#include "outputs/summary_report.hpp"
#include "runs/point_factory.hpp"
#include "runs/precision_target.hpp"
#include "runs/prediction.hpp"
#include "runs/presentation.hpp"
#include "runs/progress_tracker.hpp"
#include "runs/run_executor.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"
#include "runs/work_estimate.hpp"

namespace collnoise {

std::string default_output_path(const std::string& run_name) {
  return run_name + ".h5";
}

namespace {

std::string run_kind_label(const RunSpec& run, const std::vector<PreparedPoint>& points) {
  if (run.kind != kSampleRunKind) return run.kind;
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
  if (!part.whole() && run.kind != kSampleRunKind)
    throw InputError(
        fmt::format("--part: a {} run has no samples to share out (run it whole)", run.kind));
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

// The files the run reads; the checkpoint it resumes from is listed apart, since the run's own
// checkpoint may (and by default does) replace it.
std::vector<RolePath> run_inputs(const RunOptions& options,
                                 const std::vector<PreparedPoint>& points) {
  std::vector<RolePath> inputs = {{"the run file", options.run_file}};
  for (const auto& p : points)
    for (const auto& f : p.input_files) inputs.push_back({"the data file", f.path});
  return inputs;
}

// A path as a shell word: as it is when it holds only characters the shell takes literally.
std::string shell_word(const std::string& path) {
  const bool plain = !path.empty() && std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./:=@%+-,", c);
  });
  if (plain) return path;
  std::string quoted = "'";
  for (const char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The command line that runs this run again: the run file, --out, the checkpoint when not the
// default, the part and the seed when given.
// A run file from a pipe cannot be named again: the command says RUN_FILE, and pipe_note() asks
// for the same text once more.
std::string rerun_command(const RunOptions& options, const RunSpec& run, const std::string& out,
                          const std::string& ckpt, const PartSpec& part) {
  std::string command = fmt::format(
      "collnoise run {} --out {}",
      run.from_pipe ? std::string("RUN_FILE") : shell_word(options.run_file), shell_word(out));
  if (!ckpt.empty() && ckpt != out + ".ckpt") command += " --checkpoint " + shell_word(ckpt);
  if (!part.whole()) command += " --part " + to_string(part);
  if (options.seed) command += fmt::format(" --seed {}", *options.seed);
  return command;
}

std::string pipe_note(const RunOptions& options, const RunSpec& run) {
  if (!run.from_pipe) return "";
  return fmt::format(
      " (RUN_FILE: the run file came from the pipe '{}': give its same text again, from a file or "
      "a pipe)",
      options.run_file);
}

std::string resume_hint(const RunOptions& options, const RunSpec& run, const std::string& out,
                        const std::string& ckpt, const PartSpec& part) {
  return rerun_command(options, run, out, ckpt, part) + " --resume " + shell_word(ckpt) +
         pipe_note(options, run);
}

// A run writes its checkpoint only where nothing is or a checkpoint of itself that it may
// replace: the one it resumes, or one --restart discards. Anything else there is kept, --force
// or not (--force overwrites a finished result, never a checkpoint).
void check_checkpoint_path(const RunOptions& options, const RunSpec& run,
                           const RunIdentity& identity, const std::string& out,
                           const std::string& ckpt, const PartSpec& part) {
  if (!options.resume.empty() && same_file(options.resume, ckpt)) {
    if (options.restart)
      throw InputError(fmt::format(
          "--restart discards the checkpoint '{}' that --resume resumes: give one of them", ckpt));
    return;  // reading it refuses a checkpoint of another run or of other data
  }
  using Kind = CheckpointAtPath::Kind;
  const CheckpointAtPath found =
      inspect_checkpoint_path(ckpt, identity, read_options(!options.no_verify));
  const std::string held =
      found.chunks ? fmt::format("{} chunks", *found.chunks) : std::string("the samples");
  switch (found.kind) {
    case Kind::kNothing:
      return;
    case Kind::kOtherFile:
      throw InputError(fmt::format(
          "the checkpoint '{}' is {}: a run writes its checkpoint only where nothing is or a "
          "checkpoint of its own, so it is kept{}; name another --checkpoint, or move it away",
          ckpt, found.description,
          options.force ? " (--force overwrites a finished result, never this)" : ""));
    case Kind::kOtherRun:
      throw InputError(fmt::format(
          "the checkpoint '{}' holds {} of another run ({}), not of this one ({}): it is kept; "
          "give this run another --checkpoint or --out, or move that checkpoint away",
          ckpt, held, found.description, describe_run(identity)));
    case Kind::kThisRun:
      break;
  }
  const std::string resumed =
      options.resume.empty() ? std::string() : " --resume " + shell_word(options.resume);
  if (!options.restart)
    throw InputError(fmt::format(
        "the checkpoint '{}' holds {} of this run{}; resume it with: {}; or discard it and start "
        "again with: {}",
        ckpt, held,
        options.resume.empty() ? ""
                               : fmt::format(", which resuming '{}' would replace", options.resume),
        resume_hint(options, run, out, ckpt, part),
        rerun_command(options, run, out, ckpt, part) + resumed + " --restart" +
            pipe_note(options, run)));
  std::error_code ignored;
  std::filesystem::remove(ckpt, ignored);
  print_note(fmt::format("discarded the checkpoint '{}' of this run ({}): --restart", ckpt, held));
}

// Rank 0 guards the outputs (its file system view decides); the verdict is shared so that every
// process agrees. Returns rank 0's guard (empty elsewhere).
std::optional<OutputGuard> guard_run_outputs(const RunOptions& options, const RunSpec& run,
                                             const std::vector<PreparedPoint>& points,
                                             const std::string& out, const std::string& ckpt,
                                             const PartSpec& part, const ProcessGroup& group) {
  std::optional<OutputGuard> guard;
  std::string error;
  if (group.is_root()) {
    try {
      std::vector<RolePath> outputs = {{"--out", out}};
      if (!ckpt.empty()) outputs.push_back({"the checkpoint", ckpt});
      const std::vector<RolePath> inputs = run_inputs(options, points);
      if (!options.resume.empty()) {
        if (!std::filesystem::exists(options.resume))
          throw InputError(fmt::format("--resume: checkpoint '{}' does not exist", options.resume));
        // Before anything opens it: a FIFO would block the run, a device be read without end.
        refuse_unless_regular_file(options.resume,
                                   fmt::format("--resume: checkpoint '{}'", options.resume),
                                   kCollnoiseFileRule);
        // The result may not replace the checkpoint being resumed (the checkpoint may).
        const RolePath resumed[] = {{"the checkpoint resumed", options.resume}};
        refuse_path_conflicts(resumed, std::span(outputs).first(1));
      }
      guard.emplace(inputs, outputs, options.force, print_note, !options.without_integrity);
      // Under the locks: no other run writes the checkpoint while it is looked at.
      if (!ckpt.empty())
        check_checkpoint_path(options, run, run_identity(run, to_string(part), points), out, ckpt,
                              part);
    } catch (const InputError& e) {
      error = std::string("I") + e.what();
    } catch (const std::exception& e) {
      // A lock file that cannot be written (a full disk): the machine's fault, exit 1.
      error = std::string("R") + e.what();
    }
  }
  const auto error_bytes = std::as_bytes(std::span(error));
  Bytes message(error_bytes.begin(), error_bytes.end());
  message = group.broadcast_from_root(std::move(message));
  if (message.empty()) return guard;
  // The first byte says which kind of failure the rest of the message is.
  std::string text(reinterpret_cast<const char*>(message.data()) + 1, message.size() - 1);
  if (static_cast<char>(message.front()) == 'R') throw RuntimeFailure(std::move(text));
  throw InputError(std::move(text));
}

// ", 30000 samples" (", up to ..." with precision targets, which may stop earlier); nothing for a
// run of analyses.
std::string samples_text(std::uint64_t samples, bool precision_targets) {
  if (samples == 0) return "";
  return fmt::format(", {}{} samples", precision_targets ? "up to " : "", samples);
}

// Every point of a small run; of a large sweep, the costliest few (the rest would bury them).
void print_costliest_points(const RunEstimate& estimate) {
  constexpr std::size_t kShown = 20;
  std::vector<std::size_t> order(estimate.points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order.size() > kShown) {
    std::partial_sort(order.begin(), order.begin() + kShown, order.end(),
                      [&](std::size_t a, std::size_t b) {
                        return estimate.points[a].core_seconds > estimate.points[b].core_seconds;
                      });
    order.resize(kShown);
    fmt::print("  the {} costliest of {} points:\n", kShown, estimate.points.size());
  }
  for (const std::size_t i : order)
    fmt::print("  point {}: {}, {}\n", i, describe_core_seconds(estimate.points[i].core_seconds),
               describe_bytes(estimate.points[i].bytes));
}

int report_interruption(const Execution& execution, const RunOptions& options, const RunSpec& run,
                        const std::string& out, const std::string& ckpt, const PartSpec& part) {
  const int signal = stop_signal();
  if (execution.chunks_total == 0) {
    print_message(fmt::format(
        "interrupted by signal {}; nothing was kept: this run has no samples to checkpoint (its "
        "analyses are computed again when it is run again)",
        signal));
  } else if (ckpt.empty()) {
    print_message(
        fmt::format("interrupted by signal {}; nothing was kept (--no-checkpoint): {} "
                    "of {} chunks were done in this run",
                    signal, execution.chunks_done, execution.chunks_total));
  } else if (execution.checkpoint_written) {
    print_message(fmt::format(
        "interrupted by signal {}; checkpoint '{}' holds {} of {} chunks; resume with: {}", signal,
        ckpt, execution.chunks_done, execution.chunks_total,
        resume_hint(options, run, out, ckpt, part)));
  } else if (execution.chunks_in_checkpoint > 0) {
    print_message(fmt::format(
        "interrupted by signal {}; the checkpoint could not be written ({}), but the previous "
        "checkpoint '{}' stays valid with {} of {} chunks; resume with: {}",
        signal, execution.checkpoint_error, ckpt, execution.chunks_in_checkpoint,
        execution.chunks_total, resume_hint(options, run, out, ckpt, part)));
  } else {
    print_message(fmt::format(
        "interrupted by signal {}; nothing was kept: the checkpoint '{}' could not be written ({})",
        signal, ckpt, execution.checkpoint_error));
  }
  return exit_code::kInterrupted;
}

// A finished run whose result cannot be written (a full disk, a quota) is kept in a checkpoint:
// the run's own, or else one in the temporary directory; resuming from it writes the result
// without sampling again. If neither can be written, the message says what is lost.
[[noreturn]] void keep_finished_run(const RuntimeFailure& failure, const RunOptions& options,
                                    const RunSpec& run, const std::vector<PreparedPoint>& points,
                                    const PartSpec& part, const std::string& out,
                                    const std::string& ckpt,
                                    const std::vector<PointOutcome>& outcomes) {
  std::vector<std::string> candidates;
  std::vector<std::string> tried;
  if (!ckpt.empty()) candidates.push_back(ckpt);
  const char* tmpdir = std::getenv("TMPDIR");
  candidates.push_back(fmt::format("{}/{}-{}-{}.ckpt", tmpdir && *tmpdir ? tmpdir : "/tmp",
                                   run.name, host_name(), static_cast<long>(::getpid())));
  for (const auto& where : candidates) {
    try {
      checkpoint_outcomes(where, run, points, part, outcomes);
    } catch (const RuntimeFailure& second) {
      tried.push_back(fmt::format("'{}': {}", where, second.what()));
      continue;
    }
    throw RuntimeFailure(fmt::format(
        "{}; the finished run is kept in the checkpoint '{}': free the space and write the "
        "result with: {}",
        failure.what(), where, resume_hint(options, run, out, where, part)));
  }
  throw RuntimeFailure(fmt::format(
      "{}; the finished run could not be kept in a checkpoint either ({}): its samples are lost, "
      "run it again",
      failure.what(), fmt::join(tried, "; ")));
}

// The phases of run_command, in its order.

/// The options with the run file located: a bare name runs the shipped run file of that name
/// (app/shipped_runs.hpp); from here on the run file is its path, in messages and resume hints
/// too.
RunOptions with_located_run_file(const RunOptions& given) {
  RunOptions options = given;
  options.run_file = locate_run_file(given.run_file);
  if (options.run_file != given.run_file && !options.quiet && !options.validate_only)
    print_note(fmt::format("running the shipped run file {}", options.run_file));
  return options;
}

/// The threads of each process: by default the processes on one machine share its cores.
int threads_per_process(const RunOptions& options, const ProcessGroup& group) {
  return options.threads > 0 ? options.threads
                             : std::max(1, omp_get_max_threads() / group.local_size());
}

/// The run's estimate, refused (before anything runs) beyond the limits of time and memory.
RunEstimate estimate_within_limits(const RunOptions& options, const RunSpec& run,
                                   const std::vector<PreparedPoint>& points, const PartSpec& part,
                                   int threads, int cores) {
  const RunEstimate estimate = estimate_run(
      run, points, threads, part.whole() ? 1.0 : 1.0 / static_cast<double>(part.count));
  check_work_limits(run, points, estimate,
                    work_limits(run, options.max_core_hours, options.max_memory_gib, cores));
  return estimate;
}

/// The line that says what the run will do: its points, samples, work and memory.
std::string describe_work(const RunSpec& run, const std::vector<PreparedPoint>& points,
                          const ProgressTracker& tracker, const RunEstimate& estimate, int cores) {
  return fmt::format("{} points{}; estimated work {} (about {} on {} cores), memory {}",
                     points.size(), samples_text(tracker.total_samples(), run.precision.enabled),
                     describe_core_seconds(estimate.core_seconds),
                     describe_duration(estimate.core_seconds / cores), cores,
                     describe_bytes(estimate.peak_bytes));
}

/// The progress shown on stderr, by rank 0 for every process (none elsewhere), started with the
/// work line; without a display the line is a note unless --quiet.
std::unique_ptr<ProgressDisplay> start_progress(const RunOptions& options,
                                                const ProgressTracker& tracker, int cores,
                                                const std::string& work_line,
                                                const ProcessGroup& group) {
  const ProgressMode mode =
      group.is_root() ? progress_mode(options.progress, options.quiet, ::isatty(STDERR_FILENO) != 0)
                      : ProgressMode::kNone;
  std::unique_ptr<ProgressDisplay> display =
      progress_on_stderr(tracker, mode, options.progress_every_s, cores);
  if (display)
    display->start(work_line);
  else if (!options.quiet)
    print_note(work_line);
  return display;
}

/// How the points are sampled: threads, part, checkpoints, resume, verification, the stop
/// request, progress, and where warnings and notes go (through `display`, when there is one,
/// which clears the bar first).
ExecutionOptions execution_options(const RunOptions& options, int threads, const PartSpec& part,
                                   const std::string& ckpt, ProgressTracker& tracker,
                                   ProgressDisplay* display) {
  ExecutionOptions exec;
  exec.threads = threads;
  exec.part = part;
  exec.checkpoint_path = ckpt;
  exec.checkpoint_interval_s = options.checkpoint_every_s;
  exec.resume_path = options.resume;
  exec.read = read_options(!options.no_verify && !options.without_integrity);
  if (options.without_integrity) skip_seals_for_benchmark();
  exec.stop_requested = [] { return InterruptHandlers::requested(); };
  exec.progress = &tracker;
  exec.warn = print_warning;
  if (display) {
    exec.warn = [display](const std::string& message) {
      display->message("collnoise: warning: " + one_line(message));
    };
    exec.read.note = [display](const std::string& message) {
      display->message("collnoise: note: " + one_line(message));
    };
  }
  if (options.interrupt_after_chunks > 0)
    exec.after_round = [after = options.interrupt_after_chunks](std::uint64_t chunks) {
      if (chunks == after) std::raise(SIGINT);
    };
  return exec;
}

/// Rank 0's end of a finished run: the result file written (or the run kept in a checkpoint when
/// it cannot be), the checkpoint removed, the summary table and the line naming the result.
int write_finished_run(std::chrono::steady_clock::time_point start, const RunOptions& options,
                       const RunSpec& run, const std::vector<PreparedPoint>& points,
                       const PartSpec& part, const std::string& out, const std::string& ckpt,
                       int threads, const ProcessGroup& group, Execution& execution) {
  std::vector<PointResult> results;
  for (std::size_t i = 0; i < points.size(); ++i) {
    PointOutcome& o = execution.points[i];
    results.push_back(
        point_result(points[i], o.summary, o.tally ? &*o.tally : nullptr, o.chunk_size));
    results.back().wall_time_s = o.wall_time_s;
  }
  RunInfo info;
  info.kind = run_kind_label(run, points);
  info.threads = threads;
  info.processes = group.size();
  info.part = to_string(part);
  info.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // A part's points hold its share of the samples only: the merge predicts from the whole.
  const std::vector<PredictionResult> predictions =
      part.whole() ? predictions_of(run, points, results) : std::vector<PredictionResult>{};
  try {
    write_result_file(out, run_identity(run, info.part, points), info, results, predictions);
  } catch (const RuntimeFailure& failure) {
    keep_finished_run(failure, options, run, points, part, out, ckpt, execution.points);
  }
  if (!ckpt.empty()) std::remove(ckpt.c_str());
  if (!options.quiet) {
    fmt::print("{}", summary_table(results));
    fmt::print("{}", prediction_table(predictions, results));
    fmt::print("wrote {} ({} points, {:.2f} s, {} threads{}{})\n", out, results.size(),
               info.wall_time_s, threads,
               group.size() > 1 ? fmt::format(" x {} processes", group.size()) : "",
               part.whole() ? "" : ", part " + to_string(part));
  }
  if (stop_requested())
    print_note(fmt::format("signal {} arrived after the result was complete: '{}' is whole",
                           stop_signal(), out));
  return exit_code::kSuccess;
}

}  // namespace

int run_command(const RunOptions& given) {
  const auto start = std::chrono::steady_clock::now();
  const RunOptions options = with_located_run_file(given);
  const ProcessGroup& group = ProcessGroup::world();
  // A stop request (its handlers are main's) during the preparation of large points is
  // honoured too.
  const PartSpec part = options.part.empty() ? PartSpec{} : parse_part(options.part);
  const RunSpec run = load_run_file(options.run_file, options.seed);
  // Reading and validating GOAL files comes before the estimate: it keeps to the limit itself.
  set_memory_limit(work_limits(run, 0.0, options.max_memory_gib, 1).max_bytes);
  const std::vector<PreparedPoint> points = prepare_points(run);
  check_combination(run, points, part);
  const int threads = threads_per_process(options, group);
  const int cores = threads * group.size();
  const RunEstimate estimate = estimate_within_limits(options, run, points, part, threads, cores);
  ProgressTracker tracker(progress_points(run, points, estimate, part));
  const std::string work_line = describe_work(run, points, tracker, estimate, cores);
  if (options.validate_only) {
    if (group.is_root()) {
      fmt::print("{}: valid; {}\n", options.run_file, work_line);
      print_costliest_points(estimate);
    }
    return exit_code::kSuccess;
  }
  const std::string out = output_path(options, run, part);
  const std::string ckpt = options.no_checkpoint
                               ? std::string()
                               : (options.checkpoint.empty() ? out + ".ckpt" : options.checkpoint);
  const std::optional<OutputGuard> guard =
      guard_run_outputs(options, run, points, out, ckpt, part, group);

  const std::unique_ptr<ProgressDisplay> display =
      start_progress(options, tracker, cores, work_line, group);
  const ExecutionOptions exec =
      execution_options(options, threads, part, ckpt, tracker, display.get());
  if (display) display->run_in_background();
  Execution execution = execute_run(run, points, exec, group);
  if (display) display->finish(!execution.interrupted);

  if (execution.interrupted) {
    if (!group.is_root()) return exit_code::kInterrupted;
    return report_interruption(execution, options, run, out, ckpt, part);
  }
  if (!group.is_root()) return exit_code::kSuccess;
  return write_finished_run(start, options, run, points, part, out, ckpt, threads, group,
                            execution);
}

}  // namespace collnoise
