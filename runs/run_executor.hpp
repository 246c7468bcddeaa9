#pragma once
// Runs the points of a run file on one process or many (MPI), for the whole run or one part of
// a job array, from scratch or from a checkpoint, to a fixed sample count or to precision
// targets. Whatever the split, a point's result is a function of the chunks it sampled, so it is
// the same bits for any number of threads, processes, parts or sittings (docs/models/streams.md).
//
// The chunks of a batch (all of a point's chunks in the part, or one precision batch) are shared
// out among the processes; they sample them in rounds of one chunk each and meet after every
// round to agree whether to stop (a signal on any process) or to checkpoint (rank 0's clock).
// Rank 0 gathers the tallies at checkpoints and batch ends, decides precision batches, writes
// checkpoints and summarises; the other processes return no outcomes.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/process_group.hpp"
#include "core/record.hpp"
#include "engine/study.hpp"
#include "estimators/tally.hpp"
#include "outputs/checkpoint.hpp"
#include "runs/progress_tracker.hpp"
#include "runs/run_file.hpp"
#include "runs/work_split.hpp"

namespace collnoise {

struct ExecutionOptions {
  int threads = 1;
  PartSpec part;
  std::string checkpoint_path;           ///< where checkpoints go; empty: never written
  double checkpoint_interval_s = 600.0;  ///< seconds between periodic checkpoints
  std::string resume_path;               ///< a checkpoint to start from; empty: from scratch
  h5::ReadOptions read;                  ///< how the checkpoint is read (verified, notes)
  /// Polled on every process after every round; true asks for checkpoint-and-stop.
  std::function<bool()> stop_requested;
  /// Called on every process after every round with the chunks it has sampled in this sitting.
  std::function<void(std::uint64_t chunks_sampled)> after_round;
  /// Rank 0: where the run's progress is published (runs/progress_tracker.hpp), once per round
  /// of chunks (every process's chunks: the rounds run in lockstep); null: nowhere. Publishing
  /// needs no communication, so progress can neither block the processes nor change a result.
  ProgressTracker* progress = nullptr;
  /// Rank 0: a warning for the user (a checkpoint that could not be written).
  std::function<void(const std::string& message)> warn;
};

/// One point's result (rank 0).
struct PointOutcome {
  Record summary;
  std::optional<Tally> tally;  ///< sampled points
  std::uint64_t chunk_size = 0;
  SamplingState state;  ///< sampled points: batches done
  /// Seconds spent on the point, over every sitting: its samples, or its analysis, and its
  /// summary (rank 0's clock; the other processes sample in step with it).
  double wall_time_s = 0.0;
};

struct Execution {
  bool interrupted = false;  ///< stopped by a signal
  /// When interrupted (rank 0): whether the checkpoint was written at the stop, and if not,
  /// why; an earlier periodic checkpoint may still hold `chunks_in_checkpoint` chunks.
  bool checkpoint_written = false;
  std::string checkpoint_error;
  std::uint64_t chunks_in_checkpoint = 0;
  std::uint64_t chunks_done = 0;     ///< over all points and processes, when interrupted
  std::uint64_t chunks_total = 0;    ///< in this part, without precision targets' early stops
  std::vector<PointOutcome> points;  ///< rank 0, when not interrupted
};

/// Preconditions: `points` prepared from `run`; precision targets only with the whole run.
/// InputError on a refused checkpoint (every process throws the same).
Execution execute_run(const RunSpec& run, const std::vector<PreparedPoint>& points,
                      const ExecutionOptions& options, const ProcessGroup& group);

/// Writes a checkpoint of finished outcomes (every point done), so that nothing is lost when the
/// result file cannot be written; resuming from it writes the result at once.
void checkpoint_outcomes(const std::string& path, const RunSpec& run,
                         const std::vector<PreparedPoint>& prepared, const PartSpec& part,
                         const std::vector<PointOutcome>& outcomes);

}  // namespace collnoise
