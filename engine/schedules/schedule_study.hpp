#pragma once
// Any collective as a schedule (docs/models/schedules.md): a GOAL file or a built-in algorithm,
// under LogGOPS with LogGOPSim's semantics, repeated M cycles of compute W then the schedule,
// under the noise of the [noise] table. One sample is one replication (fresh noise); the primary
// metric is the completion time: when the last rank finishes, seconds.
#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/record.hpp"
#include "core/work_in_flight.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise.hpp"
#include "engine/schedules/engine/schedule_engine.hpp"
#include "engine/schedules/engine/schedule_noise_spec.hpp"
#include "engine/schedules/entry_keys.hpp"
#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/paths/path_attribution.hpp"
#include "engine/schedules/paths/timeline_recorder.hpp"
#include "engine/schedules/schedule/any_schedule.hpp"
#include "engine/schedules/schedule/background_job.hpp"
#include "engine/schedules/schedule_net_keys.hpp"
#include "engine/schedules/sensitivity_keys.hpp"
#include "engine/study.hpp"

namespace collnoise {

/// Where a study's schedule comes from: built at once (a GOAL file, a schedule generated on the
/// fly) or on first use (a stored algorithm, whose arrays may take gigabytes: validating a run
/// file, estimating its cost and the points not yet sampled need none of it).
struct ScheduleSource {
  std::function<AnySchedule()> make;
  std::shared_ptr<const AnySchedule> built;  ///< or the schedule itself
  std::uint32_t ranks = 0;
  double operations = 0.0;    ///< exact or estimated
  double searches = 0.0;      ///< match-list entries a noisy sample searches, where many (estimate)
  double stored_bytes = 0.0;  ///< what its arrays take, estimated before it is built
  double ready_at_start = 0.0;  ///< operations without dependencies (estimated before it is built)
  std::string description;      ///< "GOAL file x" or the algorithm and its parameters
  /// A built-in algorithm's rounds and the round of a rank's send or receive (for the critical
  /// path's noise by step; none for a GOAL file, whose steps are operation indices).
  std::uint32_t rounds = 0;
  std::function<std::uint32_t(std::uint32_t rank, const Operation& op)> round_of;
  /// A background job beside the collective (network.background_schedule), or null: the study's
  /// schedule is then both (with_background_job), and its runs time the collective's ranks.
  std::shared_ptr<const BackgroundJob> job;
};

class ScheduleStudy final : public SampledStudy {
 public:
  /// `check`, if any, is called with the noiseless completion (seconds) once it is known.
  ScheduleStudy(ScheduleSource source, ScheduleNet net, ScheduleNoiseSpec noise,
                std::function<void(double)> check = {});
  ~ScheduleStudy() override;

  TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const override;
  /// The layout without the noiseless run its histogram's range needs (for estimates).
  TallyLayout shape(std::size_t histogram_bins, const std::string& spacing) const override;
  /// 4 samples, or with a benchmark loop of I recorded iterations 4 loops (4 I samples; fewer,
  /// at least one, past 2^22 samples): a chunk holds whole loops, none simulated twice.
  std::uint64_t default_chunk_size() const override;
  void simulate(std::uint64_t first, std::span<double> rows, std::span<Histogram* const> extra,
                int threads) const override;
  PointSummary summarize(const Tally& tally, const SummaryContext& context) const override;
  double primary_tail_index() const override { return noise_.tail_index; }
  MeanInterval primary_mean(const Tally& tally, double level) const override;
  double cost_per_sample() const override;
  double fixed_cost() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

