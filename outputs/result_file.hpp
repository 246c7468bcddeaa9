#pragma once
// The result file of a run (layout: docs/hdf5-layout.md). Built in memory, sealed with a
// checksum and written to a temporary name beside the target, renamed when complete
// (outputs/hdf5.hpp): a reader never sees a partial file and a failed write leaves nothing
// behind. Read only after the seal is verified.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/cpu_features.hpp"
#include "core/record.hpp"
#include "estimators/tally.hpp"
#include "outputs/hdf5.hpp"
#include "outputs/run_identity.hpp"

namespace collnoise {

inline constexpr const char* kFileType = "collnoise-result";
inline constexpr std::int64_t kFormatVersion = 2;

struct RunInfo {
  std::string kind;  ///< the collective kind of every point, "nhalf", "isoefficiency" or "mixed"
  int threads = 1;
  int processes = 1;
  double wall_time_s = 0.0;
  std::string part = "1/1";              ///< "i/n" for one part of a job array
  std::vector<std::string> merged_from;  ///< the part files of a merged result
  /// glibc's variant of exp, log, ... that sampled it (core/cpu_features.hpp): results are
  /// bitwise reproducible only under the same one.
  std::string math_library = std::string(libm_variant());
};

/// One point as written: its parameters, summary, for sampled points the tally, and how the
/// model wants it shown (written as given, not interpreted here).
struct PointResult {
  std::string kind;
  Record params;
  Record summary;
  const Tally* tally = nullptr;
  std::uint64_t chunk_size = 0;
  std::string table_columns;  ///< lines "header<TAB>field<TAB>format" (outputs/summary_report.hpp)
  std::string table_params;   ///< lines: parameters the table shows even where all points agree
  Record plot;                ///< plot hints for `collnoise plot` (python/collnoise/figures/)
  /// Seconds the point took (summed over sittings and the parts of a merge); written beside
  /// `kind`, outside the summary: timing differs from run to run, the results do not.
  std::optional<double> wall_time_s;
};

/// What a run with prediction.draws predicts of one of its points from the draws that simulated
/// it (runs/prediction.hpp), written beside the points (docs/hdf5-layout.md, "Predictions").
inline constexpr const char* kPredictionsGroup = "predictions";
inline constexpr const char* kPredictionKind = "prediction";  ///< their `kind` in the table
struct PredictionResult {
  Record params;
  Record summary;
};

/// Writes the whole file atomically, with each point's identity from `run.points` (when given)
/// and the run's predictions (none: the run asked for none). RuntimeFailure on any I/O error
/// (nothing left behind).
void write_result_file(const std::string& path, const RunIdentity& run, const RunInfo& info,
                       const std::vector<PointResult>& points,
                       std::span<const PredictionResult> predictions = {});

/// What summary reads back: root attributes and, per point, params and summary records and the
/// table columns its model chose (empty in files written before models chose them).
struct ResultFile {
  Record root;
  std::vector<Record> params;
  std::vector<Record> summaries;
  std::vector<std::string> table_columns;
  /// Per point: the parameters its table always shows, one a line (engine/study.hpp,
  /// PlotHints::table_params); none in files written before models declared them.
  std::vector<std::optional<std::string>> table_params;
  std::vector<std::optional<double>> wall_times_s;  ///< per point; none in older files
  /// Per point: its stream identity and data files (outputs/point_identity.hpp); none in files
  /// written before they were recorded.
  std::vector<std::optional<PointIdentity>> identities;
  std::vector<PredictionResult> predictions;  ///< none unless the run asked for them
};

/// Reads a result file; InputError if it is damaged, not one, or of another format version.
ResultFile read_result_file(const std::string& path, const h5::ReadOptions& options = {});

/// `point` of `file` (read from `path`) as an index, for the commands' --point: InputError
/// "--point P: 'path' holds points 0 to N-1" when the file has no such point.
std::size_t select_point(const ResultFile& file, std::uint64_t point, const std::string& path);

/// A point's raw samples (output.raw_samples): its primary metric's values in the order they
/// were written, and the metric's name and unit.
struct RawSamples {
  std::vector<double> values;
  std::string metric;
  std::string unit;
};

/// The raw samples of point `point` (an index select_point accepted), or nullopt when the point
/// kept none (an analysis point, or output.raw_samples off). InputError when the file is
/// damaged, not a result, or its tally claims raw samples it does not hold.
std::optional<RawSamples> read_raw_samples(const std::string& path, std::size_t point,
                                           const h5::ReadOptions& options = {});

/// The tallies of a result file's points, read into the layouts of the run that wrote it (one
/// per point; nullopt for analysis points, which have none). InputError naming the file and
/// point when a tally is missing or does not fit.
std::vector<std::optional<Tally>> read_result_tallies(
    const std::string& path, const std::vector<std::optional<TallyLayout>>& layouts,
    const h5::ReadOptions& options = {});

}  // namespace collnoise
