// collnoise: Monte Carlo engine for the impact of noise on collective operations.
#include <fmt/format.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <system_error>

#include "app/calibrate_command.hpp"
#include "app/cli_values.hpp"
#include "app/commands.hpp"
#include "app/compare_command.hpp"
#include "app/exit_codes.hpp"
#include "app/interrupt.hpp"
#include "app/messages.hpp"
#include "app/plot_command.hpp"
#include "app/timeline_command.hpp"
#include "collnoise_version.hpp"
#include "core/cpu_features.hpp"
#include "core/errors.hpp"
#include "core/process_group.hpp"
#include "core/stop_request.hpp"
#include "core/thread_policy.hpp"
#include "outputs/hdf5.hpp"
#include "runs/reference_docs.hpp"

namespace {

using namespace collnoise;

void add_run_options(CLI::App& cmd, RunOptions& run, std::string& seed_text) {
  cmd.add_option("RUNFILE", run.run_file, "run file (TOML)")->required();
  cmd.add_option("--out", run.out, "result file (default: <name>.h5, <name>.part<i>of<n>.h5)");
  cmd.add_option(
         "--threads", run.threads,
         "threads per process (default: the cores, shared among the processes on a machine)")
      ->check(whole_number_in(0, 4096));
  cmd.add_option("--seed", seed_text, "override the run file's seed, an integer in [0, 2^64)");
  cmd.add_option("--part", run.part, "i/n: sample only part i of n (job arrays; merge after)");
  cmd.add_option("--resume", run.resume, "continue from this checkpoint (same run file and seed)");
  cmd.add_option("--checkpoint", run.checkpoint, "checkpoint file (default: <out>.ckpt)");
  cmd.add_flag("--restart", run.restart,
               "discard a checkpoint of this run found at the checkpoint path and start again");
  cmd.add_option("--checkpoint-every", run.checkpoint_every_s,
                 "seconds between checkpoints (default 600; also on SIGINT, SIGTERM, SIGUSR1)")
      ->check(number_in(0.0, 1.0e7));
  cmd.add_flag("--no-checkpoint", run.no_checkpoint, "never write checkpoints");
  cmd.add_flag("--no-verify", run.no_verify,
               "read the checkpoint resumed from without checking its checksum");
  cmd.add_flag("--validate-only", run.validate_only,
               "check the run file and estimate its work and memory; sample nothing");
  cmd.add_option("--max-core-hours", run.max_core_hours,
                 "refuse a run estimated to take more (default: 30 days of the cores in use)")
      ->check(number_in(1e-6, 1e12));
  add_max_memory_option(cmd, run.max_memory_gib, "a run");
  cmd.add_flag("--quiet", run.quiet, "no progress (unless --progress) and no table");
  cmd.add_option("--progress", run.progress,
                 "auto (default: a bar on a terminal, timestamped lines otherwise), none, bar or "
                 "lines")
      ->check(CLI::IsMember({"auto", "none", "bar", "lines"}));
  cmd.add_option("--progress-every", run.progress_every_s,
                 "seconds between progress lines (default 60)")
      ->check(number_in(1.0e-3, 1.0e7));
  cmd.add_flag("--force", run.force, "overwrite an existing result file");
  // Testing only: interrupt the run the way a signal would, after this many chunks.
  cmd.add_option("--interrupt-after-chunks", run.interrupt_after_chunks)->group("");
  // Benchmarks only (bench/integrity_overhead.sh): no locks, no seals, no checksum checks, to
  // measure what they cost with the same binary.
  cmd.add_flag("--bench-without-integrity", run.without_integrity)->group("");
}

// A command's output may still sit in stdout's buffer when it returns: flushed here, so that a
// standard output that cannot be written (a full disk, /dev/full) is a failure (exit 1, one
// line), never a silent exit 0.
int checked_stdout(int code, const ProcessGroup& group) {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
  const int error = errno;
  std::clearerr(stdout);
  if (group.is_root())
    fmt::print(stderr, "collnoise: failure: could not write standard output: {}\n",
               error != 0 ? std::strerror(error) : "a write failed");
  return code == exit_code::kSuccess ? exit_code::kRuntimeFailure : code;
}

// The last resort for a failure: one line, and the other processes of an MPI run stopped (they
// would wait for this one). Allocates nothing (out of memory, a std::string may not be had).
int report_failure(const ProcessGroup& group, const char* what) {
  if (group.size() > 1)
    std::fprintf(stderr, "collnoise: failure on process %d: %s\n", group.rank(), what);
  else
    std::fprintf(stderr, "collnoise: failure: %s\n", what);
  if (group.size() > 1) group.abort(exit_code::kRuntimeFailure);
  return exit_code::kRuntimeFailure;
}

// A std::bad_alloc that cannot reach main's catch ends in std::terminate: one thrown in a
// destructor (nlohmann::json's allocates to free a tree: a trace's JSON tree freed while an
// allocation failure unwound made exit 134), in an OpenMP region or in a thread. It is still
// exit 1 with one line; any other exception goes to the previous handler (which aborts).
std::terminate_handler g_previous_terminate = nullptr;

[[noreturn]] void on_terminate() {
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      static constexpr char kLine[] = "collnoise: failure: out of memory\n";
      [[maybe_unused]] const auto written = ::write(STDERR_FILENO, kLine, sizeof kLine - 1);
      std::_Exit(exit_code::kRuntimeFailure);
    } catch (...) {
    }
  }
  if (g_previous_terminate != nullptr) g_previous_terminate();
  std::abort();
}

