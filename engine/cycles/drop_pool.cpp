#include "engine/cycles/drop_pool.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace collnoise {

DropPool::DropPool(std::size_t ranks, int threads)
    : head_(ranks, 0),
      chunks_(std::size_t{1} << (32 - kChunkBits)),
      free_(static_cast<std::size_t>(std::max(threads, 1))) {
  for (auto& c : chunks_) c.store(nullptr, std::memory_order_relaxed);
}

DropPool::Block& DropPool::block(std::uint32_t index) {
  Block* chunk = chunks_[index >> kChunkBits].load(std::memory_order_acquire);
  return chunk[index & ((1u << kChunkBits) - 1)];
}

std::uint32_t DropPool::allocate(int thread) {
  FreeList& mine = free_[static_cast<std::size_t>(thread)];  // thread < threads
  if (mine.head == 0) {
    // Take a batch of pooled blocks under one lock.
    const std::lock_guard guard(grow_);
    for (int k = 0; k < 256 && shared_free_ != 0; ++k) {
      const std::uint32_t index = shared_free_;
      shared_free_ = block(index).next;
      if (mine.head == 0) mine.tail = index;
      block(index).next = mine.head;
      mine.head = index;
    }
  }
  if (mine.head != 0) {
    const std::uint32_t index = mine.head;
    mine.head = block(index).next;
    return index;
  }
  const std::uint32_t index = fresh_.fetch_add(1, std::memory_order_relaxed);
  if (index == 0) throw RuntimeFailure("the drop pool ran out of blocks");
  auto& slot = chunks_[index >> kChunkBits];
  if (!slot.load(std::memory_order_acquire)) {
    const std::lock_guard guard(grow_);
    if (!slot.load(std::memory_order_relaxed)) {
      owned_.push_back(std::make_unique_for_overwrite<Block[]>(std::size_t{1} << kChunkBits));
      slot.store(owned_.back().get(), std::memory_order_release);
    }
  }
  return index;
}

void DropPool::release(std::uint32_t index, int thread) {
  FreeList& mine = free_[static_cast<std::size_t>(thread)];  // thread < threads
  if (mine.head == 0) mine.tail = index;
  block(index).next = mine.head;
  mine.head = index;
}

void DropPool::give_back(int thread) {
  FreeList& mine = free_[static_cast<std::size_t>(thread)];
  if (mine.head == 0) return;
  const std::lock_guard guard(grow_);
  block(mine.tail).next = shared_free_;
  shared_free_ = mine.head;
  mine.head = 0;
}

void DropPool::push_overflow(std::size_t rank, double value, int thread) {
  std::uint32_t& head = head_[rank];
  if (head == 0 || block(head).size == std::tuple_size_v<decltype(Block::values)>) {
    const std::uint32_t fresh = allocate(thread);
    Block& b = block(fresh);
    b.next = head;
    b.size = 0;
    head = fresh;
  }
  Block& b = block(head);
  b.values[b.size++] = value;
}

// The chain is unordered: find the minimum, fill its place with the head block's last value.
double DropPool::take_overflow_min(std::size_t rank, int thread) {
  std::uint32_t& head = head_[rank];
  Block* where = nullptr;
  std::size_t at = 0;
  for (std::uint32_t k = head; k != 0; k = block(k).next) {
    Block& b = block(k);
    for (std::size_t i = 0; i < b.size; ++i)
      if (!where || b.values[i] < where->values[at]) {
        where = &b;
        at = i;
      }
  }
  const double value = where->values[at];
  Block& first = block(head);
  where->values[at] = first.values[--first.size];
  if (first.size == 0) {
    const std::uint32_t emptied = head;
    head = first.next;
    release(emptied, thread);
  }
  return value;
}

void DropPool::release_chain(std::size_t rank, int thread) {
  for (std::uint32_t k = head_[rank]; k != 0;) {
    const std::uint32_t next = block(k).next;
    release(k, thread);
    k = next;
  }
  head_[rank] = 0;
}

}  // namespace collnoise
