#pragma once
// The arithmetic both critical-path recorders share (critical_path.hpp keeps the path's segments
// for timelines, path_composition.hpp carries its sums forward for attribution), so that the two
// give the same bits: exact category sums, the noise charged, the binding constraint at a tie and
// the ranks that finish last.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace collnoise::path_sums {

/// A double-double: hi + lo, |lo| at most half an ulp of hi.
struct Exact {
  double hi = 0.0, lo = 0.0;
};

/// a + b as an exact pair (Knuth's TwoSum).
inline Exact two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

/// A category's sum as the recorders keep it: hi + lo, with lo rounded to single precision after
/// each addition. Its 24 bits below hi's 53 keep a path's sum exact to about 2^-77 of it, far
/// below an ulp of the completion, in 12 bytes instead of 16 (a composition per rank holds six).
struct PathSum {
  double hi = 0.0;
  float lo = 0.0F;
};

/// Adds the length of [from, to] (both engine times, ns) to `total`: the difference is exact as a
/// pair, added as a pair. Both recorders add a path's spans in time order, hence the same bits.
inline void add_span(PathSum& total, double from, double to) {
  const Exact d = two_sum(to, -from);
  const Exact s = two_sum(total.hi, d.hi);
  const Exact t = two_sum(s.lo, static_cast<double>(total.lo) + d.lo);
  Exact r = two_sum(s.hi, t.hi);
  r.lo += t.lo;
  total.hi = r.hi;
  total.lo = static_cast<float>(r.lo);
}
/// The sum as a double (rounded once).
inline double value_of(const PathSum& s) {
  return s.hi + static_cast<double>(s.lo);
}

/// The noise of [from, to] in a step bucket (single precision, summed in time order: the buckets
/// say how the path's noise spreads, to about 1e-7 of it).
inline void add_bucket(float& bucket, double from, double to) {
  bucket += static_cast<float>(to - from);
}

/// A compensated sum (Neumaier's), for the noise charged to all of a sample's operations.
class CompensatedSum {
 public:
  void add(double amount) {
    const double sum = sum_ + amount;
    carry_ += std::abs(sum_) >= std::abs(amount) ? (sum_ - sum) + amount : (amount - sum) + sum_;
    sum_ = sum;
  }
  double value() const { return sum_ + carry_; }

 private:
  double sum_ = 0.0, carry_ = 0.0;
};

/// Which of the candidates' end times binds an operation starting at `t`: the first equal to `t`
/// (the tie rule is the candidates' order); else none is one of the engine's times, and the
/// latest before `t` is taken and counted in `unmatched`.
inline std::size_t binding(double t, std::span<const double> ends, std::uint64_t& unmatched) {
  std::size_t i = 0, latest = 0;
  double latest_end = -1.0;
  for (const double end : ends) {
    if (end == t) return i;
    if (end < t && end > latest_end) latest = i, latest_end = end;
    ++i;
  }
  ++unmatched;
  return latest;
}

template <std::size_t N>
std::size_t binding(double t, const double (&ends)[N], std::uint64_t& unmatched) {
  return binding(t, std::span<const double>(ends), unmatched);
}

/// The ranks whose finishing time is `completion`, increasing.
inline std::vector<std::uint32_t> ranks_finishing_at(std::span<const double> finish,
                                                     double completion) {
  std::vector<std::uint32_t> ranks;
  for (std::uint32_t r = 0; r < finish.size(); ++r)
    if (finish[r] == completion) ranks.push_back(r);
  return ranks;
}

}  // namespace collnoise::path_sums
