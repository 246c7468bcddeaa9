#pragma once
// The subcommands of the collnoise command line; each returns an exit code (exit_codes.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collnoise {

struct RunOptions {
  std::string run_file;
  std::string out;  ///< empty: <name>.h5 in the current directory
  int threads = 0;  ///< 0: all cores
  std::optional<std::uint64_t> seed;
  bool quiet = false;
  std::string progress;            ///< "auto", "none", "bar", "lines"; empty: auto, none if quiet
  double progress_every_s = 60.0;  ///< seconds between progress lines (lines mode)
  bool force = false;
  std::string part;        ///< "i/n": part i of a job array of n; empty: the whole run
  std::string resume;      ///< checkpoint to resume from
  bool restart = false;    ///< discard a checkpoint of this run at the checkpoint path
  std::string checkpoint;  ///< empty: <out>.ckpt
  bool no_checkpoint = false;
  double checkpoint_every_s = 600.0;
  bool no_verify = false;       ///< read the checkpoint resumed from without checking its seal
  bool validate_only = false;   ///< check the run file, estimate, and stop before any output
  double max_core_hours = 0.0;  ///< 0: the run file's limit, or 30 days of the cores in use
  double max_memory_gib = 0.0;  ///< 0: the run file's limit, or 80% of the machine's memory
  std::uint64_t interrupt_after_chunks = 0;  ///< testing: raise SIGINT after this many chunks
  bool without_integrity = false;            ///< benchmarks: no locks, seals or checksum checks
};

struct MergeOptions {
  std::vector<std::string> parts;
  std::string out;
  bool force = false;
  bool quiet = false;
  bool no_verify = false;
};

struct SummaryOptions {
  std::string path;
  bool json = false;
  bool no_verify = false;
};

int run_command(const RunOptions& options);
int merge_command(const MergeOptions& options);
int summary_command(const SummaryOptions& options);
/// Checks the seals of files without reading them further: 0 when every file is whole, 2 when
/// one is damaged or unreadable.
int verify_command(const std::vector<std::string>& paths);

struct ScheduleOptions {
  bool list = false;
  std::string algorithm;
  std::uint32_t ranks = 0;
  std::uint64_t message_bytes = 8;
  std::uint32_t k = 2;
  std::uint32_t segments = 1;
  std::string receives = "in_order";
  bool compute = true;  ///< false: nway_dissemination's calcs are 0 ns
  std::string goal;     ///< the GOAL file to write
  bool force = false;
  double max_memory_gib = 0.0;  ///< 0: 80% of the machine's memory
};

/// Lists the built-in algorithms, or writes one as a GOAL file (docs/models/schedules.md).
int schedule_command(const ScheduleOptions& options);

/// The default output path of a run: "<name>.h5" in the current directory.
std::string default_output_path(const std::string& run_name);

}  // namespace collnoise
