#pragma once
// Fixed-edge histogram with integer counts (mergeable exactly), linear or log-spaced bins, and
// separate underflow / overflow counts. edges has one more entry than counts.
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise {

enum class BinSpacing { kLinear, kLog };

class Histogram {
 public:
  Histogram() = default;
  /// Preconditions: lo < hi, bins >= 1, lo > 0 for log spacing (checked: InputError).
  Histogram(double lo, double hi, std::size_t bins, BinSpacing spacing);

  void add(double x);
  /// Adds `count` at x (a weight in whole units: counts stay integers and merge exactly).
  void add(double x, std::uint64_t count);
  /// Zeroes the counts, keeping the edges.
  void clear();
  /// Precondition: same edges (checked: RuntimeFailure).
  void merge(const Histogram& other);

  const std::vector<double>& edges() const { return edges_; }
  const std::vector<std::uint64_t>& counts() const { return counts_; }
  std::uint64_t underflow() const { return underflow_; }
  std::uint64_t overflow() const { return overflow_; }
  std::uint64_t total() const;
  BinSpacing spacing() const { return spacing_; }

  /// Rebuilds from stored parts (file readers).
  static Histogram from_parts(std::vector<double> edges, std::vector<std::uint64_t> counts,
                              std::uint64_t underflow, std::uint64_t overflow, BinSpacing spacing);

 private:
  std::vector<double> edges_;
  std::vector<std::uint64_t> counts_;
  std::uint64_t underflow_ = 0;
  std::uint64_t overflow_ = 0;
  BinSpacing spacing_ = BinSpacing::kLinear;
};

std::string to_string(BinSpacing spacing);

}  // namespace collnoise
