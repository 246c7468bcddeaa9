#include "estimators/histogram.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"

namespace collnoise {

Histogram::Histogram(double lo, double hi, std::size_t bins, BinSpacing spacing)
    : spacing_(spacing) {
  if (!(lo < hi) || bins == 0 || !std::isfinite(lo) || !std::isfinite(hi))
    throw InputError(fmt::format("histogram range [{}, {}] with {} bins is invalid", lo, hi, bins));
  if (spacing == BinSpacing::kLog && !(lo > 0.0))
    throw InputError(fmt::format("log-spaced histogram needs a positive lower edge, got {}", lo));
  edges_.resize(bins + 1);
  for (std::size_t i = 0; i <= bins; ++i) {
    const double f = static_cast<double>(i) / static_cast<double>(bins);
    edges_[i] = spacing == BinSpacing::kLinear ? lo + (hi - lo) * f : lo * std::pow(hi / lo, f);
  }
  edges_.front() = lo;
  edges_.back() = hi;
  counts_.assign(bins, 0);
}

void Histogram::add(double x) {
  add(x, 1);
}

void Histogram::add(double x, std::uint64_t count) {
  if (x < edges_.front()) {
    underflow_ += count;
    return;
  }
  if (x >= edges_.back()) {
    overflow_ += count;
    return;
  }
  // Bins are half-open [e_i, e_i+1): the bin is the last edge <= x.
  const auto it = std::upper_bound(edges_.begin(), edges_.end(), x);
  counts_[static_cast<std::size_t>(it - edges_.begin()) - 1] += count;
}

void Histogram::clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  underflow_ = overflow_ = 0;
}

void Histogram::merge(const Histogram& other) {
  if (other.edges_ != edges_) throw RuntimeFailure("cannot merge histograms with different edges");
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  underflow_ += other.underflow_;
  overflow_ += other.overflow_;
}

std::uint64_t Histogram::total() const {
  return std::accumulate(counts_.begin(), counts_.end(), underflow_ + overflow_);
}

Histogram Histogram::from_parts(std::vector<double> edges, std::vector<std::uint64_t> counts,
                                std::uint64_t underflow, std::uint64_t overflow,
                                BinSpacing spacing) {
  if (edges.size() != counts.size() + 1)
    throw RuntimeFailure("histogram edges must have one more entry than counts");
  Histogram h;
  h.edges_ = std::move(edges);
  h.counts_ = std::move(counts);
  h.underflow_ = underflow;
  h.overflow_ = overflow;
  h.spacing_ = spacing;
  return h;
}

std::string to_string(BinSpacing spacing) {
  return spacing == BinSpacing::kLinear ? "linear" : "log";
}

}  // namespace collnoise
