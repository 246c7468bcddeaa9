#include "engine/drop_pool.hpp"

#include <algorithm>

#include "engine/errors.hpp"

namespace collnoise {

DropPool::DropPool(int threads)
    : chunks_(std::size_t{1} << (32 - kChunkBits)), free_(static_cast<std::size_t>(std::max(threads, 1))) {
  for (auto& c : chunks_) c.store(nullptr, std::memory_order_relaxed);
}

DropPool::Block& DropPool::block(std::uint32_t index) {
  Block* chunk = chunks_[index >> kChunkBits].load(std::memory_order_acquire);
  return chunk[index & ((1u << kChunkBits) - 1)];
}

std::uint32_t DropPool::allocate(int thread) {
  auto& mine = free_[static_cast<std::size_t>(thread) % free_.size()];
  if (!mine.empty()) {
    const std::uint32_t index = mine.back();
    mine.pop_back();
    return index;
  }
  const std::uint32_t index = fresh_.fetch_add(1, std::memory_order_relaxed);
  if (index == 0) throw RuntimeFailure("the drop pool ran out of blocks");
  auto& slot = chunks_[index >> kChunkBits];
  if (!slot.load(std::memory_order_acquire)) {
    const std::lock_guard guard(grow_);
    if (!slot.load(std::memory_order_relaxed)) {
      owned_.push_back(std::make_unique<Block[]>(std::size_t{1} << kChunkBits));
      slot.store(owned_.back().get(), std::memory_order_release);
    }
  }
  return index;
}

void DropPool::release(std::uint32_t index, int thread) {
  free_[static_cast<std::size_t>(thread) % free_.size()].push_back(index);
}

void DropPool::push_overflow(InlineDrops& d, double value, int thread) {
  if (d.head == 0 || block(d.head).size == Block{}.values.size()) {
    const std::uint32_t fresh = allocate(thread);
    Block& b = block(fresh);
    b.next = d.head;
    b.size = 0;
    d.head = fresh;
  }
  Block& b = block(d.head);
  b.values[b.size++] = value;
}

// The chain is unordered: find the minimum, fill its place with the head block's last value.
double DropPool::take_overflow_min(InlineDrops& d, int thread) {
  Block* where = nullptr;
  std::size_t at = 0;
  for (std::uint32_t k = d.head; k != 0; k = block(k).next) {
    Block& b = block(k);
    for (std::size_t i = 0; i < b.size; ++i)
      if (!where || b.values[i] < where->values[at]) {
        where = &b;
        at = i;
      }
  }
  const double value = where->values[at];
  Block& first = block(d.head);
  where->values[at] = first.values[--first.size];
  if (first.size == 0) {
    const std::uint32_t emptied = d.head;
    d.head = first.next;
    release(emptied, thread);
  }
  return value;
}

void DropPool::insert_spilling(InlineDrops& d, double arrival, int thread) {
  if (d.count == 255) throw RuntimeFailure("a rank has more than 255 messages to drop");
  constexpr std::size_t last = InlineDrops::kInline - 1;
  // The inline part keeps the smallest values: its largest, or the new value, spills.
  if (!(arrival < d.q[last])) {
    push_overflow(d, arrival, thread);
  } else {
    push_overflow(d, d.q[last], thread);
    std::size_t k = last;
    while (k > 0 && arrival < d.q[k - 1]) {
      d.q[k] = d.q[k - 1];
      --k;
    }
    d.q[k] = arrival;
  }
  ++d.count;
}

void DropPool::release_chain(InlineDrops& d, int thread) {
  for (std::uint32_t k = d.head; k != 0;) {
    const std::uint32_t next = block(k).next;
    release(k, thread);
    k = next;
  }
  d.head = 0;
}

}  // namespace collnoise
