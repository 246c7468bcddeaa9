#pragma once
// collnoise calibrate FILE: a machine file from a machine's Netgauge files and, when the
// calibration file names them, its measured collective tables (docs/calibration.md).
#include <string>

namespace CLI {
class App;
}

namespace collnoise {

struct CalibrateOptions {
  std::string file;  ///< the calibration file
  std::string out;   ///< empty: <name>.machine.toml in the current directory
  bool force = false;
  bool quiet = false;
  int threads = 0;  ///< 0: the calibration file's fit.threads
};

/// Adds the `calibrate` subcommand; `options` receives its values.
CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options);

/// Exit 0 when the machine file is written; 2 on bad input (the calibration file, a Netgauge
/// file, a table or a point at fault, refused before the machine file is written).
int calibrate_command(const CalibrateOptions& options);

}  // namespace collnoise
