#pragma once
// Exact bisection over doubles: non-negative doubles order like their bit patterns, so bisecting
// the bits ends on the exact boundary (adjacent doubles) in at most 64 steps.
#include <algorithm>
#include <bit>
#include <cstdint>

namespace collnoise {

/// Smallest double x in [lo, hi] (both >= 0) with pred(x) true, for a predicate that is false
/// and then true along the line; returns hi when pred(hi) is the first true value.
template <class Pred>
double first_true_nonnegative(double lo, double hi, Pred pred) {
  auto a = std::bit_cast<std::uint64_t>(std::max(lo, 0.0));
  auto b = std::bit_cast<std::uint64_t>(std::max(hi, 0.0));
  if (pred(std::bit_cast<double>(a))) return std::bit_cast<double>(a);
  while (b - a > 1) {
    const std::uint64_t mid = a + (b - a) / 2;
    if (pred(std::bit_cast<double>(mid)))
      b = mid;
    else
      a = mid;
  }
  return std::bit_cast<double>(b);
}

}  // namespace collnoise
