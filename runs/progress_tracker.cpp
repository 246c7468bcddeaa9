#include "runs/progress_tracker.hpp"

#include <algorithm>
#include <thread>

#include "runs/sampling_driver.hpp"

namespace collnoise {

std::vector<ProgressPoint> progress_points(const RunSpec& run,
                                           const std::vector<PreparedPoint>& points,
                                           const RunEstimate& estimate, const PartSpec& part) {
  std::vector<ProgressPoint> out;
  for (std::size_t i = 0; i < points.size(); ++i) {
    ProgressPoint p;
    p.cost = estimate.points.at(i).core_seconds;
    if (points[i].sampled) {
      const ChunkPlan plan = chunk_plan(run, *points[i].sampled);
      p.units = samples_in(plan, part_range(plan.chunks(), part));
    } else {
      p.units = points[i].analysis->work_units();
      p.sampled = false;
    }
    out.push_back(p);
  }
  return out;
}

ProgressTracker::ProgressTracker(std::vector<ProgressPoint> points, Clock clock,
                                 const WorkInFlight& in_flight)
    : points_(std::move(points)), clock_(std::move(clock)), in_flight_(&in_flight) {
  cost_before_.push_back(0.0);
  for (const auto& p : points_) cost_before_.push_back(cost_before_.back() + std::max(0.0, p.cost));
  mine_.point_started = clock_();
  publish(mine_);
}

std::uint64_t ProgressTracker::total_samples() const {
  std::uint64_t total = 0;
  for (const auto& p : points_)
    if (p.sampled) total += p.units;
  return total;
}

double ProgressTracker::cost_done(std::size_t point, double units_done) const {
  if (point >= points_.size()) return total_cost();
  const ProgressPoint& p = points_[point];
  const double within =
      p.units > 0 ? std::min(1.0, units_done / static_cast<double>(p.units)) : 0.0;
  return cost_before_[point] + within * std::max(0.0, p.cost);
}

void ProgressTracker::begin(std::size_t point, std::uint64_t units_done) {
  mine_.start_point = point;
  mine_.start_units = units_done;
  start_point(point, units_done);
}

void ProgressTracker::start_point(std::size_t point, std::uint64_t units_done) {
  mine_.point = point;
  mine_.units_done = units_done;
  mine_.point_started = clock_();
  mine_.point_start_units = units_done;
  publish(mine_);
}

void ProgressTracker::update(std::size_t point, std::uint64_t units_done) {
  if (point != mine_.point) {
    start_point(point, units_done);
    return;
  }
  mine_.units_done = units_done;
  publish(mine_);
}

void ProgressTracker::finish_point(std::size_t point) {
  start_point(point + 1, 0);
}

// A sequence lock: the writer makes the sequence odd, stores, and makes it even again; a reader
// retries until it saw the same even sequence before and after its loads.
void ProgressTracker::publish(const ProgressSnapshot& s) {
  const std::uint64_t seq = sequence_.load(std::memory_order_relaxed);
  sequence_.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  point_.store(s.point, std::memory_order_relaxed);
  units_.store(s.units_done, std::memory_order_relaxed);
  start_point_.store(s.start_point, std::memory_order_relaxed);
  start_units_.store(s.start_units, std::memory_order_relaxed);
  point_started_ns_.store(
      std::chrono::duration_cast<std::chrono::nanoseconds>(s.point_started.time_since_epoch())
          .count(),
      std::memory_order_relaxed);
  point_start_units_.store(s.point_start_units, std::memory_order_relaxed);
  sequence_.store(seq + 2, std::memory_order_release);
}

ProgressSnapshot ProgressTracker::snapshot() const {
  for (;;) {
    const std::uint64_t before = sequence_.load(std::memory_order_acquire);
    if (before % 2 == 0) {
      ProgressSnapshot s;
      s.point = point_.load(std::memory_order_relaxed);
      s.units_done = units_.load(std::memory_order_relaxed);
      s.start_point = start_point_.load(std::memory_order_relaxed);
      s.start_units = start_units_.load(std::memory_order_relaxed);
      s.point_started = std::chrono::steady_clock::time_point(
          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
              std::chrono::nanoseconds(point_started_ns_.load(std::memory_order_relaxed))));
      s.point_start_units = point_start_units_.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (sequence_.load(std::memory_order_relaxed) == before) {
        s.in_flight = in_flight_->units();
        return s;
      }
    }
    std::this_thread::yield();
  }
}

}  // namespace collnoise
