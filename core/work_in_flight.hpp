#pragma once
// Work done inside units (samples, an analysis's steps) not yet finished, for progress
// (runs/progress_tracker.hpp): a sample that takes minutes (a schedule of millions of ranks)
// reports how far it is as it goes, so that the progress and its ETA move during a sample instead
// of standing still for the whole of one. Any thread adds, without locks; the progress display
// reads. Counted in millionths of a unit.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>

namespace collnoise {

class WorkInFlight {
 public:
  /// Adds `units` (negative: takes back what a unit reported).
  void add(double units) {
    millionths_.fetch_add(std::llround(units * 1e6), std::memory_order_relaxed);
  }
  /// The units in flight now (at least 0).
  double units() const {
    return static_cast<double>(
               std::max<std::int64_t>(0, millionths_.load(std::memory_order_relaxed))) /
           1e6;
  }

 private:
  std::atomic<std::int64_t> millionths_{0};
};

/// The process's.
inline WorkInFlight& work_in_flight() {
  static WorkInFlight w;
  return w;
}

/// One unit under way: reports the fraction it has done. Finished, it stays in flight as one whole
/// unit until the work it belongs to is counted (whoever counts it takes it back: a chunk of
/// samples, when it is published), so progress never steps back in between; failed or stopped,
/// it takes back what it reported.
class UnitInFlight {
 public:
  explicit UnitInFlight(WorkInFlight& w = work_in_flight()) : w_(&w) {}
  ~UnitInFlight() {
    if (!finished_) w_->add(-reported_);
  }
  UnitInFlight(const UnitInFlight&) = delete;
  UnitInFlight& operator=(const UnitInFlight&) = delete;

  /// The unit is `fraction` done (kept in [0, 0.99]: only finish() makes it whole).
  void at(double fraction) {
    const double f = std::clamp(fraction, 0.0, 0.99);
    w_->add(f - reported_);
    reported_ = f;
  }
  /// The unit is done: one whole unit in flight until counted.
  void finish() {
    w_->add(1.0 - reported_);
    reported_ = 1.0;
    finished_ = true;
  }

 private:
  WorkInFlight* w_;
  double reported_ = 0.0;
  bool finished_ = false;
};

}  // namespace collnoise
