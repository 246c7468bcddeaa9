#pragma once
// The mergeable state of one sweep point (docs/models/streams.md). Samples are accumulated in
// fixed-size chunks; each chunk has its own accumulator per metric (and co-moment per declared
// pair), and totals are left folds over the chunks in chunk order. Histograms (integer counts) and
// top values merge in any order. So a point's results are the same bits however its chunks were
// split over threads, processes, job-array parts or interrupted sittings.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "estimators/accumulator.hpp"
#include "estimators/co_moment.hpp"
#include "estimators/histogram.hpp"
#include "estimators/top_values.hpp"

namespace collnoise {

/// One histogram of a point: of a metric's values, or an extra one a model fills itself (the
/// per-rank finishing times of a collective).
struct NamedHistogram {
  std::string name;
  std::optional<std::size_t> metric;  ///< the metric it counts; none for extras
  Histogram histogram;
  std::string unit = "seconds";  ///< of the counted values ("1" for ratios)
};

/// What a point tallies: metric names, co-moment pairs, histograms, top-value capacities.
struct TallyLayout {
  std::vector<std::string> metrics;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  ///< indices into metrics
  std::vector<NamedHistogram> histograms;                  ///< empty, with their edges
  std::vector<std::size_t> top_capacity;                   ///< per metric; 0 keeps none
  bool keep_raw = false;                                   ///< keep metric 0's values
  /// The unit of each metric ("seconds", "1" for ratios, ...); empty: every metric in seconds.
  std::vector<std::string> metric_units;
  std::string unit_of(std::size_t metric) const {
    return metric < metric_units.size() ? metric_units[metric] : "seconds";
  }
};

struct ChunkTally {
  std::vector<Accumulator> metrics;
  std::vector<CoMoment> pairs;
  std::vector<double> raw;  ///< metric 0's values in sample order, when kept
};

class Tally {
 public:
  Tally() = default;
  explicit Tally(TallyLayout layout);

  /// Adds the samples of chunk `index`: `rows` holds count x metrics values, row-major, in
  /// sample order. Precondition: the chunk is not present yet (checked: RuntimeFailure).
  void add_chunk(std::uint64_t index, std::span<const double> rows);
  /// Adds a chunk computed elsewhere (its histogram and top-value contributions come separately
  /// through merge_order_free).
  void insert_chunk(std::uint64_t index, ChunkTally chunk);
  /// Union with another tally of the same layout: its chunks (none may overlap: RuntimeFailure),
  /// histograms and top values.
  void merge(const Tally& other);
  /// The same, taking the other tally's chunks instead of copying them (raw samples can be GiB).
  void merge(Tally&& other);
  /// Adds only the other tally's histograms and top values.
  void merge_order_free(const Tally& other);

  const TallyLayout& layout() const { return layout_; }
  const std::map<std::uint64_t, ChunkTally>& chunks() const { return chunks_; }
  std::vector<NamedHistogram>& histograms() { return histograms_; }
  const std::vector<NamedHistogram>& histograms() const { return histograms_; }
  /// The extra histograms (those without a metric), in layout order.
  std::vector<Histogram*> extra_histograms();
  const std::vector<TopValues>& tops() const { return tops_; }
  std::vector<TopValues>& tops() { return tops_; }

  std::size_t metric_index(const std::string& name) const;  ///< RuntimeFailure if unknown
  /// Left fold of the chunks' accumulators in chunk order.
  Accumulator total(std::size_t metric) const;
  Accumulator total(const std::string& metric) const { return total(metric_index(metric)); }
  CoMoment pair_total(std::size_t pair) const;
  /// Metric 0's kept values in sample order.
  std::vector<double> raw() const;
  /// Number of samples tallied (of metric 0).
  std::uint64_t samples() const;
  const Histogram* histogram_of(std::size_t metric) const;
  const Histogram* histogram_named(const std::string& name) const;

 private:
  void refuse_overlap(const Tally& other) const;

  TallyLayout layout_;
  std::map<std::uint64_t, ChunkTally> chunks_;
  std::vector<NamedHistogram> histograms_;
  std::vector<TopValues> tops_;
};

}  // namespace collnoise
