#pragma once
// collnoise compare RESULT MEASURED --point P: a point's simulated times held against measured
// ones (docs/compare.md): effect sizes first (the Kolmogorov-Smirnov and Wasserstein-1 distances
// with intervals valid at zero, the KS p-value, the ratio of means), then the quantiles side by
// side with their intervals; as a table, as JSON, and as a QQ figure drawn by the Python package.
#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace collnoise {

struct CompareOptions {
  std::string result;
  std::string measured;
  std::uint64_t point = 0;
  std::string mode = "max";  ///< "max": iteration maxima vs completions; "ranks": per-rank times
  std::string unit;          ///< the measured times' unit; empty: a per-rank table's header
  std::string size;          ///< the per-rank table's rows of this message size, bytes; empty: any
  std::string confidence;    ///< a level in (0, 1); empty: the result's
  /// Seconds; > 0: both sides' times rounded to whole multiples of it before they are compared
  /// (a timer's or another simulator's resolution); 0: as they are.
  double resolution = 0.0;
  /// --mode ranks: the samples replayed for their ranks' finishing times (the first ones)
  std::uint64_t rank_samples = 100;
  bool json = false;
  std::string figure;  ///< a .png, .pdf or .svg QQ figure to draw (Python)
  bool force = false;  ///< replace an existing figure
  bool no_verify = false;
  double max_memory_gib = 0.0;  ///< refused above this estimate; 0: 80% of the machine's memory
};

/// Adds the `compare` subcommand; `options` receives its values.
CLI::App* add_compare_command(CLI::App& app, CompareOptions& options);

/// Exit 0 when compared, 2 on bad input (a damaged result, a point without raw samples, a
/// malformed measured file, a figure path that cannot be written, refused before anything is
/// computed, a comparison estimated beyond --max-memory-gib), 1 when the figure could not be drawn.
/// StopRequested (exit 3) on SIGINT, SIGTERM or SIGUSR1 in any phase, nothing left behind.
int compare_command(const CompareOptions& options);

}  // namespace collnoise
