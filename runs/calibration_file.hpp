#pragma once
// Calibration files (docs/calibration.md, "The calibration file"): TOML that tells
// `collnoise calibrate` which Netgauge run measured the machine, which keys the machine file
// holds as given, which keys to fit to which measured tables, and how.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/param_value.hpp"
#include "runs/table_fit.hpp"

namespace collnoise {

/// A measured table as the calibration file names it.
struct TableSpec {
  std::string file;                   ///< relative to the calibration file's folder, or absolute
  std::optional<std::uint64_t> size;  ///< the table rows read (MessageSize)
  std::string unit;                   ///< of a list's times; empty: the table's header gives it
  ParamMap point;                     ///< the point that simulates it ([table.collective], ...)
  int line = 0;
};

struct CalibrationFile {
  std::string path;    ///< as given
  std::string folder;  ///< relative paths are this folder's (the calibration file's)
  std::string name;    ///< the machine's
  std::uint64_t seed = 0;
  std::string netgauge;                 ///< the Netgauge run's folder, as given
  std::size_t measurement_draws = 200;  ///< [measurements] draws
  bool measurement_tails = false;       ///< [measurements] tails = "gpd" (else "none")
  double level = 0.9;                   ///< of every interval ([measurements] and [fit] level)
  ParamMap constants;                   ///< [model]: point keys the machine file holds as given
  std::vector<FreeKey> free_keys;       ///< [fit.keys]
  TableFitOptions fit;                  ///< [fit]
  std::vector<TableSpec> tables;        ///< [[table]]
};

/// Reads a calibration file. InputError naming the file, line and key at fault: malformed TOML,
/// an unknown key, a [model] key that is not a point key, a free key that is not a number key or
/// whose range is empty or outside its bounds, a [[table]] without a file, a fit without tables
/// or tables without a fit.
CalibrationFile load_calibration_file(const std::string& path);

}  // namespace collnoise
