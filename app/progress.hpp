#pragma once
// Progress on stderr (points done, samples/s, ETA), only when stderr is a terminal and the user
// did not ask for --quiet.
#include <chrono>
#include <cstdint>
#include <vector>

namespace collnoise {

class Progress {
 public:
  /// `work`: the work units (samples) of each point.
  Progress(bool enabled, std::vector<std::uint64_t> work);
  void update(std::size_t point, std::uint64_t done_in_point);
  void finish();

 private:
  bool enabled_;
  std::vector<std::uint64_t> work_;
  std::uint64_t total_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace collnoise
