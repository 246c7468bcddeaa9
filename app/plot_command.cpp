#include "app/plot_command.hpp"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string_view>
#include <vector>

#include "app/executable_location.hpp"
#include "app/exit_codes.hpp"
#include "app/interrupt.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/process_group.hpp"
#include "core/stop_request.hpp"

// Set by cmake/collnoiseInstall.cmake: the interpreter found at configure time with h5py, numpy,
// pandas and matplotlib (an absolute path; "python3" when none had them: then its error says
// which module is missing), the places the Python package may be installed to, relative to the
// executable's directory and separated by ':' (started from the build directory, collnoise uses
// the source tree's python/: app/executable_location.hpp).
#ifndef COLLNOISE_PLOT_PYTHON
#define COLLNOISE_PLOT_PYTHON "/usr/bin/python3"
#endif
#ifndef COLLNOISE_PYTHON_DIRS_FROM_BINDIR
#define COLLNOISE_PYTHON_DIRS_FROM_BINDIR "../lib/python3/dist-packages"
#endif

extern char** environ;

namespace collnoise {

namespace fs = std::filesystem;

namespace {

bool has_package(const fs::path& dir) {
  std::error_code error;
  return fs::is_regular_file(dir / "collnoise" / "__init__.py", error);
}

/// Where the collnoise package is: the source tree's python/ for a collnoise in its build
/// directory, else the first install location beside the executable that holds it; empty if
/// none does (the interpreter's own sys.path may still have it, e.g. /usr/lib/python3/...).
fs::path package_directory() {
  const fs::path bindir = executable_directory();
  if (bindir.empty()) return {};
  if (const fs::path source = source_tree_of_build();
      !source.empty() && has_package(source / "python"))
    return source / "python";
  std::string_view dirs = COLLNOISE_PYTHON_DIRS_FROM_BINDIR;
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const fs::path dir = (bindir / dirs.substr(0, colon)).lexically_normal();
    if (has_package(dir)) return dir;
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
  }
  return {};
}

/// This process's environment with `dir` put in front of PYTHONPATH.
std::vector<std::string> environment_with_package(const fs::path& dir) {
  std::vector<std::string> env;
  std::string python_path = dir.string();
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    if (entry.starts_with("PYTHONPATH=")) {
      const auto old = entry.substr(std::strlen("PYTHONPATH="));
      if (!old.empty() && !python_path.empty()) python_path += ":";
      python_path += old;
    } else {
      env.emplace_back(entry);
    }
  }
  if (!python_path.empty()) env.push_back("PYTHONPATH=" + python_path);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

CLI::App* add_plot_command(CLI::App& app, PlotOptions& options) {
  auto* cmd = app.add_subcommand(
      "plot", "draw the figures of a result file (Python: h5py, numpy, pandas, matplotlib)");
  cmd->add_option("RESULTS", options.results, "result files (.h5)")->required();
  cmd->add_option("--out", options.out,
                  "folder for the figures (default: .), or a file ending in .png, .pdf or .svg");
  cmd->add_option("--format", options.format, "png, pdf or svg (default: png)")
      ->check(CLI::IsMember({"png", "pdf", "svg"}));
  cmd->add_flag("--no-verify", options.no_verify,
                "read the results without checking their checksums (docs/cli.md)");
  return cmd;
}

namespace {

// A FIFO, a directory or a device named as a result is refused here, before Python starts: the
// interpreter's imports take seconds on a loaded machine, and a refusal is due at once. Said as
// the Python side says it, so `plot` has one voice, one line per such result. A missing file is
// left to Python, which names it among the results it draws.
bool results_are_regular_files(const std::vector<std::string>& results) {
  bool all_regular = true;
  for (const auto& path : results) {
    std::error_code missing;
    if (!fs::exists(path, missing)) continue;
    try {
      refuse_unless_regular_file(path, fmt::format("'{}'", path), kCollnoiseFileRule);
    } catch (const InputError& e) {
      fmt::print(stderr, "collnoise plot: error: {}\n", e.what());
      all_regular = false;
    }
  }
  return all_regular;
}

}  // namespace

int plot_command(const PlotOptions& options) {
  if (!ProcessGroup::world().is_root()) return exit_code::kSuccess;  // one process draws
  if (!results_are_regular_files(options.results)) return exit_code::kBadInput;
  std::vector<std::string> args = {"collnoise.plot"};
  if (!options.out.empty()) args.insert(args.end(), {"--out", options.out});
  if (!options.format.empty()) args.insert(args.end(), {"--format", options.format});
  if (options.no_verify) args.emplace_back("--no-verify");
  args.emplace_back("--");  // results named like options stay results
  args.insert(args.end(), options.results.begin(), options.results.end());
  return run_python_module(args);
}

int run_python_module(const std::vector<std::string>& module_and_args) {
  throw_if_stop_requested();
  const std::string python = COLLNOISE_PLOT_PYTHON;
  std::vector<std::string> args = {python, "-m"};
  args.insert(args.end(), module_and_args.begin(), module_and_args.end());
  std::vector<std::string> env = environment_with_package(package_directory());
  std::vector<char*> argv = pointers(args);
  std::vector<char*> envp = pointers(env);

  // No shell: the arguments reach Python as they are. A bare name is looked up on the PATH.
  pid_t child = 0;
  const int error =
      python.find('/') == std::string::npos
          ? posix_spawnp(&child, python.c_str(), nullptr, nullptr, argv.data(), envp.data())
          : posix_spawn(&child, python.c_str(), nullptr, nullptr, argv.data(), envp.data());
  if (error != 0) {
    fmt::print(stderr,
               "collnoise: error: cannot start {} to draw the figures: {} (install python3 with "
               "python3-h5py, python3-numpy, python3-pandas and python3-matplotlib, then "
               "configure collnoise again)\n",
               python, std::strerror(error));
    return exit_code::kRuntimeFailure;
  }
  // Polling the stop request: a signal stops Python too (it removes its temporary), and
  // collnoise exits 3, unless Python had written its figures whole by then (exit 0).
  const int status = wait_for_child(child, python.c_str());
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  fmt::print(stderr, "collnoise: failure: {} was stopped by signal {}\n", python, WTERMSIG(status));
  return exit_code::kRuntimeFailure;
}

}  // namespace collnoise
