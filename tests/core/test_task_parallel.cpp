// Work stealing over uneven tasks (core/task_parallel.hpp): every index once, whatever the thread
// count; the first failure rethrown after the loop; a stop request skips the rest and says so.
#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "core/stop_request.hpp"
#include "core/task_parallel.hpp"

using namespace collnoise;

TEST_CASE("parallel tasks: every index once, on any number of threads") {
  for (const int threads : {1, 2, 3, 8}) {
    std::vector<int> seen(1000, 0);
    parallel_tasks(1000, threads, [&](std::int64_t i) {
      // Uneven work: index i spins i % 17 times longer than index 0.
      volatile double x = 0.0;
      for (std::int64_t k = 0; k < (i % 17) * 1000; ++k) x = x + 1.0;
      ++seen[static_cast<std::size_t>(i)];
    });
    CHECK(std::count(seen.begin(), seen.end(), 1) == 1000);
  }
}

TEST_CASE("parallel tasks: a failure is rethrown after the loop") {
  for (const int threads : {1, 2}) {
    CHECK_THROWS_WITH(parallel_tasks(100, threads,
                                     [](std::int64_t i) {
                                       if (i == 37) throw std::runtime_error("task 37 failed");
                                     }),
                      "task 37 failed");
  }
}
