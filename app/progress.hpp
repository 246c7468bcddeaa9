#pragma once
// Progress on stderr (points done, samples/s, ETA), only when stderr is a terminal and the user
// did not ask for --quiet.
#include <chrono>
#include <cstdint>

namespace collnoise {

class Progress {
 public:
  Progress(bool enabled, std::size_t points, std::uint64_t samples_per_point);
  void update(std::size_t point, std::uint64_t phases_done_in_point);
  void finish();

 private:
  bool enabled_;
  std::size_t points_;
  std::uint64_t samples_per_point_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace collnoise
