#include "app/shipped_runs.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <system_error>

#include "app/executable_location.hpp"
#include "core/errors.hpp"

// Set by cmake/collnoiseInstall.cmake: the path from the installed executable's directory to the
// installed run files (a collnoise started from its build directory reads the source tree's
// runs/).
#ifndef COLLNOISE_RUNS_FROM_BINDIR
#define COLLNOISE_RUNS_FROM_BINDIR "../share/collnoise/runs"
#endif

namespace collnoise {

namespace fs = std::filesystem;

namespace {

bool is_bare_name(const std::string& given) {
  return !given.empty() && given.find('/') == std::string::npos && given != "." && given != "..";
}

std::vector<std::string> run_names_in(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<fs::path> shipped_run_directories() {
  std::vector<fs::path> dirs;
  const fs::path bindir = executable_directory();
  if (bindir.empty()) return dirs;
  dirs.push_back((bindir / COLLNOISE_RUNS_FROM_BINDIR).lexically_normal());
  if (const fs::path source = source_tree_of_build(); !source.empty())
    dirs.push_back(source / "runs");
  return dirs;
}

std::string locate_run_file(const std::string& given) {
  std::error_code error;
  if (!is_bare_name(given) || fs::exists(given, error)) return given;
  const std::string file = fs::path(given).extension() == ".toml" ? given : given + ".toml";
  const std::vector<fs::path> dirs = shipped_run_directories();
  for (const auto& dir : dirs)
    if (fs::is_regular_file(dir / file, error)) return (dir / file).string();
  std::vector<std::string> looked;
  std::vector<std::string> names;
  for (const auto& dir : dirs) {
    looked.push_back((dir / file).string());
    for (auto& name : run_names_in(dir))
      if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(std::move(name));
  }
  throw InputError(fmt::format(
      "run file '{}' not found: not a file in the current directory, nor a shipped run file ({}); "
      "shipped: {}",
      given,
      looked.empty() ? "the executable's directory is unknown"
                     : fmt::format("{}", fmt::join(looked, ", ")),
      names.empty() ? "none found" : fmt::format("{}", fmt::join(names, ", "))));
}

}  // namespace collnoise
