#include "core/memory_limit.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/machine_memory.hpp"

namespace collnoise {

double memory_limit() {
  const double set = detail::g_memory_limit.load(std::memory_order_relaxed);
  if (set > 0.0) return set;
  static const double by_default = 0.8 * machine_memory_bytes();  // (reads /proc and cgroups)
  return by_default;
}

std::string describe_memory(double bytes) {
  constexpr double kMiB = 1024.0 * 1024.0;
  if (bytes < kMiB) return fmt::format("{:.3g} KiB", bytes / 1024.0);
  if (bytes < 1024.0 * kMiB) return fmt::format("{:.3g} MiB", bytes / kMiB);
  return fmt::format("{:.3g} GiB", bytes / (1024.0 * kMiB));
}

void check_memory_limit(double bytes, const std::string& what) {
  const double limit = memory_limit();
  if (!(bytes > limit)) return;
  throw InputError(fmt::format(
      "{} would need about {} of memory, beyond the limit of {}: raise it with --max-memory-gib "
      "(or [limits] max_memory_gib) if the machine has the memory",
      what, describe_memory(bytes), describe_memory(limit)));
}

}  // namespace collnoise
