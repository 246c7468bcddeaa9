#pragma once
// The memory a command may use (--max-memory-gib, [limits] max_memory_gib; by default 80% of the
// memory this process may use, core/machine_memory.hpp), for the work done before a run's
// estimate can be made: reading a GOAL file, simulating it once to validate it, repeating a
// schedule's cycles. Such work checks what it is about to hold against the limit and refuses
// (InputError naming the memory and the limit) instead of growing until the kernel ends the
// process. Set once by a command before that work; read anywhere.
#include <atomic>
#include <string>

namespace collnoise {

namespace detail {
inline std::atomic<double> g_memory_limit{0.0};
}  // namespace detail

/// `bytes` > 0; 0 restores the default, 80% of machine_memory_bytes().
inline void set_memory_limit(double bytes) noexcept {
  detail::g_memory_limit.store(bytes, std::memory_order_relaxed);
}

/// The limit, bytes.
double memory_limit();

/// InputError "<what> would need about <bytes> of memory, beyond the limit of <limit> ..." when
/// `bytes` exceeds memory_limit().
void check_memory_limit(double bytes, const std::string& what);

/// "512 MiB", "3.1 GiB".
std::string describe_memory(double bytes);

}  // namespace collnoise
