#include "core/machine_memory.hpp"

#include <unistd.h>
#include <algorithm>
#include <fstream>
#include <string>

namespace collnoise {
namespace {

// A cgroup limit file's value; none when absent, "max" or unreadable.
double cgroup_limit(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return 0.0;
  try {
    return std::stod(text);
  } catch (...) {
    return 0.0;
  }
}

}  // namespace

double machine_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  double memory = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page)
                                        : 16.0 * (1ULL << 30);
  for (const char* limit :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    const double cap = cgroup_limit(limit);
    if (cap > 0.0) memory = std::min(memory, cap);
  }
  return memory;
}

}  // namespace collnoise
