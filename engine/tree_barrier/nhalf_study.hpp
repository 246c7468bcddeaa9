#pragma once
// The N_1/2 run kind (docs/models/tree-barrier.md; Agarwal et al., Section 4): per point, (a) the
// paper's approximation, (b) the exact N_1/2 of the model (any N, and full trees), (c) a simulated
// check that E[T](N/2) < 2w < E[T](2N) at the run's check confidence, on the per-level path (any N
// up to 2^127).
#include "engine/study.hpp"
#include "engine/tree_barrier/sampler.hpp"

namespace collnoise {

/// The simulated check of an N_1/2 run ([nhalf] in the run file).
struct NHalfSettings {
  std::uint64_t check_samples = 20000;  ///< phases per simulated check point
  double check_confidence = 0.99;
};

class NHalfStudy final : public AnalysisStudy {
 public:
  /// `chunk_size`: phases per accumulation chunk of the check (0: 1024).
  NHalfStudy(TreeBarrierModel model, NHalfSettings settings, std::uint64_t chunk_size);
  PointSummary analyse(int threads, const SampleProgress& progress) const override;
  /// The check's intervals are at nhalf.check_confidence, not the run's level.
  bool uses_run_confidence() const override { return false; }
  std::uint64_t work_units() const override { return 2 * settings_.check_samples; }
  double estimated_cost() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

 private:
  TreeBarrierModel model_;
  NHalfSettings settings_;
  std::uint64_t chunk_size_;
};

}  // namespace collnoise