std::string version_text() {
  return fmt::format("collnoise {} ({}), MPI: {}\n{}", kEngineVersion, kGitSha,
                     ProcessSession::mpi_built() ? ProcessSession::mpi_library() : "not built in",
                     kernel_report());
}

// `collnoise schedule`: list the built-in algorithms, or write one as a GOAL file.
CLI::App* add_schedule_command(CLI::App& app, ScheduleOptions& schedule) {
  auto* schedule_cmd = app.add_subcommand(
      "schedule", "list the built-in algorithms, or write one as a GOAL file for LogGOPSim");
  schedule_cmd->add_flag("--list", schedule.list, "list the built-in algorithms");
  schedule_cmd->add_option("ALGORITHM", schedule.algorithm, "a built-in algorithm");
  schedule_cmd->add_option("--ranks", schedule.ranks, "ranks")
      ->check(whole_number_in(1, 2147483647));
  schedule_cmd->add_option("--bytes", schedule.message_bytes, "the message, bytes (default 8)")
      ->check(whole_number_in(0, std::uint64_t{1} << 40));
  schedule_cmd
      ->add_option("--k", schedule.k,
                   "radix of knomial_broadcast, n + 1 of nway_dissemination (default 2)")
      ->check(whole_number_in(2, 65536));
  schedule_cmd->add_option("--segments", schedule.segments, "pieces of ring_allreduce's chunks")
      ->check(whole_number_in(1, 65536));
  schedule_cmd->add_option("--receives", schedule.receives, "in_order (default) or preposted")
      ->check(CLI::IsMember({"in_order", "preposted"}));
  schedule_cmd->add_option("--compute", schedule.compute,
                           "true (default) or false: nway_dissemination's reductions take the "
                           "message's bytes in ns, or 0");
  schedule_cmd->add_option("--goal", schedule.goal, "the GOAL file to write");
  schedule_cmd->add_flag("--force", schedule.force, "overwrite an existing GOAL file");
  add_max_memory_option(*schedule_cmd, schedule.max_memory_gib, "a schedule");
  return schedule_cmd;
}

