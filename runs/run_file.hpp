#pragma once
// Run files (TOML; schema in docs/run-files.md). A run file names a base point (tables
// [collective] and [noise]), optional [[case]] tables that override keys, and a [sweep] table of
// lists whose cross product, applied to every case, gives the points. Keys are addressed by
// dotted names ("noise.f"); `N`, `log2_N` and `levels` are short for collective.N etc.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "distributions/registry.hpp"
#include "engine/rank_count.hpp"
#include "engine/tree_barrier.hpp"

namespace collnoise {

using ParamValue = std::variant<bool, std::int64_t, double, std::string, RankCount>;

/// Exact text of a parameter value (doubles with 17 significant digits).
std::string to_text(const ParamValue& value);

enum class RunKind { kSample, kNHalf };

/// One sweep point of a tree-barrier run, validated.
struct TreePoint {
  std::map<std::string, ParamValue> params;  ///< every defining parameter, dotted names
  RankCount n = 1;
  double w = 0.0;
  double tau = 0.0;
  TreeSampling sampling = TreeSampling::kPerRank;
  LawSpec noise;
  std::uint64_t stream_key = 0;  ///< hash of the seed and the params (not the sweep position)
};

struct OutputSettings {
  bool raw_phase_times = false;
  std::size_t histogram_bins = 400;
  std::string histogram_spacing = "auto";  ///< "auto", "linear" or "log"
};

struct NHalfSettings {
  std::uint64_t check_samples = 20000;  ///< phases per simulated check point
  double check_confidence = 0.99;
};

struct RunSpec {
  std::string name;
  std::string path;  ///< the run file, as given
  std::string text;  ///< the run file's full text
  RunKind kind = RunKind::kSample;
  std::uint64_t seed = 0;
  std::uint64_t samples = 0;  ///< phases per point
  double confidence = 0.95;
  std::uint64_t chunk_size = 1024;  ///< phases per accumulation chunk
  OutputSettings output;
  NHalfSettings nhalf;
  std::vector<TreePoint> points;
};

/// Reads and validates a run file. InputError naming the file, key or value at fault.
RunSpec load_run_file(const std::string& path,
                      std::optional<std::uint64_t> seed_override = std::nullopt);
/// Same, from text (`origin` names it in messages). `seed_override` replaces the file's seed.
RunSpec parse_run_text(const std::string& text, const std::string& origin,
                       std::optional<std::uint64_t> seed_override = std::nullopt);

/// The model of a point (builds the noise law: may throw InputError).
TreeBarrierModel tree_model(const TreePoint& point);

}  // namespace collnoise
