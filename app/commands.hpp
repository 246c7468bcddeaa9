#pragma once
// The subcommands of the collnoise command line; each returns an exit code (exit_codes.hpp).
#include <cstdint>
#include <optional>
#include <string>

namespace collnoise {

struct RunOptions {
  std::string run_file;
  std::string out;  ///< empty: <name>.h5 in the current directory
  int threads = 0;  ///< 0: all cores
  std::optional<std::uint64_t> seed;
  bool quiet = false;
  bool force = false;
};

int run_command(const RunOptions& options);
int summary_command(const std::string& path, bool json);

/// The default output path of a run: "<name>.h5" in the current directory.
std::string default_output_path(const std::string& run_name);

}  // namespace collnoise
