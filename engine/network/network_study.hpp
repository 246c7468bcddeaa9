#pragma once
// Network noise (docs/models/network.md) as a sampled study: one sample is one random allocation
// (who runs background traffic, where each process runs, the derangement), evaluated with and
// without the background traffic; the slowdown is their ratio, reported as the mean of the paired
// ratios.
#include "engine/network/congestion.hpp"
#include "engine/study.hpp"

namespace collnoise {

class NetworkStudy final : public SampledStudy {
 public:
  explicit NetworkStudy(CongestionModel model);

  TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const override;
  std::uint64_t default_chunk_size() const override { return 16; }
  void simulate(std::uint64_t first, std::span<double> rows, std::span<Histogram* const> extra,
                int threads) const override;
  PointSummary summarize(const Tally& tally, const SummaryContext& context) const override;
  double primary_tail_index() const override;
  double cost_per_sample() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

 private:
  CongestionModel model_;
};

/// The model kind of this room: collectives on a network with background traffic.
ModelKind network_model_kind();

}  // namespace collnoise
