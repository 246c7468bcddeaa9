#pragma once
// collnoise plot RESULT: the figures of a result file, drawn by the Python package collnoise
// (python/collnoise/plot.py) with the interpreter found when collnoise was configured (the one
// with h5py, numpy, pandas and matplotlib; docs/python.md).
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace collnoise {

struct PlotOptions {
  std::vector<std::string> results;
  std::string out;         ///< a folder, or a file ending in .png, .pdf or .svg; empty: "."
  std::string format;      ///< png, pdf or svg; empty: the --out file's extension, else png
  bool no_verify = false;  ///< read the results without checking their checksums
};

/// Adds the `plot` subcommand to the command line; `options` receives its values.
CLI::App* add_plot_command(CLI::App& app, PlotOptions& options);

/// Runs `python -m collnoise.plot` with the package on PYTHONPATH (the source tree's python/
/// when started from the build directory, else the installed one beside the executable) and
/// returns its exit code: 0 done, 1 a file could not be written or Python could not be started,
/// 2 bad input (a damaged result among them: Python checks each checksum before reading).
int plot_command(const PlotOptions& options);

/// Runs `python -m <module_and_args>` as plot_command does, and returns its exit code (1 when
/// Python could not be started or was stopped by a signal). A stop request (core/stop_request.hpp)
/// before or while Python runs is passed on to it as SIGTERM, waited for, and thrown as
/// StopRequested, unless Python had finished its work (exit 0).
int run_python_module(const std::vector<std::string>& module_and_args);

}  // namespace collnoise
