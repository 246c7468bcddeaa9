#pragma once
// Checkpoint files (default <out>.ckpt): what a run has done so far, so that an interrupted run
// resumes to the same bits. Random streams are keyed by sample index (docs/models/streams.md), so
// the position of every stream is the set of chunks done: a checkpoint holds, per sampled point,
// the tally of those chunks (per-chunk accumulators, histograms, top values, raw values) and where
// its precision batches stand. Analysis points (N_1/2, isoefficiency) are recomputed on resume.
// Written to a temporary name and renamed, so the previous checkpoint stays valid until the new
// one is complete. Layout: docs/hdf5-layout.md.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "estimators/tally.hpp"
#include "outputs/hdf5.hpp"
#include "outputs/run_identity.hpp"

namespace collnoise {

inline constexpr const char* kCheckpointType = "collnoise-checkpoint";
inline constexpr std::int64_t kCheckpointVersion = 1;

/// Where the sampling of one point stands.
struct SamplingState {
  std::uint64_t batch_end =
      0;                      ///< samples of the batch under way (the whole point without targets)
  std::uint64_t batches = 0;  ///< batches completed
  bool finished = false;
  double wall_time_s = 0.0;  ///< seconds spent on the point so far, over every sitting
};

struct CheckpointPoint {
  SamplingState state;
  const Tally* tally = nullptr;  ///< null for analysis points
  std::uint64_t chunk_size = 0;
};

/// Writes atomically. RuntimeFailure naming the path on any I/O error (the old file stays).
void write_checkpoint(const std::string& path, const RunIdentity& run,
                      std::span<const CheckpointPoint> points);

struct LoadedPoint {
  SamplingState state;
  std::optional<Tally> tally;
};

/// Reads a checkpoint of this run (same run file text, seed, part and engine build: `run`).
/// `layouts` has one entry per point: the tally layout of a sampled point, nullopt for an analysis
/// point. InputError naming the file and the mismatch, or saying it is corrupt.
std::vector<LoadedPoint> read_checkpoint(const std::string& path, const RunIdentity& run,
                                         std::span<const std::optional<TallyLayout>> layouts,
                                         std::span<const std::uint64_t> chunk_sizes,
                                         const h5::ReadOptions& options = {});

/// What a file at a run's checkpoint path is to that run, looked at before the run writes there:
/// a run writes its checkpoint only where nothing is or a checkpoint of itself.
struct CheckpointAtPath {
  enum class Kind {
    kNothing,   ///< no file
    kThisRun,   ///< a checkpoint of the same run file text, seed, part and data
    kOtherRun,  ///< a checkpoint of another run
    kOtherFile  ///< a result, a directory, or any other file (a damaged checkpoint too)
  };
  Kind kind = Kind::kNothing;
  std::optional<std::uint64_t> chunks;  ///< kThisRun, kOtherRun: chunks it holds, if recorded
  /// kOtherRun: its run and how it differs from this one ("run 'x' of 'x.toml', seed 5, part
  /// 1/1: seed 5, not 6"); kOtherFile: what the file is ("a collnoise result").
  std::string description;
};

/// Never throws for what it finds at `path`; RuntimeFailure only on an internal failure.
CheckpointAtPath inspect_checkpoint_path(const std::string& path, const RunIdentity& run,
                                         const h5::ReadOptions& options = {});

/// "run 'x' of 'x.toml', seed 5, part 1/1": a run in messages about checkpoints.
std::string describe_run(const RunIdentity& run);

}  // namespace collnoise
