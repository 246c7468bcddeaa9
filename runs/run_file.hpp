#pragma once
// Run files (TOML; schema in docs/run-files.md). A run file names a base point (the tables
// [collective], [noise], [loggops], [network], [isoefficiency]), optional [[case]] tables that
// override keys, and a [sweep] table of lists whose cross product, applied to every case, gives
// the points. Keys are addressed by dotted names ("noise.f"); how the file is shaped around a key
// (a short form such as `N`, keys that replace one another, arrays of tables) is what the models
// and laws declare of it (core/key_spec.hpp). This layer checks the run's own settings and the
// file's shape; each model checks its point parameters (runs/point_factory.hpp), so every point
// is validated before anything is sampled.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/param_value.hpp"
#include "engine/study.hpp"
#include "outputs/run_identity.hpp"
#include "runs/machine_file.hpp"
#include "runs/user_bound.hpp"

namespace collnoise {

/// Which parameter draw of the machine file's calibration a point simulates, when the run asks
/// for predictive intervals (`prediction.draws`, runs/prediction.hpp).
struct MachineDraw {
  std::size_t base = 0;  ///< the run's point before the draws (base, case, sweep order)
  std::size_t draw = 0;  ///< 0 .. prediction.draws - 1: the [[machine.draws]] entry it takes
};

/// One sweep point as the run file gives it, before its model validates it.
struct PointSpec {
  ParamMap params;  ///< dotted names: base, then case overrides, then sweep
  /// While parsing: the entries of keys that hold an array of tables (KeySpec::table_array, a
  /// mixture's components); each point holds them as <key>[i].<sub> parameters.
  std::map<std::string, std::vector<ParamMap>> table_arrays;
  /// With prediction.draws: the draw the point simulates (its keys replace the machine file's).
  std::optional<MachineDraw> machine_draw;
};

struct OutputSettings {
  bool raw_samples = false;    ///< keep every sample of the primary metric (chunked, compressed)
  bool critical_path = false;  ///< record each sample's critical path (schedule points)
  std::size_t histogram_bins = 400;
  std::string histogram_spacing = "auto";  ///< "auto", "linear" or "log"
};

/// Sampling until an interval is narrow enough (instead of a fixed count).
struct PrecisionSettings {
  bool enabled = false;
  std::optional<double> mean_relative_half_width;      ///< target on the primary metric's mean
  std::optional<double> quantile;                      ///< probability of a quantile target
  std::optional<double> quantile_relative_half_width;  ///< its target
  std::uint64_t min_samples = 1000;                    ///< never stop before this many
  std::uint64_t max_samples = 0;                       ///< the cap (required)
  /// precision.until = "bounds_decided": sample until every user bound's verdict is decided at
  /// the level spent over the looks (runs/bound_check.hpp), or the cap.
  bool until_bounds_decided = false;
};

/// Limits on the run's estimated work and memory (the command line's take precedence).
struct LimitSettings {
  std::optional<double> max_core_hours;
  std::optional<double> max_memory_gib;
};

/// No run file gives more points than this (each is validated and held before sampling).
inline constexpr std::size_t kMaxPoints = 1'000'000;

struct RunSpec {
  std::string name;
  std::string path;  ///< the run file, as given
  std::string text;  ///< the run file's full text (without a byte-order mark)
  /// Read from a pipe (`collnoise run <(gen)`, a FIFO): it cannot be read a second time.
  bool from_pipe = false;
  /// The folder relative data-file paths are taken from: the run file's; empty (the current
  /// directory) for a run file from a pipe.
  std::string data_base;
  /// The run kind: kSampleRunKind, or the run kind of an analysis model (ModelKind::run_kind).
  std::string kind = kSampleRunKind;
  std::uint64_t seed = 0;
  std::uint64_t samples = 0;  ///< samples per point (phases, replications, mappings); 0: not given
  double confidence = 0.95;
  std::uint64_t chunk_size = 0;  ///< samples per accumulation chunk; 0: the model's default
  OutputSettings output;
  ParamMap model_settings;  ///< settings tables a model owns and checks ([nhalf])
  PrecisionSettings precision;
  LimitSettings limits;
  std::vector<UserBound> bounds;  ///< `[[bound]]` tables (docs/bounds.md)
  /// `machine = "<file>"`: the machine file whose keys every point takes (runs/machine_file.hpp).
  std::optional<MachineFile> machine;
  /// prediction.draws: each point of the file becomes this many points, one per draw of the
  /// machine file's calibration, in draw order (point b * draws + d); 0: no predictions.
  std::uint64_t prediction_draws = 0;
  std::vector<PointSpec> points;
};

/// Reads a run file: a regular file, or a pipe read whole at once (core/input_file.hpp).
/// InputError naming the file, key or value at fault.
RunSpec load_run_file(const std::string& path,
                      std::optional<std::uint64_t> seed_override = std::nullopt);
/// Same, from text (`origin` names it in messages). `seed_override` replaces the file's seed.
RunSpec parse_run_text(const std::string& text, const std::string& origin,
                       std::optional<std::uint64_t> seed_override = std::nullopt);

/// What result and checkpoint files record of the run; `part` is "i/n" ("1/1" when whole).
RunIdentity run_identity(const RunSpec& run, const std::string& part);

}  // namespace collnoise
