#pragma once
// An allocator for the engines' large arrays that asks the kernel for transparent huge pages.
//
// Why: the schedule engine reads and writes a rank's state, its dependency counters and its
// queued events at random places in hundreds of megabytes once noise scatters the ranks in time.
// With 4 KiB pages nearly every such access also misses the TLB and walks the page tables; 2 MiB
// pages take most of those walks away. Many kernels (Debian's among them) give huge pages only
// where a program asks for them (transparent_hugepage=madvise), hence the madvise. It is advice:
// where the kernel declines, the memory is ordinary and only slower.
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>
#include <vector>

namespace collnoise {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  /// Arrays from this size up are placed on huge-page boundaries and advised.
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage)
      return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice: a refusal leaves ordinary pages
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePage)
      ::operator delete (p, std::align_val_t{alignof(T)});
    else
      std::free(p);
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

/// A vector whose storage, from 2 MiB up, lies on transparent huge pages where the kernel allows.
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace collnoise
