#pragma once
// The tree barrier under time-based noise as a sampled study: one sample is one replication of
// M phases simulated in absolute time (engine/timed_tree_barrier.hpp), with fresh detour offsets.
#include "engine/cpu_noise.hpp"
#include "engine/study.hpp"
#include "engine/tree_barrier/timed_tree_barrier.hpp"

namespace collnoise {

class TimedTreeStudy final : public SampledStudy {
 public:
  TimedTreeStudy(TimedTreeSetup setup, CpuNoiseSpec noise);

  TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const override;
  std::uint64_t default_chunk_size() const override { return 16; }
  void simulate(std::uint64_t first, std::span<double> rows, std::span<Histogram* const> extra,
                int threads) const override;
  PointSummary summarize(const Tally& tally, const SummaryContext& context) const override;
  double primary_tail_index() const override;
  MeanInterval primary_mean(const Tally& tally, double level) const override;
  double cost_per_sample() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

 private:
  TimedTreeResult replicate(std::uint64_t index, int threads) const;

  TimedTreeSetup setup_;
  CpuNoiseSpec noise_;
  double noiseless_;  ///< M (w + 2 tau D), seconds
};

}  // namespace collnoise
