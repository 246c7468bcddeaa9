#include "distributions/detour_pattern.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/errors.hpp"

namespace collnoise {
namespace {

// Patterns of at most this many detours keep no index.
constexpr std::size_t kUnindexed = 16;

}  // namespace

DetourPattern::DetourPattern(std::vector<Detour> detours, double span, const std::string& what)
    : span_(span), free_(0.0) {
  if (!(span > 0.0) || !std::isfinite(span))
    throw InputError(
        fmt::format("{}: the pattern's period must be > 0 seconds, got {}", what, span));
  // Fold every detour into [0, span): a detour longer than the period covers it all.
  std::vector<Detour> folded;
  for (const auto& d : detours) {
    if (!(d.start >= 0.0) || !(d.end > d.start) || !std::isfinite(d.end))
      throw InputError(fmt::format("{}: detour [{}, {}) is invalid", what, d.start, d.end));
    if (d.end - d.start >= span) {
      folded.push_back({0.0, span});
      continue;
    }
    const double s = std::fmod(d.start, span);
    const double e = s + (d.end - d.start);
    if (e <= span) {
      folded.push_back({s, e});
    } else {
      folded.push_back({s, span});
      folded.push_back({0.0, e - span});
    }
  }
  std::sort(folded.begin(), folded.end(),
            [](const Detour& a, const Detour& b) { return a.start < b.start; });
  for (const auto& d : folded) {
    if (!busy_.empty() && d.start <= busy_.back().end)
      busy_.back().end = std::max(busy_.back().end, d.end);
    else
      busy_.push_back(d);
  }
  double busy_total = 0.0;
  for (const auto& d : busy_) busy_total += d.end - d.start;
  free_ = span_ - busy_total;
  if (busy_.empty()) throw InputError(fmt::format("{}: the pattern has no detour", what));
  if (!(free_ > 0.0))
    throw InputError(
        fmt::format("{}: detours cover the whole period: the CPU would never be free", what));
  build_index();
}

void DetourPattern::build_index() {
  // Merged detours are sorted by their ends too. (A pattern of 2^32 detours would not fit in
  // memory: their indices fit in 32 bits.)
  const std::size_t n = busy_.size();
  // A few detours take a few steps of binary search: no index (periodic noise's one detour took
  // 5 % longer through it in the reference cycle engine).
  if (n <= kUnindexed) return;
  const std::size_t buckets = std::min(std::bit_ceil(2 * n), std::size_t{1} << 24);
  first_after_.resize(buckets + 1);
  std::size_t j = 0;
  for (std::size_t b = 0; b <= buckets; ++b) {
    const double at = span_ * static_cast<double>(b) / static_cast<double>(buckets);
    while (j < n && busy_[j].end <= at) ++j;
    first_after_[b] = static_cast<std::uint32_t>(j);
  }
}

Detour DetourPattern::detour(std::int64_t g, double offset) const {
  const auto n = static_cast<std::int64_t>(busy_.size());
  std::int64_t k = g / n;
  std::int64_t j = g % n;
  if (j < 0) {
    j += n;
    --k;
  }
  return at(k, static_cast<std::size_t>(j), offset);
}

std::int64_t DetourPattern::first_ending_after(double t, double offset) const {
  const Position p = position_after(t, offset);
  return p.k * static_cast<std::int64_t>(busy_.size()) + static_cast<std::int64_t>(p.j);
}

namespace {

// A period count as an integer. Validated horizons keep counts within 2^40
// (check_resolution); the clamp only keeps an unvalidated caller clear of undefined behaviour.
std::int64_t to_count(double periods) {
  constexpr double kLimit = 0x1.0p62;
  return static_cast<std::int64_t>(std::clamp(periods, -kLimit, kLimit));
}

}  // namespace

void DetourPattern::check_resolution(double horizon, const std::string& key) const {
  if (!(horizon / span_ <= kMaxPeriods))
    throw InputError(fmt::format(
        "{} = {:g} s is too short for this point: its simulated times reach about {:g} s, "
        "{:.3g} periods, and detours cannot be placed beyond 2^40 periods (lengthen the period, "
        "or shorten the run)",
        key, span_, horizon, horizon / span_));
}

DetourPattern::Position DetourPattern::position_after(double t, double offset) const {
  // Start one period early: the guess from a division may be off by one either way, and every
  // test below uses the same absolute times as at().
  Position p{to_count(std::floor((t - offset) / span_)) - 1, 0};
  const std::size_t last = busy_.size() - 1;
  while (at(p.k, last, offset).end <= t) ++p.k;  // the period's last detour ends after t
  // It is the first of period k ending after t. The index narrows the search to a few detours;
  // the guess is checked with the absolute times (t may fall a bucket off by rounding).
  std::size_t lo = 0;
  std::size_t hi = last;
  if (!first_after_.empty()) {
    std::tie(lo, hi) = candidates(t - (offset + static_cast<double>(p.k) * span_));
    if ((lo > 0 && at(p.k, lo - 1, offset).end > t) || at(p.k, hi, offset).end <= t) {
      lo = 0;
      hi = last;
    }
  }
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (at(p.k, mid, offset).end > t)
      hi = mid;
    else
      lo = mid + 1;
  }
  p.j = lo;
  return p;
}

