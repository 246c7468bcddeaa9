#pragma once
// Progress on stderr (point, fraction of the estimated work done, ETA), only when stderr is a
// terminal and the user did not ask for --quiet. Points are weighted by their estimated cost
// (runs/work_estimate.hpp), so the fraction and the ETA stay right for sweeps of growing N.
#include <chrono>
#include <cstdint>
#include <vector>

namespace collnoise {

class Progress {
 public:
  /// Per point: its estimated core-seconds and the work units it reports (samples, or an
  /// analysis's own units).
  Progress(bool enabled, std::vector<double> costs, std::vector<std::uint64_t> units);
  void update(std::size_t point, std::uint64_t units_done_in_point);
  void finish();

 private:
  bool enabled_;
  std::vector<double> costs_;
  std::vector<std::uint64_t> units_;
  double total_ = 0.0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace collnoise
