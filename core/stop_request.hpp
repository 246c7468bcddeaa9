#pragma once
// A stop request (SIGINT, SIGTERM, SIGUSR1), visible to every long loop of the engine. Batch
// systems send SIGKILL some 30 s after SIGTERM, so every loop that can run longer than about a
// second polls stop_requested() and, when it is set, gives up its work by throwing StopRequested
// (or, inside an OpenMP loop, by skipping the remaining iterations and throwing after it). The
// run then keeps what was finished (docs/cli.md, "What collnoise promises").
#include <atomic>
#include <exception>

namespace collnoise {

/// Thrown when a long computation gives up because a stop was requested. Not an error: the
/// command line turns it into exit code 3.
class StopRequested : public std::exception {
 public:
  const char* what() const noexcept override { return "a stop was requested"; }
};

namespace detail {
// Lock-free, so a signal handler may store into it.
inline std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);
}  // namespace detail

/// Records a stop request; async-signal-safe. `signal` > 0 (the signal number, or any positive
/// value for a request that does not come from a signal).
inline void request_stop(int signal) noexcept {
  detail::g_stop_signal.store(signal, std::memory_order_relaxed);
}

/// Whether a stop was requested: one relaxed load, cheap enough for inner loops.
inline bool stop_requested() noexcept {
  return detail::g_stop_signal.load(std::memory_order_relaxed) != 0;
}

/// The signal number of the request, 0 if none.
inline int stop_signal() noexcept {
  return detail::g_stop_signal.load(std::memory_order_relaxed);
}

/// Forgets a request (tests; a command starts with none).
inline void clear_stop_request() noexcept {
  detail::g_stop_signal.store(0, std::memory_order_relaxed);
}

inline void throw_if_stop_requested() {
  if (stop_requested()) throw StopRequested();
}

}  // namespace collnoise
