#pragma once
// Quantiles from a histogram, with distribution-free confidence intervals from binomial order
// statistics: the p-quantile lies between the order statistics of ranks l and u, where
// P(l <= Bin(n, p) < u) >= level. Values inside a bin are interpolated; the interval takes whole
// bins (outer edges), so it also covers the bin-width resolution, which is recorded.
#include <span>

#include "core/nullable.hpp"
#include "estimators/histogram.hpp"

namespace collnoise {

struct QuantileEstimate {
  double probability = 0.5;
  Nullable estimate;
  Nullable ci_low;
  Nullable ci_high;
  Nullable resolution;  ///< width of the bin holding the estimate, seconds
};

/// Precondition: 0 < p < 1, 0 < level < 1.
QuantileEstimate quantile_from_histogram(const Histogram& h, double p, double level);

/// The same from raw samples sorted ascending: the estimate is the order statistic of rank
/// ceil(p n) (estimators/two_sample.hpp, quantile_rank), the interval the order statistics of
/// ranks l and u themselves; no resolution (null). Precondition: 0 < p < 1, 0 < level < 1.
QuantileEstimate quantile_from_sorted(std::span<const double> sorted, double p, double level);

}  // namespace collnoise
