#pragma once
// Repeated cycles of compute and a collective under LogGOPS (docs/models/loggops-cycles.md; Chen &
// Suda) as a sampled study. One sample is one replication: fresh noise offsets, shared by the three
// cases of the paper (quiet: noise in compute stages only; conventional; redundant), so that their
// differences are paired. The summary gives each case's T_M and T_c with intervals, the recovery
// ratio (T_conv - T_red) / (T_conv - T_quiet) with a delta-method interval, and the noiseless
// closed form. A run may choose its cases (collective.cases): only those are simulated, tallied
// and summarised, each with exactly the values it has in a run of all of them.
#include <string>
#include <vector>

#include "engine/cpu_noise.hpp"
#include "engine/cycles/cycle_model.hpp"
#include "engine/study.hpp"

namespace collnoise {

class CycleStudy final : public SampledStudy {
 public:
  /// `setup.algorithm` is kButterfly (with a redundant case) or kDissemination.
  /// `use_reference`: run the reference simulator instead of the fast engine. `cases`: the cases
  /// to run, a non-empty subset of available_cases(setup.algorithm) in any order (checked by
  /// the model kind); empty: all of them.
  CycleStudy(CycleSetup setup, CpuNoiseSpec noise, bool use_reference, double tail_index,
             std::vector<std::string> cases = {});

  /// The cases an algorithm has, in the order they are tallied: conventional, redundant (the
  /// butterfly only), quiet.
  static std::vector<std::string> available_cases(CycleAlgorithm algorithm);

  TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const override;
  std::uint64_t default_chunk_size() const override { return 4; }
  void simulate(std::uint64_t first, std::span<double> rows, std::span<Histogram* const> extra,
                int threads) const override;
  PointSummary summarize(const Tally& tally, const SummaryContext& context) const override;
  double primary_tail_index() const override { return tail_index_; }
  MeanInterval primary_mean(const Tally& tally, double level) const override;
  double cost_per_sample() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

 private:
  struct Replication;
  /// Whether the algorithm has a redundant variant (the butterfly).
  bool has_redundant() const { return setup_.algorithm == CycleAlgorithm::kButterfly; }
  /// Whether case `name` is among the cases run.
  bool runs(const std::string& name) const;
  /// Whether every case the algorithm has is run (the default).
  bool runs_all() const { return cases_.size() == available_cases(setup_.algorithm).size(); }
  std::size_t width() const;  ///< metrics per sample
  /// The cases run, in tally order (a subsequence of available_cases()).
  const std::vector<std::string>& case_names() const { return cases_; }
  /// The metrics after the cases' totals: the paired differences whose two cases are run, the
  /// adoptions when the redundant case is.
  std::vector<std::string> difference_metrics() const;
  /// Why a field needing case `name` is absent: "not simulated: collective.cases = [...] ...".
  std::string left_out(const std::string& name) const;
  /// One replication; `finish[c]` receives case c's finishing times of the last cycle.
  Replication replicate(std::uint64_t index, int threads, std::span<Histogram* const> finish) const;
  CycleResult run_case(CycleAlgorithm algorithm, bool quiet, std::uint64_t key, int threads,
                       Histogram* finish) const;

  CycleSetup setup_;
  CpuNoiseSpec noise_;
  bool use_reference_;
  double tail_index_;
  double noiseless_;  ///< closed form of the conventional algorithm (or its noiseless T_M)
  std::vector<std::string> cases_;  ///< the cases run, in tally order
};

/// The model kind of this room: butterfly and dissemination cycles under LogGOPS.
ModelKind cycle_model_kind();

/// What CycleStudy::summarize writes (ModelKind::summary_fields).
std::vector<FieldSpec> cycle_summary_fields();

}  // namespace collnoise