// Runs the chosen command under the interrupt handlers: every failure it meets ends as one line
// on stderr (rank 0's, where all processes meet it) and the exit code docs/cli.md gives it.
template <class Command>
int run_reporting_failures(const Command& command, const ProcessGroup& group) {
  try {
    // Every command stops on SIGINT, SIGTERM and SIGUSR1 the same way: its long phases poll the
    // request and it exits 3 saying what was kept (docs/cli.md).
    const InterruptHandlers handlers;
    return checked_stdout(command(), group);
  } catch (const InputError& e) {
    // Every process meets the same bad input (each reads the run file; rank 0's own checks are
    // shared), so all of them stop here; one says why.
    if (group.is_root()) fmt::print(stderr, "collnoise: error: {}\n", one_line(e.what()));
    return exit_code::kBadInput;
  } catch (const StopRequested&) {
    if (group.is_root())
      fmt::print(stderr,
                 "collnoise: interrupted by signal {} before anything could be kept: nothing was "
                 "written\n",
                 stop_signal());
    return exit_code::kInterrupted;
  } catch (const std::bad_alloc&) {
    return report_failure(group, "out of memory");
  } catch (const std::system_error& e) {
    // fmt::print throws this when stdout cannot be written (so does std::filesystem, for its
    // own failures).
    if (std::ferror(stdout)) {
      std::clearerr(stdout);
      return report_failure(group,
                            ("could not write standard output: " + e.code().message()).c_str());
    }
    return report_failure(group, one_line(e.what()).c_str());
  } catch (const std::exception& e) {
    return report_failure(group, one_line(e.what()).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  adopt_default_openmp_wait(argv);  // threads that sleep when they wait (core/thread_policy.hpp)
  // A file-size limit (ulimit -f) makes writes fail with EFBIG, reported like a full disk,
  // instead of killing the process with SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  g_previous_terminate = std::set_terminate(on_terminate);
  const ProcessSession session(argc, argv);
  const ProcessGroup& group = ProcessGroup::world();
  CLI::App app{"collnoise: how noise slows collective operations at scale"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("--verbose", verbose, "HDF5's own error stack with every HDF5 failure");

  RunOptions run;
  std::string seed_text;
  auto* run_cmd = app.add_subcommand("run", "run a run file and write its HDF5 result");
  add_run_options(*run_cmd, run, seed_text);

  SummaryOptions summary;
  auto* summary_cmd = app.add_subcommand("summary", "print the results of a result file");
  summary_cmd->add_option("PATH", summary.path, "result file")->required();
  summary_cmd->add_flag("--json", summary.json, "JSON instead of a table");
  summary_cmd->add_flag("--no-verify", summary.no_verify,
                        "read the file without checking its checksum");

  MergeOptions merge;
  auto* merge_cmd = app.add_subcommand("merge", "merge the parts of a job array into one result");
  merge_cmd->add_option("PARTS", merge.parts, "part result files (all n of them)")->required();
  merge_cmd->add_option("--out", merge.out, "merged result file")->required();
  merge_cmd->add_flag("--force", merge.force, "overwrite an existing result file");
  merge_cmd->add_flag("--quiet", merge.quiet, "no table");
  merge_cmd->add_flag("--no-verify", merge.no_verify,
                      "read the parts without checking their checksums");

  ScheduleOptions schedule;
  auto* schedule_cmd = add_schedule_command(app, schedule);

  std::vector<std::string> verify_paths;
  auto* verify_cmd =
      app.add_subcommand("verify", "check the checksums of result and checkpoint files");
  verify_cmd->add_option("FILES", verify_paths, "files to check")->required();

  PlotOptions plot;
  auto* plot_cmd = add_plot_command(app, plot);

  TimelineOptions timeline;
  auto* timeline_cmd = add_timeline_command(app, timeline);

  CompareOptions compare;
  auto* compare_cmd = add_compare_command(app, compare);

  CalibrateOptions calibrate;
  auto* calibrate_cmd = add_calibrate_command(app, calibrate);

  // Hidden: for maintainers, writes docs/reference/ from the registries (runs/reference_docs.hpp).
  std::string reference_dir;
  std::string python_fields;
  auto* reference_cmd =
      app.add_subcommand("reference", "write the reference tables of docs/reference/")->group("");
  reference_cmd->add_option("DIR", reference_dir, "the directory to write")->required();
  reference_cmd->add_option("--python", python_fields,
                            "also write the Python package's list of summary fields here");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print what they ask for; a bad command line is one error line.
    if (e.get_exit_code() == 0) {
      if (group.is_root()) app.exit(e);
      return exit_code::kSuccess;
    }
    if (group.is_root())
      fmt::print(stderr, "collnoise: error: {} (collnoise --help lists the options)\n",
                 one_line(e.what()));
    return exit_code::kBadInput;
  }
  h5::set_verbose(verbose);
  const auto dispatch = [&]() -> int {
    if (ProcessSession::launched_without_mpi_support())
      throw InputError(
          "started as one of several MPI processes, but this collnoise was built without MPI: "
          "every process would run the whole run; rebuild with libopenmpi-dev installed "
          "(COLLNOISE_MPI=ON), or run one process");
    if (*run_cmd) {
      if (!seed_text.empty()) run.seed = parse_u64(seed_text, "--seed");
      return run_command(run);
    }
    if (*merge_cmd) return merge_command(merge);
    if (*verify_cmd) return verify_command(verify_paths);
    if (*schedule_cmd) return schedule_command(schedule);
    if (*plot_cmd) return plot_command(plot);
    if (*timeline_cmd) return timeline_command(timeline);
    if (*compare_cmd) return compare_command(compare);
    if (*calibrate_cmd) return calibrate_command(calibrate);
    if (*reference_cmd) {
      write_reference_pages(reference_dir);
      if (!python_fields.empty()) write_python_fields_module(python_fields);
      return exit_code::kSuccess;
    }
    return summary_command(summary);
  };
  return run_reporting_failures(dispatch, group);
}
