#pragma once
// The N_1/2 run kind (MODELS.md §2; Agarwal et al., Section 4): per point, (a) the paper's
// approximation, (b) the exact N_1/2 of the model (any N, and full trees), (c) a simulated check
// that E[T](N/2) < 2w < E[T](2N) at the run's check confidence, on the per-level path (any N up
// to 2^127).
#include "engine/tree_barrier.hpp"
#include "runs/run_file.hpp"
#include "runs/study.hpp"

namespace collnoise {

class NHalfStudy final : public AnalysisStudy {
 public:
  NHalfStudy(TreeBarrierModel model, const RunSpec& run);
  Record analyse(int threads, const SampleProgress& progress) const override;
  std::uint64_t work_units() const override { return 2 * settings_.check_samples; }
  double estimated_cost() const override;
  double working_bytes(int threads) const override;

 private:
  TreeBarrierModel model_;
  NHalfSettings settings_;
  std::uint64_t chunk_size_;
};

}  // namespace collnoise
