#pragma once
// How much memory this process may use: the machine's physical memory, or less when a batch
// system's control group (cgroup v2 memory.max, or v1 memory.limit_in_bytes) caps it.
namespace collnoise {

/// Bytes.
double machine_memory_bytes();

}  // namespace collnoise
