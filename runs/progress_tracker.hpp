#pragma once
// Where a run stands, in the units of its estimated cost. Each point weighs what its model
// estimates it costs (core-seconds, runs/work_estimate.hpp: the models own their cost models),
// so the fraction done and the ETA stay right for sweeps whose points grow with N, where counting
// samples or points would be wrong by orders of magnitude.
//
// One thread publishes (the sampling loop of rank 0, once per chunk, or per round of chunks under
// MPI, where the rounds run in lockstep and rank 0 knows every process's count); any other thread
// reads a consistent snapshot at any time. Publishing is a few atomic stores (a sequence lock):
// no lock, no allocation, nothing the sampling threads ever wait for.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/work_in_flight.hpp"
#include "engine/study.hpp"
#include "runs/run_file.hpp"
#include "runs/work_estimate.hpp"
#include "runs/work_split.hpp"

namespace collnoise {

/// One point as progress sees it.
struct ProgressPoint {
  double cost = 0.0;        ///< estimated core-seconds of the point (in this part)
  std::uint64_t units = 0;  ///< work units it reports in all: samples, or an analysis's steps
  bool sampled = true;      ///< units are samples (else an analysis's steps)
};

/// Per point: its estimated cost and its units (the samples of this part's chunks, or the
/// analysis's work units).
std::vector<ProgressPoint> progress_points(const RunSpec& run,
                                           const std::vector<PreparedPoint>& points,
                                           const RunEstimate& estimate, const PartSpec& part);

/// What a reader sees: a consistent state of the run.
struct ProgressSnapshot {
  std::size_t point = 0;          ///< the point under way; the point count once all are done
  std::uint64_t units_done = 0;   ///< in that point, this sitting and earlier ones
  std::size_t start_point = 0;    ///< where this sitting began (a resumed run begins later)
  std::uint64_t start_units = 0;  ///< units of `start_point` done before this sitting
  /// When the point under way began in this sitting, and its units done then.
  std::chrono::steady_clock::time_point point_started;
  std::uint64_t point_start_units = 0;
  /// Of the units under way, the part done (samples that take minutes report as they go).
  double in_flight = 0.0;
};

class ProgressTracker {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  /// `in_flight`: where units under way report the part they have done.
  explicit ProgressTracker(std::vector<ProgressPoint> points,
                           Clock clock = std::chrono::steady_clock::now,
                           const WorkInFlight& in_flight = work_in_flight());

  const std::vector<ProgressPoint>& points() const { return points_; }
  /// Estimated core-seconds of every point.
  double total_cost() const { return cost_before_.back(); }
  /// Samples of every sampled point.
  std::uint64_t total_samples() const;

  // ---- the one publishing thread ----------------------------------------------------------
  /// The sitting starts at `point` with `units_done` of it already done (a resumed checkpoint);
  /// the points before it are done. Call once, before any other publication.
  void begin(std::size_t point, std::uint64_t units_done);
  /// Point `point` starts (or goes on) in this sitting with `units_done` done.
  void start_point(std::size_t point, std::uint64_t units_done);
  /// `units_done` of point `point` are done.
  void update(std::size_t point, std::uint64_t units_done);
  /// Point `point` is done.
  void finish_point(std::size_t point);

  // ---- any thread ---------------------------------------------------------------------------
  ProgressSnapshot snapshot() const;
  /// Estimated core-seconds done when `units_done` of `point` are done and every point before
  /// it: whole points, and the point's cost in proportion to its units.
  double cost_done(std::size_t point, double units_done) const;

 private:
  void publish(const ProgressSnapshot& s);

  std::vector<ProgressPoint> points_;
  std::vector<double> cost_before_;  // cost_before_[i]: of points 0 .. i-1
  Clock clock_;
  const WorkInFlight* in_flight_;
  ProgressSnapshot mine_;  // the publisher's own copy (only the publishing thread touches it)
  // The published state, read under the sequence lock: odd while being written.
  std::atomic<std::uint64_t> sequence_{0};
  std::atomic<std::uint64_t> point_{0}, units_{0}, start_point_{0}, start_units_{0};
  std::atomic<std::int64_t> point_started_ns_{0};
  std::atomic<std::uint64_t> point_start_units_{0};
};

}  // namespace collnoise
