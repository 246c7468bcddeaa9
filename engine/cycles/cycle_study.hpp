#pragma once
// Repeated cycles of compute and a collective under LogGOPS (docs/models/loggops-cycles.md; Chen &
// Suda) as a sampled study. One sample is one replication: fresh noise offsets, shared by the three
// cases of the paper (quiet: noise in compute stages only; conventional; redundant), so that their
// differences are paired. The summary gives each case's T_M and T_c with intervals, the recovery
// ratio (T_conv - T_red) / (T_conv - T_quiet) with a delta-method interval, and the noiseless
// closed form.
#include "engine/cpu_noise.hpp"
#include "engine/cycles/cycle_model.hpp"
#include "engine/study.hpp"

namespace collnoise {

class CycleStudy final : public SampledStudy {
 public:
  /// `setup.algorithm` is kButterfly (the redundant case runs too) or kDissemination.
  /// `use_reference`: run the reference simulator instead of the fast engine.
  CycleStudy(CycleSetup setup, CpuNoiseSpec noise, bool use_reference, double tail_index);

  TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const override;
  std::uint64_t default_chunk_size() const override { return 4; }
  void simulate(std::uint64_t first, std::span<double> rows, std::span<Histogram* const> extra,
                int threads) const override;
  Record summarize(const Tally& tally, const SummaryContext& context) const override;
  double primary_tail_index() const override { return tail_index_; }
  double cost_per_sample() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

 private:
  struct Replication;
  /// One replication; `finish[c]` receives case c's finishing times of the last cycle.
  bool has_redundant() const { return setup_.algorithm == CycleAlgorithm::kButterfly; }
  std::size_t width() const;  ///< metrics per sample
  std::vector<std::string> case_names() const;
  Replication replicate(std::uint64_t index, int threads, std::span<Histogram* const> finish) const;
  CycleResult run_case(CycleAlgorithm algorithm, bool quiet, std::uint64_t key, int threads,
                       Histogram* finish) const;

  CycleSetup setup_;
  CpuNoiseSpec noise_;
  bool use_reference_;
  double tail_index_;
  double noiseless_;  ///< closed form of the conventional algorithm (or its noiseless T_M)
};

/// The model kind of this room: butterfly and dissemination cycles under LogGOPS.
ModelKind cycle_model_kind();

}  // namespace collnoise
