#include "estimators/quantile_interval.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <utility>

#include "estimators/two_sample.hpp"

namespace collnoise {
namespace {

enum class Side { kLowerEdge, kUpperEdge, kInterpolate };

// Value of the order statistic of 1-based rank r (fractional for interpolation) in the
// histogram; null when it falls in the under/overflow.
Nullable value_at_rank(const Histogram& h, double r, Side side, Nullable* resolution = nullptr) {
  if (r <= static_cast<double>(h.underflow()))
    return Nullable::null("falls below the histogram range (underflow)");
  double below = static_cast<double>(h.underflow());
  const auto& counts = h.counts();
  const auto& edges = h.edges();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const auto c = static_cast<double>(counts[i]);
    if (r <= below + c) {
      if (resolution) *resolution = Nullable::of(edges[i + 1] - edges[i]);
      if (side == Side::kLowerEdge) return Nullable::of(edges[i]);
      if (side == Side::kUpperEdge) return Nullable::of(edges[i + 1]);
      const double frac = (r - below) / c;
      if (h.spacing() == BinSpacing::kLog)
        return Nullable::of(edges[i] * std::pow(edges[i + 1] / edges[i], frac));
      return Nullable::of(edges[i] + (edges[i + 1] - edges[i]) * frac);
    }
    below += c;
  }
  return Nullable::null("falls above the histogram range (overflow)");
}

// Ranks l = quantile(alpha/2), u = quantile(1 - alpha/2) + 1 of Bin(n, p) bracket the
// population quantile with probability >= level (1-based; l < 1 or u > n: no bound).
std::pair<double, double> bracketing_ranks(double n, double p, double level) {
  const double alpha = 1.0 - level;
  const boost::math::binomial_distribution<double> counts(n, p);
  return {std::floor(boost::math::quantile(counts, alpha / 2.0)),
          std::floor(boost::math::quantile(counts, 1.0 - alpha / 2.0)) + 1.0};
}

constexpr const char* kTooFewBelow = "too few samples for a distribution-free lower bound";
constexpr const char* kTooFewAbove = "too few samples for a distribution-free upper bound";

}  // namespace

QuantileEstimate quantile_from_histogram(const Histogram& h, double p, double level) {
  QuantileEstimate q;
  q.probability = p;
  const std::uint64_t n = h.total();
  if (n == 0) {
    q.estimate = q.ci_low = q.ci_high = q.resolution = Nullable::null("no samples");
    return q;
  }
  const auto nd = static_cast<double>(n);
  q.resolution = Nullable::null("the estimate is outside the histogram range");
  q.estimate = value_at_rank(h, std::max(1.0, p * nd), Side::kInterpolate, &q.resolution);
  const auto [lo_rank, hi_rank] = bracketing_ranks(nd, p, level);
  if (lo_rank < 1.0)
    q.ci_low = Nullable::null(kTooFewBelow);
  else
    q.ci_low = value_at_rank(h, lo_rank, Side::kLowerEdge);
  if (hi_rank > nd)
    q.ci_high = Nullable::null(kTooFewAbove);
  else
    q.ci_high = value_at_rank(h, hi_rank, Side::kUpperEdge);
  return q;
}

QuantileEstimate quantile_from_sorted(std::span<const double> sorted, double p, double level) {
  QuantileEstimate q;
  q.probability = p;
  q.resolution = Nullable::null("raw samples: no bins");
  if (sorted.empty()) {
    q.estimate = q.ci_low = q.ci_high = Nullable::null("no samples");
    return q;
  }
  const auto nd = static_cast<double>(sorted.size());
  q.estimate = Nullable::of(sorted[quantile_rank(sorted.size(), p) - 1]);
  const auto [lo_rank, hi_rank] = bracketing_ranks(nd, p, level);
  q.ci_low = lo_rank < 1.0 ? Nullable::null(kTooFewBelow)
                           : Nullable::of(sorted[static_cast<std::size_t>(lo_rank) - 1]);
  q.ci_high = hi_rank > nd ? Nullable::null(kTooFewAbove)
                           : Nullable::of(sorted[static_cast<std::size_t>(hi_rank) - 1]);
  return q;
}

}  // namespace collnoise
