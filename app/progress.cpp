#include "app/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <numeric>

namespace collnoise {

Progress::Progress(bool enabled, std::vector<double> costs, std::vector<std::uint64_t> units)
    : enabled_(enabled && ::isatty(STDERR_FILENO)),
      costs_(std::move(costs)),
      units_(std::move(units)),
      total_(std::accumulate(costs_.begin(), costs_.end(), 0.0)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(std::size_t point, std::uint64_t units_done_in_point) {
  if (!enabled_ || point >= costs_.size()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double before =
      std::accumulate(costs_.begin(), costs_.begin() + static_cast<std::ptrdiff_t>(point), 0.0);
  const double within = units_[point] > 0 ? static_cast<double>(units_done_in_point) /
                                                static_cast<double>(units_[point])
                                          : 0.0;
  const double fraction =
      total_ > 0.0 ? std::clamp((before + within * costs_[point]) / total_, 0.0, 1.0) : 0.0;
  const double eta = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  fmt::print(stderr, "\r  point {}/{}  {:5.1f}% of the estimated work  ETA {:.0f} s   ", point + 1,
             costs_.size(), 100.0 * fraction, eta);
  std::fflush(stderr);
}

void Progress::finish() {
  if (enabled_) fmt::print(stderr, "\r{:70}\r", "");
}

}  // namespace collnoise
