#pragma once
// A stop check for loops whose steps cost anything from nanoseconds to milliseconds (a GOAL
// file's lines, a matching search through a list of a million receives): counting steps alone
// either polls too often or, when steps turn expensive, seconds apart. StopPoll counts work
// units and, every `stride` of them, polls the stop request (core/stop_request.hpp) and reads a
// steady clock: the stride halves while checks are more than kSlowCheck apart and doubles while
// they are less than kFastCheck apart, so checks land some ten to a hundred times a second
// whatever a unit costs, and a clock read costs nothing next to the units between two of them.
#include <algorithm>
#include <chrono>
#include <cstdint>

#include "core/stop_request.hpp"

namespace collnoise {

class StopPoll {
 public:
  /// `stride`: units between the first checks (adapted from then on).
  explicit StopPoll(std::uint64_t stride = 4096) : stride_(std::max<std::uint64_t>(stride, 1)) {
    countdown_ = stride_;
  }

  /// Counts `units` of work; StopRequested once a stop was requested (seen at the next check).
  void tick(std::uint64_t units = 1) {
    if (units < countdown_) {
      countdown_ -= units;
      return;
    }
    check();
  }

  /// Checks now (and starts a new stride).
  void check() {
    throw_if_stop_requested();
    const auto now = std::chrono::steady_clock::now();
    const auto since = now - last_;
    last_ = now;
    if (since > kSlowCheck && stride_ > 1)
      stride_ /= 2;
    else if (since < kFastCheck && stride_ < kMaxStride)
      stride_ *= 2;
    countdown_ = stride_;
  }

 private:
  static constexpr auto kSlowCheck = std::chrono::milliseconds(50);
  static constexpr auto kFastCheck = std::chrono::milliseconds(5);
  static constexpr std::uint64_t kMaxStride = std::uint64_t{1} << 40;
  std::uint64_t stride_;
  std::uint64_t countdown_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace collnoise
