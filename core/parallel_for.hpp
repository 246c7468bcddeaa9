#pragma once
// An OpenMP loop whose body may throw (a stop request, a bad input found deep in a model). An
// exception must not leave an OpenMP region, so the first one is caught, the remaining
// iterations are skipped, and it is rethrown after the loop. A stop request also skips the
// remaining iterations; if any was skipped, StopRequested follows the loop, so a caller never
// mistakes a partly done loop for a finished one.
#include <atomic>
#include <cstdint>
#include <exception>

#include "core/stop_request.hpp"

namespace collnoise {

/// body(i) for i in [0, count) on up to `threads` threads, `chunk` iterations at a time taken
/// dynamically (the order of the calls is unspecified: bodies write their own slots).
/// Grain: each call is one parallel region whose threads sleep before and after it
/// (core/thread_policy.hpp), and waking them costs tens of microseconds, so a call should hold a
/// millisecond of work or more, and a chunk some tens of microseconds. Taken dynamically, the
/// chunks of a thread that the machine deschedules (a busy core) go to the others.
template <class Body>
void parallel_for(std::int64_t count, int threads, Body&& body, std::int64_t chunk = 1) {
  std::exception_ptr failure;
  std::atomic<bool> skipped{false};
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk) if (threads > 1 && count > 1)
  for (std::int64_t i = 0; i < count; ++i) {
    if (skipped.load(std::memory_order_relaxed) || stop_requested()) {
      skipped.store(true, std::memory_order_relaxed);
      continue;
    }
    try {
      body(i);
    } catch (...) {
#pragma omp critical(collnoise_parallel_for_failure)
      if (!failure) failure = std::current_exception();
      skipped.store(true, std::memory_order_relaxed);
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (skipped.load(std::memory_order_relaxed)) throw StopRequested();
}

}  // namespace collnoise
