#include "app/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cstdio>
#include <numeric>

namespace collnoise {

Progress::Progress(bool enabled, std::vector<std::uint64_t> work)
    : enabled_(enabled && ::isatty(STDERR_FILENO)),
      work_(std::move(work)),
      total_(std::accumulate(work_.begin(), work_.end(), std::uint64_t{0})),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(std::size_t point, std::uint64_t done_in_point) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const auto before = std::accumulate(
      work_.begin(), work_.begin() + static_cast<std::ptrdiff_t>(point), std::uint64_t{0});
  const double done = static_cast<double>(before + done_in_point);
  const double rate = done / std::max(elapsed, 1e-9);
  const double eta = rate > 0 ? (static_cast<double>(total_) - done) / rate : 0.0;
  fmt::print(stderr, "\r  point {}/{}  {:.3g} samples/s  ETA {:.0f} s   ", point + 1, work_.size(),
             rate, eta);
  std::fflush(stderr);
}

void Progress::finish() {
  if (enabled_) fmt::print(stderr, "\r{:60}\r", "");
}

}  // namespace collnoise
