#pragma once
// Machine files (docs/calibration.md, "The machine file"): TOML that a run file includes with
// `machine = "daint.toml"`, holding what a machine is (its LogGP per regime, measured pools, noise,
// how its ranks enter) as the point keys of the schedule model, and what `collnoise calibrate`
// knows of them under [machine]: the inputs they were made from by path and checksum, each fitted
// value with its interval and method, the bootstrap draws of the fitted values (for predictive
// intervals) and the largest rank count the calibration saw.
//
// A machine file's keys join every point of the run as if the run file gave them, except that
// a key given by both is refused (whichever of its alternatives either gives), in the base, a
// [[case]] or the [sweep]; data-file paths in it are taken from the machine file's folder. Its
// content hash is part of every point's stream identity, and the file is one of each point's
// data files, so a result never mixes samples of two contents of it. An input under
// [[machine.inputs]] that has changed or gone since the calibration is refused.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/fitted_value.hpp"
#include "core/param_value.hpp"

namespace collnoise {

/// The format a machine file declares (`machine.format`); others are refused.
inline constexpr std::int64_t kMachineFormat = 1;
/// The top-level key of a run file that includes a machine file.
inline constexpr const char* kMachineKey = "machine";

/// A machine file as a run file includes it.
struct MachineFile {
  std::string given_path;  ///< as the run file gives it
  std::string path;        ///< where it was read
  std::string hash;        ///< of its content
  std::string name;        ///< machine.name; empty when not given
  /// machine.largest_ranks: the largest rank count of the tables it was fitted to (predictions
  /// beyond it are extrapolations); none when it was fitted to no table.
  std::optional<std::uint64_t> largest_ranks;
  std::vector<MachineInput> inputs;
  std::vector<FittedValue> fitted;
  /// [[machine.draws]]: the fitted keys' values refitted on bootstrap resamples, one map per
  /// draw, each key one the file gives.
  std::vector<ParamMap> draws;
  /// Its point keys, data-file paths taken from the run file's folder.
  ParamMap params;
  std::map<std::string, std::vector<ParamMap>> table_arrays;
};

/// Reads the machine file `given` (relative to `data_base`, the run file's folder, unless
/// absolute) that run file `origin` includes. InputError naming the file and line of the value at
/// fault: not a regular file, malformed TOML, no or another machine.format, a key that is not a
/// point key (or names the collective: a machine file describes a machine, not what it runs), a
/// draw of a key the file does not give, an input changed or missing.
MachineFile read_machine_file(const std::string& given, const std::string& data_base,
                              const std::string& origin);

/// The text of a machine file holding `machine`'s [machine] table and point keys (its paths as
/// they are: relative to the folder the file will be written in), `comments` as '#' lines at its
/// head. Numbers are written with 17 significant digits, so they read back exactly.
/// Precondition: no table arrays (the calibration writes none).
std::string machine_file_text(const MachineFile& machine, const std::vector<std::string>& comments);

}  // namespace collnoise