std::pair<std::size_t, std::size_t> DetourPattern::candidates(double within) const {
  const std::size_t buckets = first_after_.size() - 1;
  const double x = within / span_ * static_cast<double>(buckets);
  // The bucket of `within`, clamped (a time before the period's start, or past its end), and one
  // more either side.
  const std::size_t b =
      x > 0.0 ? static_cast<std::size_t>(std::min(x, static_cast<double>(buckets))) : 0;
  const std::size_t lo = first_after_[b == 0 ? 0 : b - 1];
  const std::size_t hi = first_after_[std::min(b + 2, buckets)];
  return {lo, std::min(hi, busy_.size() - 1)};
}

double DetourPattern::walk(double offset, double t, double x, double& next_start) const {
  Position p = position_after(t, offset);
  while (true) {
    const Detour d = at(p.k, p.j, offset);
    if (t < d.start) {
      const double room = d.start - t;
      if (x <= room) {
        next_start = d.start;
        return t + x;
      }
      x -= room;
    }
    t = d.end;  // inside the detour, or just worked up to it: wait for its end
    if (++p.j == busy_.size()) {
      p.j = 0;
      ++p.k;
    }
    if (x > 2.0 * free_) {
      // Whole periods: from the end of one detour to the end of the same detour a period later
      // there is exactly one period's free time.
      const double periods = std::floor(x / free_) - 1.0;
      p.k += to_count(periods);
      x -= periods * free_;
      const std::size_t previous = p.j == 0 ? busy_.size() - 1 : p.j - 1;
      t = at(p.j == 0 ? p.k - 1 : p.k, previous, offset).end;
    }
  }
}

float DetourPattern::float_at_or_below(double x) {
  const float f = static_cast<float>(x);
  if (!(static_cast<double>(f) > x)) return f;
  // One float step down (f is finite here: a cast rounds up only below FLT_MAX): the bits of a
  // positive float fall by one, those of a negative one rise; from +0 to the smallest negative.
  const auto bits = std::bit_cast<std::uint32_t>(f);
  if (f > 0.0f) return std::bit_cast<float>(bits - 1);
  if (f < 0.0f) return std::bit_cast<float>(bits + 1);
  return -std::numeric_limits<float>::denorm_min();
}

double DetourPattern::advance_and_cache(double offset, double t, double x,
                                        float& next_start) const {
  double start = 0.0;
  const double result = walk(offset, t, x, start);
  next_start = float_at_or_below(start);
  return result;
}

double DetourPattern::advance(double offset, double t, double x) const {
  if (!(x > 0.0)) return t;
  double next_start = 0.0;
  return walk(offset, t, x, next_start);
}

}  // namespace collnoise
