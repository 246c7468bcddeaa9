// collnoise: Monte Carlo engine for the impact of noise on collective operations.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "collnoise_version.hpp"
#include "engine/errors.hpp"
#include "engine/process_group.hpp"

namespace {

using namespace collnoise;

void add_run_options(CLI::App& cmd, RunOptions& run) {
  cmd.add_option("RUNFILE", run.run_file, "run file (TOML)")->required();
  cmd.add_option("--out", run.out, "result file (default: <name>.h5, <name>.part<i>of<n>.h5)");
  cmd.add_option(
         "--threads", run.threads,
         "threads per process (default: the cores, shared among the processes on a machine)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--seed", run.seed, "override the run file's seed");
  cmd.add_option("--part", run.part, "i/n: sample only part i of n (job arrays; merge after)");
  cmd.add_option("--resume", run.resume, "continue from this checkpoint (same run file and seed)");
  cmd.add_option("--checkpoint", run.checkpoint, "checkpoint file (default: <out>.ckpt)");
  cmd.add_option("--checkpoint-every", run.checkpoint_every_s,
                 "seconds between checkpoints (default 600; also on SIGINT, SIGTERM, SIGUSR1)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_flag("--no-checkpoint", run.no_checkpoint, "never write checkpoints");
  cmd.add_flag("--quiet", run.quiet, "no progress and no table");
  cmd.add_flag("--force", run.force, "overwrite an existing result file");
  // Testing only: interrupt the run the way a signal would, after this many chunks.
  cmd.add_option("--interrupt-after-chunks", run.interrupt_after_chunks)->group("");
}

std::string version_text() {
  return fmt::format("collnoise {} ({}), MPI: {}", kEngineVersion, kGitSha,
                     ProcessSession::mpi_built() ? ProcessSession::mpi_library() : "not built in");
}

}  // namespace

int main(int argc, char** argv) {
  const ProcessSession session(argc, argv);
  const ProcessGroup& group = ProcessGroup::world();
  CLI::App app{"collnoise: how noise slows collective operations at scale"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "run a run file and write its HDF5 result");
  add_run_options(*run_cmd, run);

  std::string summary_path;
  bool json = false;
  auto* summary_cmd = app.add_subcommand("summary", "print the results of a result file");
  summary_cmd->add_option("PATH", summary_path, "result file")->required();
  summary_cmd->add_flag("--json", json, "JSON instead of a table");

  MergeOptions merge;
  auto* merge_cmd = app.add_subcommand("merge", "merge the parts of a job array into one result");
  merge_cmd->add_option("PARTS", merge.parts, "part result files (all n of them)")->required();
  merge_cmd->add_option("--out", merge.out, "merged result file")->required();
  merge_cmd->add_flag("--force", merge.force, "overwrite an existing result file");
  merge_cmd->add_flag("--quiet", merge.quiet, "no table");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = group.is_root() ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
    return code == 0 ? exit_code::kSuccess : exit_code::kBadInput;
  }
  try {
    if (ProcessSession::launched_without_mpi_support())
      throw InputError(
          "started as one of several MPI processes, but this collnoise was built without MPI: "
          "every process would run the whole run; rebuild with libopenmpi-dev installed "
          "(COLLNOISE_MPI=ON), or run one process");
    if (*run_cmd) return run_command(run);
    if (*merge_cmd) return merge_command(merge);
    return summary_command(summary_path, json);
  } catch (const InputError& e) {
    // Every process meets the same bad input (each reads the run file; rank 0's own checks are
    // shared), so all of them stop here; one says why.
    if (group.is_root()) fmt::print(stderr, "collnoise: error: {}\n", e.what());
    return exit_code::kBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "collnoise: failure{}: {}\n",
               group.size() > 1 ? fmt::format(" on process {}", group.rank()) : "", e.what());
    if (group.size() > 1) group.abort(exit_code::kRuntimeFailure);  // the others would wait
    return exit_code::kRuntimeFailure;
  }
}