  /// One replication's completion time, seconds.
  double replicate(std::uint64_t index) const;
  /// The same, reporting to `unit` how far it is as it goes (for progress).
  double replicate(std::uint64_t index, UnitInFlight& unit) const;
  /// The completion time without noise, seconds (simulated on first use; InputError if the
  /// schedule cannot complete).
  double noiseless_completion() const;
  /// The schedule, built on first use (and again after release_working_memory()); with a
  /// background job, the collective's ranks then the job's (ScheduleSource::job).
  std::shared_ptr<const AnySchedule> schedule() const;
  /// Drops a schedule built from an algorithm (not a GOAL file's, read once) and the engine
  /// memory the replications kept.
  void release_working_memory() const override;
  /// The noiseless run, simulated on first use.
  const ScheduleRun& noiseless() const;
  /// Also summarise every rank's finishing time in replication `index` (`sample_finish`).
  void record_finish_of(std::uint64_t index) { finish_sample_ = index; }
  /// The summary also names how loggops.file was read (`method`: "row" or "regimes"; empty
  /// without a file) and what the regime fit found.
  void record_loggp_fit(std::string method, std::optional<LogGPFitReport> fit) {
    loggp_fit_ = std::move(method);
    loggp_regimes_ = std::move(fit);
  }
  /// How the ranks enter and a sample is timed (entry_keys.hpp; default: together, completion).
  /// The barrier of entry.mode = "barrier" or loop.barrier (entry_barrier), simulated before
  /// each sample (each iteration of a loop).
  void set_barrier(AnySchedule barrier) {
    barrier_ = std::make_shared<const AnySchedule>(std::move(barrier));
  }
  /// Drawn entries add their law's tail to the samples' (primary_tail_index).
  void set_entry(EntrySpec entry) {
    if (entry.law) noise_.tail_index = std::min(noise_.tail_index, entry.law->tail_index());
    entry_ = std::move(entry);
  }
  const EntrySpec& entry() const { return entry_; }
  /// Every rank's time in replication `index`, seconds: the sample simulated again (its value
  /// depends on its index only), as the run simulated it. Its finishing time less its own start
  /// (timing.measure = "per_rank") or less the first rank's start (completion); with ranks
  /// entering together, its finishing time.
  std::vector<double> rank_finishes(std::uint64_t index) const;
  /// Every rank's start in replication `index`, ns (entry.mode = "law": mean * isf(u), u from
  /// the stream of (replication, rank) of StreamPurpose::kEntryOffset; "barrier": its finishing
  /// time in the barrier, simulated under the replication's noise from 0); empty when the ranks
  /// enter together.
  std::vector<double> entry_starts(std::uint64_t index) const;
  /// A sample's value, seconds, from its run and its ranks' starts (ns, or empty: all at 0): the
  /// last finish less the first start (completion), or the largest of each rank's finish less
  /// its own start (per_rank).
  double sample_time(const ScheduleRun& run, std::span<const double> starts) const;
  /// Whether the sample's slowest rank (the one sample_time takes) drew from a fitted tail
  /// beyond the data while it was timed: a message it received whose latency came from a pool's
  /// fitted tail, or a Poisson detour overlapping its timed interval whose duration came from
  /// the trace's (docs/models/tails.md). `time_key`: the run's time-noise key (NoiseKeys::time).
  /// False without fitted tails.
  bool slowest_drew_from_tail(const ScheduleRun& run, std::span<const double> starts,
                              std::uint64_t time_key) const;
  /// Whether the samples record slowest_drew_from_tail (the noise has fitted tails): then a
  /// sample's row ends with it (1 or 0), and the summary gives its share.
  bool tracks_tails() const { return tracks_tails_; }
  /// What run_loop tells of each recorded iteration j (0-based after the warm-ups): its run of
  /// the collective and every rank's start of it, ns.
  using LoopRecord =
      std::function<void(std::uint64_t j, const ScheduleRun& run, std::span<const double> starts)>;
  /// Benchmark loop `loop` (docs/models/schedules.md, "The benchmark loop") simulated from its
  /// first warm-up through its recorded iteration `through` (< loop.iterations), iteration by
  /// iteration: rank r starts iteration i at its finish of iteration i - 1 (0 for the first),
  /// sleeps its pause (idle: detours in it cost nothing, one in progress at its end delays the
  /// next work), passes the barrier if any and starts the collective at its exit. The time-based
  /// noise is keyed by the loop (stream_key(key, kLoop, loop)) and goes on in time; per-operation
  /// draws and pauses are the iteration's own (docs/models/streams.md). Holds one iteration's
  /// per-rank times at a time. Sample n is iteration n mod I of loop n / I.
  void run_loop(std::uint64_t loop, std::uint64_t through, const LoopRecord& record) const;
  /// Also give each sample's sensitivities to `spec`'s parameters (sensitivity_keys.hpp): each
  /// sample simulated again at each parameter's two steps, on its own streams. Preconditions
  /// (the model checks them): ranks enter together, no benchmark loop.
  void set_sensitivity(SensitivitySpec spec);
  /// Record every sample's critical path and tally where its time and noise went
  /// (path_attribution.hpp).
  void record_critical_paths() { attributed_ = true; }
  /// Replication `index` simulated again with `timeline` watching it too, `queues`
  /// (engine/schedules/paths/queue_stats.hpp) when given, and `links` told of its network's
  /// links (engine/network/link_load.hpp) when given; the path holds its segments. InputError
  /// for `links` on a point without network.contention.
  std::pair<ScheduleRun, CriticalPath> replay(std::uint64_t index, TimelineRecorder& timeline,
                                              class QueueStatsRecorder* queues = nullptr,
                                              class LinkLoadListener* links = nullptr) const;
  /// The point's topology and contention model (network.contention), or null without one.
  const ContentionSpec* contention() const { return net_.contention.get(); }
  /// The noiseless run's critical path (simulated on first use).
  const CriticalPath& noiseless_path() const;
  /// The steps of the path's noise: the algorithm's rounds, or operation indices.
  PathSteps path_steps() const;
  /// The noiseless run, recording its critical path in noiseless_path_.
  ScheduleRun run_noiseless_path(const AnySchedule& s) const;

