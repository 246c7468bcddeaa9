#pragma once
// Work stealing over tasks of uneven cost, with oneTBB: replications of a noisy schedule, whose
// cost varies with the noise they meet, keep every thread busy to the end where a static split
// (or OpenMP's shared counter, fine for even loops) would leave threads idle behind the slowest.
// As for parallel_for (core/parallel_for.hpp): bodies write their own slots, the first exception
// is rethrown after the loop, and a stop request skips the rest and throws StopRequested.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>

#include "core/stop_request.hpp"

namespace collnoise {

/// body(i) for i in [0, count) on up to `threads` threads, one task per index, stolen by idle
/// threads (the order of the calls is unspecified).
template <class Body>
void parallel_tasks(std::int64_t count, int threads, Body&& body) {
  std::exception_ptr failure;
  std::mutex failure_lock;
  std::atomic<bool> skipped{false};
  const auto one = [&](std::int64_t i) {
    if (skipped.load(std::memory_order_relaxed) || stop_requested()) {
      skipped.store(true, std::memory_order_relaxed);
      return;
    }
    try {
      body(i);
    } catch (...) {
      const std::lock_guard<std::mutex> hold(failure_lock);
      if (!failure) failure = std::current_exception();
      skipped.store(true, std::memory_order_relaxed);
    }
  };
  if (threads <= 1 || count <= 1) {
    for (std::int64_t i = 0; i < count; ++i) one(i);
  } else {
    oneapi::tbb::task_arena arena(threads);
    arena.execute([&] {
      oneapi::tbb::parallel_for(
          oneapi::tbb::blocked_range<std::int64_t>(0, count, 1),
          [&](const oneapi::tbb::blocked_range<std::int64_t>& r) {
            for (std::int64_t i = r.begin(); i < r.end(); ++i) one(i);
          },
          oneapi::tbb::simple_partitioner());
    });
  }
  if (failure) std::rethrow_exception(failure);
  if (skipped.load(std::memory_order_relaxed)) throw StopRequested();
}

}  // namespace collnoise
