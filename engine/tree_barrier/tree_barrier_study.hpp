#pragma once
// The tree barrier under per-stage noise (docs/models/tree-barrier.md) as a sampled study: one
// sample is one phase (phases are iid), drawn per rank or per level; the summary puts the exact
// distribution, Theorems 1-4 and the bounds for any N beside the estimates.
#include <memory>
#include <mutex>
#include <optional>

#include "engine/study.hpp"
#include "engine/tree_barrier/tree_params.hpp"
#include "engine/tree_barrier/tree_theory.hpp"

namespace collnoise {

class TreeBarrierStudy final : public SampledStudy {
 public:
  TreeBarrierStudy(TreeBarrierModel model, TreeSampling sampling);

  TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const override;
  std::uint64_t default_chunk_size() const override { return 1024; }
  void simulate(std::uint64_t first, std::span<double> rows, std::span<Histogram* const> extra,
                int threads) const override;
  PointSummary summarize(const Tally& tally, const SummaryContext& context) const override;
  double primary_tail_index() const override { return tail_index_; }
  MeanInterval primary_mean(const Tally& tally, double level) const override;
  double cost_per_sample() const override;
  double fixed_cost() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

 private:
  /// The exact theory, computed when first needed (tens of milliseconds a point: validating a
  /// sweep of many points does not pay for it).
  const TreeTheory& theory() const;

  TreeBarrierModel model_;
  TreeSampling sampling_;
  mutable std::once_flag theory_once_;
  mutable std::optional<TreeTheory> theory_;
  double tail_index_;
};

/// The tree's model from its keys and the [noise] table (a per-stage law).
TreeBarrierModel read_tree_model(ParamReader& reader, const TreeParams& tree);

}  // namespace collnoise