 private:
  // The loggp_* summary fields, with loggops.file.
  void put_loggp_fit(Record& s) const;
  // The background job's fields, and a warning when it ends before the collective.
  void put_background_job(Record& s, std::vector<std::string>& warnings) const;
  ScheduleSource source_;
  ScheduleNet net_;
  ScheduleNoiseSpec noise_;
  std::function<void(double)> check_;
  mutable std::once_flag noiseless_once_;
  mutable std::mutex build_mutex_;
  mutable std::shared_ptr<const AnySchedule> schedule_;
  // Its size, kept when the schedule is released (the summary reports it).
  mutable std::uint32_t built_ranks_ = 0;
  mutable std::uint64_t built_operations_ = 0;
  mutable ScheduleRun noiseless_;
  mutable std::atomic<double> noiseless_searches_{0.0};  ///< match-list entries it searched
  double searches() const;
  /// Core-seconds a network's work adds to one run (0 without contention).
  double network_cost_per_run() const;
  std::optional<std::uint64_t> finish_sample_;
  std::string loggp_fit_;
  std::optional<LogGPFitReport> loggp_regimes_;
  EntrySpec entry_;
  std::shared_ptr<const AnySchedule> barrier_;
  bool attributed_ = false;
  mutable CriticalPath noiseless_path_;
  mutable std::once_flag noiseless_path_once_;
  mutable std::atomic<bool> noiseless_path_recorded_{false};
  // Set once a run's computations or rendezvous need parameter times in the full layout.
  mutable std::atomic<bool> full_times_{false};
  ParameterTimesLayout times_layout() const;
  // Whether its messages share a network (network.contention): its paths have the network
  // category (engine/schedules/paths/critical_path.hpp).
  bool on_network() const { return net_.contention != nullptr; }
  // `run(recorder)` with a recorder of `bucket` and `buckets` and the point's layout of parameter
  // times: the run and its path.
  template <class Run>
  std::pair<ScheduleRun, CriticalPath> record_path(const StepBucket& bucket, std::size_t buckets,
                                                   Run&& run) const;
  mutable std::uint64_t most_operations_ = 0;  ///< of any rank, known with the noiseless run
  PathAttribution attribution() const;
  bool noisy() const;
  template <class Observer>
  ScheduleRun run_replication(std::uint64_t index, UnitInFlight& unit, Observer& observer,
                              std::span<const double> starts = {}) const;
  /// One replication's row of metrics (completion, then the attribution's), and the ranks that
  /// finished last into `last`.
  void sample_row(std::uint64_t index, UnitInFlight& unit, std::span<double> row,
                  CriticalPath& last) const;
  // Every rank's time in `run` from `starts` (empty: all at 0), seconds: from its own start
  // (timing.measure = "per_rank") or from the first start (completion).
  std::vector<double> rank_times(const ScheduleRun& run, std::span<const double> starts) const;
  // Samples first .. first + rows.size() - 1 of a benchmark loop, whole loops side by side.
  void simulate_loops(std::uint64_t first, std::span<double> rows, int threads) const;
  // Every rank's pause before iteration i of the loop of key `loop_key`, ns.
  std::vector<double> pauses(std::uint64_t loop_key, std::uint64_t i, std::uint32_t ranks) const;
  struct EngineMemories;
  std::unique_ptr<EngineMemories> engine_memory_;
  bool tracks_tails_ = false;
  SensitivitySpec sensitivity_;
  std::vector<std::pair<ScheduleNet, ScheduleNet>> steps_;  ///< per parameter: X (1 + h), X (1 - h)
  mutable std::once_flag noiseless_sensitivity_once_;
  mutable std::vector<double> noiseless_sensitivity_;
  // Where a row's sensitivity metrics start, and how many: by differences the derivative and
  // whether the path changed, from the path its count, with both whether they disagree (a
  // parameter's, in that order).
  std::size_t first_sensitivity_metric() const;
  std::size_t metrics_per_parameter() const {
    return sensitivity_.differences() ? (sensitivity_.from_path() ? 4 : 2)
                                      : (sensitivity_.from_path() ? 1 : 0);
  }
  std::size_t sensitivity_metrics() const {
    return metrics_per_parameter() * sensitivity_.parameters.size();
  }
  // Runs more per sample the differences take.
  std::size_t difference_runs() const {
    return sensitivity_.differences() ? 2 * sensitivity_.parameters.size() : 0;
  }
  // Sample `index`'s path counts (from `path`, its critical path) into its row's sensitivity
  // metrics `out`, after its differences when both.
  void fill_path_sensitivities(const CriticalPath& path, std::span<double> out) const;
  // Sample `index`'s sensitivities into `out` (derivative, path changed, per parameter), from its
  // value `base`, seconds; a noiseless point's once.
  void fill_sensitivities(std::uint64_t index, double base, std::span<double> out) const;
  void sensitivities_of(std::uint64_t index, double base, std::span<double> out) const;
  // The sensitivity fields, and a warning when paths changed within the step.
  void put_sensitivities(Record& s, const Tally& tally, double level,
                         std::vector<std::string>& warnings) const;
  // The path counts' fields, and a warning when a difference of a path that held disagrees.
  void put_path_sensitivities(Record& s, const Tally& tally, double level,
                              std::vector<std::string>& warnings) const;
  // A sample's value and whether its slowest rank drew from a fitted tail.
  struct SampleValue {
    double seconds = 0.0;
    bool from_tail = false;
  };
  SampleValue sample_value(std::uint64_t index, UnitInFlight& unit) const;
  SampleValue sample_value(const ScheduleRun& run, std::span<const double> starts,
                           std::uint64_t time_key) const {
    return {sample_time(run, starts),
            tracks_tails_ && slowest_drew_from_tail(run, starts, time_key)};
  }
  // A sample's row: completion, the attribution's metrics, and the tail flag when tracked.
  std::size_t row_width() const;
  // Adds the sensitivities' metrics to `layout`, when asked.
  void add_sensitivity_metrics(TallyLayout& layout) const;
  // Adds the tail flag's metric to `layout`, when tracked.
  void add_tail_metric(TallyLayout& layout) const;
  // The slowest_tail_share fields, and a warning when the share is above kTailShareWarning.
  void put_tail_share(Record& s, const Tally& tally, double level,
                      std::vector<std::string>& warnings) const;
};

/// The model kind of this room: collective.kind = "schedule".
ModelKind schedule_model_kind();

/// What ScheduleStudy::summarize writes (ModelKind::summary_fields).
std::vector<FieldSpec> schedule_summary_fields();

}  // namespace collnoise
