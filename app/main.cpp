// collnoise: Monte Carlo engine for the impact of noise on collective operations.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "collnoise_version.hpp"
#include "engine/errors.hpp"

int main(int argc, char** argv) {
  using namespace collnoise;
  CLI::App app{"collnoise: how noise slows collective operations at scale"};
  app.set_version_flag("--version", fmt::format("collnoise {} ({})", kEngineVersion, kGitSha));
  app.require_subcommand(1);

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "run a run file and write its HDF5 result");
  run_cmd->add_option("RUNFILE", run.run_file, "run file (TOML)")->required();
  run_cmd->add_option("--out", run.out, "result file (default: <name>.h5)");
  run_cmd->add_option("--threads", run.threads, "threads (default: all cores)")
      ->check(CLI::NonNegativeNumber);
  run_cmd->add_option("--seed", run.seed, "override the run file's seed");
  run_cmd->add_flag("--quiet", run.quiet, "no progress and no table");
  run_cmd->add_flag("--force", run.force, "overwrite an existing result file");

  std::string summary_path;
  bool json = false;
  auto* summary_cmd = app.add_subcommand("summary", "print the results of a result file");
  summary_cmd->add_option("PATH", summary_path, "result file")->required();
  summary_cmd->add_flag("--json", json, "JSON instead of a table");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? exit_code::kSuccess : exit_code::kBadInput;
  }
  try {
    if (*run_cmd) return run_command(run);
    return summary_command(summary_path, json);
  } catch (const InputError& e) {
    fmt::print(stderr, "collnoise: error: {}\n", e.what());
    return exit_code::kBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "collnoise: failure: {}\n", e.what());
    return exit_code::kRuntimeFailure;
  }
}
