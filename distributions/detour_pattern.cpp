#include "distributions/detour_pattern.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/errors.hpp"

namespace collnoise {

DetourPattern::DetourPattern(std::vector<Detour> detours, double span, const std::string& what)
    : span_(span), free_(0.0) {
  if (!(span > 0.0) || !std::isfinite(span))
    throw InputError(fmt::format("{}: the pattern's period must be > 0 seconds, got {}", what, span));
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
  if (busy_.empty())
    throw InputError(fmt::format("{}: the pattern has no detour", what));
  if (!(free_ > 0.0))
    throw InputError(fmt::format(
        "{}: detours cover the whole period: the CPU would never be free", what));
}

Detour DetourPattern::detour(std::int64_t g, double offset) const {
  const auto n = static_cast<std::int64_t>(busy_.size());
  std::int64_t k = g / n;
  std::int64_t j = g % n;
  if (j < 0) {
    j += n;
    --k;
  }
  const double base = static_cast<double>(k) * span_;
  const auto& b = busy_[static_cast<std::size_t>(j)];
  return {offset + (base + b.start), offset + (base + b.end)};
}

std::int64_t DetourPattern::first_ending_after(double t, double offset) const {
  const auto n = static_cast<std::int64_t>(busy_.size());
  // Start one period early: the guess from a division may be off by one either way, and every
  // test below uses the same absolute times as detour().
  std::int64_t g = (static_cast<std::int64_t>(std::floor((t - offset) / span_)) - 1) * n;
  while (detour(g + n - 1, offset).end <= t) g += n;  // period's last detour ends after t
  std::int64_t lo = g;
  std::int64_t hi = g + n - 1;  // detour(hi).end > t
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (detour(mid, offset).end > t)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

double DetourPattern::walk(double offset, double t, double x, double& next_start) const {
  const auto n = static_cast<std::int64_t>(busy_.size());
  std::int64_t g = first_ending_after(t, offset);
  while (true) {
    const Detour d = detour(g, offset);
    if (t < d.start) {
      const double room = d.start - t;
      if (x <= room) {
        next_start = d.start;
        return t + x;
      }
      x -= room;
    }
    t = d.end;  // inside the detour, or just worked up to it: wait for its end
    ++g;
    if (x > 2.0 * free_) {
      // Whole periods: from the end of detour g-1 to the end of detour g-1+n there is exactly
      // one period's free time.
      const double periods = std::floor(x / free_) - 1.0;
      g += static_cast<std::int64_t>(periods) * n;
      x -= periods * free_;
      t = detour(g - 1, offset).end;
    }
  }
}

double DetourPattern::advance(double offset, double t, double x) const {
  if (!(x > 0.0)) return t;
  double next_start = 0.0;
  return walk(offset, t, x, next_start);
}

}  // namespace collnoise
