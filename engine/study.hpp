#pragma once
// What a model does for one sweep point. Sampled models (the collectives) simulate samples in
// chunks, a row of metric values per sample, and turn the merged tally into a summary record;
// the sampling driver (runs/sampling_driver.hpp) owns the chunk loop, threads, processes, parts,
// checkpoints and precision targets for all of them. Analysis kinds (N_1/2, isoefficiency)
// compute their record directly.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/record.hpp"
#include "estimators/tally.hpp"

namespace collnoise {

/// Settings every summary needs.
struct SummaryContext {
  double confidence = 0.95;
  std::size_t points_in_run = 1;  ///< for the Bonferroni adjustment of verdicts
};

/// Called with the samples done so far in a point (progress display).
using SampleProgress = std::function<void(std::uint64_t samples_done)>;

class SampledStudy {
 public:
  virtual ~SampledStudy() = default;

  /// The point's stream key (a hash of the seed and the resolved parameters), set once the
  /// parameters are known.
  void set_stream_key(std::uint64_t key) { key_ = key; }

  /// What the point tallies (metric 0 is the primary one: precision targets and raw samples).
  virtual TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const = 0;
  /// Samples per accumulation chunk when the run file does not say.
  virtual std::uint64_t default_chunk_size() const = 0;
  /// Simulates samples first .. first + rows.size()/width - 1 into `rows` (row-major, one row of
  /// metric values per sample) and counts into the extra histograms. The values depend only on
  /// the point's stream key and the sample indices, never on `threads`.
  virtual void simulate(std::uint64_t first, std::span<double> rows,
                        std::span<Histogram* const> extra, int threads) const = 0;
  /// Estimates, intervals, exact values and verdicts from the merged tally.
  virtual Record summarize(const Tally& tally, const SummaryContext& context) const = 0;
  /// Tail index of the primary metric (infinity for light tails): precision targets on the mean
  /// are refused at or below 2.
  virtual double primary_tail_index() const = 0;
  /// Core-seconds one sample takes: a cost model calibrated on bench/ (bench/RESULTS.md, "Cost
  /// model"), right within a factor of 3. Work estimates, limits and progress use it.
  virtual double cost_per_sample() const = 0;
  /// Core-seconds a point takes besides its samples (exact theory, summaries).
  virtual double fixed_cost() const { return 0.0; }
  /// Bytes the simulation of a chunk holds besides the tally (per-rank state), on `threads`.
  virtual double working_bytes(int threads) const = 0;

 protected:
  std::uint64_t key_ = 0;
};

class AnalysisStudy {
 public:
  virtual ~AnalysisStudy() = default;
  void set_stream_key(std::uint64_t key) { key_ = key; }
  /// The point's result record. `progress` receives a count of work units done.
  virtual Record analyse(int threads, const SampleProgress& progress) const = 0;
  /// Work units analyse reports in total (for progress and ETA).
  virtual std::uint64_t work_units() const = 0;
  /// Core-seconds of the whole analysis (cost model, as for sampled studies).
  virtual double estimated_cost() const = 0;
  /// Bytes the analysis holds at once, on `threads`.
  virtual double working_bytes(int threads) const = 0;

 protected:
  std::uint64_t key_ = 0;
};

/// A point ready to run: its parameter record and stream key, and its model.
struct PreparedPoint {
  Record params;
  std::uint64_t stream_key = 0;
  std::string kind;  ///< collective kind or analysis ("tree_barrier", "butterfly", "nhalf", ...)
  std::unique_ptr<SampledStudy> sampled;
  std::unique_ptr<AnalysisStudy> analysis;
  std::vector<std::string> input_files;  ///< data files the model reads (traces, delays)
};

}  // namespace collnoise
