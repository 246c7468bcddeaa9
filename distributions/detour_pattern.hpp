#pragma once
// A pattern of CPU detours that repeats with a period (docs/models/time-noise.md): periodic(P, D)
// noise is the pattern {[0, D)} of period P, and a measured trace is its list of detours, repeated
// at the trace's span (the rank "wraps around" at the end). A rank sees the pattern shifted by its
// own offset: detour g covers [offset + k span + s_j, offset + k span + e_j), g = k n + j.
//
// advance(offset, t, x) is the earliest t' such that the detour-free time in [t, t') equals x:
// CPU work started at t is suspended while a detour lasts and resumes when it ends. Detours are
// half-open, exist for every integer k (a rank may be inside one at t = 0), and advance(t, 0) = t
// even inside a detour. Every absolute time is computed by one formula, so callers that cache
// the next detour (the fast engines) get the same bits as callers that do not.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace collnoise {

struct Detour {
  double start = 0.0;  ///< seconds
  double end = 0.0;    ///< seconds, > start
};

class DetourPattern {
 public:
  /// `detours` in pattern time (seconds, start >= 0, end > start; they may overlap, and may
  /// extend past `span`, wrapping to the next period); `span` > 0 seconds. Preconditions
  /// checked (InputError naming `what`): some time in each period must be detour-free.
  DetourPattern(std::vector<Detour> detours, double span, const std::string& what);

  double span() const { return span_; }
  /// Detour-free seconds per period.
  double free_per_period() const { return free_; }
  /// Merged busy intervals of one period, in [0, span).
  const std::vector<Detour>& busy() const { return busy_; }

  /// Detour number g of a rank whose pattern starts at `offset` (absolute seconds).
  Detour detour(std::int64_t g, double offset) const;
  /// The number of the first detour whose end is after t.
  std::int64_t first_ending_after(double t, double offset) const;
  /// Earliest t' >= t with x seconds of detour-free time in [t, t'). Precondition x >= 0.
  double advance(double offset, double t, double x) const;
  /// Same, for a caller that keeps `next_start`: a float no later than the start of the first
  /// detour ending after the previous result (-infinity when unknown), updated here; 4 bytes a
  /// rank. `offset()` gives the rank's offset, asked for only when the cached bound does not
  /// settle the answer. Same bits as advance(), provided t never decreases between calls.
  template <class OffsetFn>
  [[gnu::always_inline]] double advance_cached(OffsetFn&& offset, double t, double x,
                                               float& next_start) const {
    if (!(x > 0.0)) return t;
    // Times only grow, so no detour starts between t and the cached one. With lb <= the start,
    // fl(lb - t) <= fl(start - t) (rounding is monotone): the walk's own test would pass too,
    // and its answer is the same t + x. (x > 0 and x <= fl(lb - t) imply t < lb: no test.)
    const double lb = next_start;
    if (x <= lb - t) return t + x;
    return advance_and_cache(offset(), t, x, next_start);
  }

  /// The largest float not above x.
  static float float_at_or_below(double x);

  /// Periods (and detours) a pattern may be placed through: beyond 2^40 periods from the
  /// origin a double no longer tells the detours of one period apart, and the period counts
  /// would approach the integer range.
  static constexpr double kMaxPeriods = 0x1.0p40;
  /// InputError naming `key` unless simulated times up to `horizon` seconds stay within
  /// kMaxPeriods periods.
  void check_resolution(double horizon, const std::string& key) const;

 private:
  /// Detour j of period k.
  struct Position {
    std::int64_t k;
    std::size_t j;
  };
  Detour at(std::int64_t k, std::size_t j, double offset) const {
    const double base = static_cast<double>(k) * span_;
    return {offset + (base + busy_[j].start), offset + (base + busy_[j].end)};
  }
  void build_index();
  Position position_after(double t, double offset) const;
  /// The detours of a period among which the first ending after `within` (pattern time, seconds
  /// from the period's start) lies, by the index: a guess, which position_after() checks.
  std::pair<std::size_t, std::size_t> candidates(double within) const;
  double walk(double offset, double t, double x, double& next_start) const;
  /// The walk, then the new bound into `next_start` (out of line: the rare path).
  double advance_and_cache(double offset, double t, double x, float& next_start) const;

  std::vector<Detour> busy_;
  /// The index: first_after_[b] is the first detour ending after b span / B, B =
  /// first_after_.size() - 1 buckets, twice the detours or more (at most 2^24: no more memory
  /// than the detours' own). A trace's thousand detours took a binary search of ten dependent
  /// steps per look-up (a twentieth of a noisy GOAL run); through the index, one or two. Empty
  /// for a pattern of a few detours (16 or fewer), searched as it is.
  std::vector<std::uint32_t> first_after_;
  double span_;
  double free_;
};

}  // namespace collnoise
