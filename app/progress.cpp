#include "app/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cstdio>

namespace collnoise {

Progress::Progress(bool enabled, std::size_t points, std::uint64_t samples_per_point)
    : enabled_(enabled && ::isatty(STDERR_FILENO)),
      points_(points),
      samples_per_point_(samples_per_point),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(std::size_t point, std::uint64_t phases_done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double done = static_cast<double>(point) * samples_per_point_ + phases_done;
  const double total = static_cast<double>(points_) * samples_per_point_;
  const double rate = done / std::max(elapsed, 1e-9);
  const double eta = rate > 0 ? (total - done) / rate : 0.0;
  fmt::print(stderr, "\r  point {}/{}  {:.3g} phases/s  ETA {:.0f} s   ", point + 1, points_, rate,
             eta);
  std::fflush(stderr);
}

void Progress::finish() {
  if (enabled_) fmt::print(stderr, "\r{:60}\r", "");
}

}  // namespace collnoise
