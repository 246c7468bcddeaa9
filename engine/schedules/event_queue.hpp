#pragma once
// The schedule engine's priority queue: a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan) over
// the bit patterns of non-negative double times, which order as unsigned integers do.
//
// Why not a binary heap: the engine holds up to millions of pending events, and a binary heap of
// that size misses the cache at every level of every pop. A radix heap appends to one of 65
// buckets and reads them front to back, so an event costs a few sequential moves; and as events
// of equal time leave in the order they were first queued, the engine visits ranks in the order
// a round touched them, which keeps its per-rank state streaming through the cache.
//
// A radix heap needs a monotone queue: no event pushed earlier than the last one popped. The
// schedule engine nearly always is (a rank's resources only move forward); the exception is a
// rendezvous on ranks with several CPUs, where LogGOPSim's rules can queue an operation at the
// earlier free time of another CPU. Such events wait in a small binary heap that is served
// first (they are earlier than everything in the buckets), so the order stays exact.
// Events of equal time leave in order of `stamp`, the order LogGOPSim breaks ties in.
//
// Bucket 0 (`current_`) holds, sorted, the events whose keys differ from `last_` only in their
// lowest `window_` bits, so the engine can see a few events ahead and prefetch the state they
// will touch. Where many events share one time (noiseless, symmetric algorithms) the window is a
// single time, as in a textbook radix heap; once noise spreads the events out, the window widens
// (adapted at each refill) until it holds a few dozen of them.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <queue>
#include <vector>

#include "core/huge_page_allocator.hpp"

namespace collnoise {

template <class Event>  // Event has `double time` (>= 0) and a unique `std::uint64_t stamp`
class RadixEventQueue {
 public:
  bool empty() const { return head_ == current_.size() && occupied_ == 0 && past_.empty(); }

  /// Events leave in order of (time, stamp); the queue is fastest when no event is pushed
  /// earlier than the last one popped (those wait in a small binary heap).
  void push(const Event& e) {
    const std::uint64_t key = key_of(e.time);
    if (key < last_) {
      past_.push(e);
    } else if (((key ^ last_) >> window_) == 0) {
      insert_current(e);
    } else {
      append(static_cast<unsigned>(64 - std::countl_zero(key ^ last_)), e, key);
    }
  }

  /// The earliest event (ties: the smallest stamp). Precondition: !empty().
  Event pop() {
    if (!past_.empty()) {
      const Event e = past_.top();
      past_.pop();
      return e;
    }
    if (head_ == current_.size()) refill();
    return current_[head_++];
  }

  /// The event `k` places behind the next one among those of the current time, if there is one
  /// (the engine prefetches the state it will touch).
  const Event* ahead(std::size_t k) const {
    return head_ + k < current_.size() ? &current_[head_ + k] : nullptr;
  }

  /// Bytes reserved.
  std::size_t capacity_bytes() const {
    return (current_.capacity() + past_.size()) * sizeof(Event) +
           slabs_.size() * kSlabBlocks * sizeof(Block);
  }

 private:
  // Buckets 1..64 are chains of fixed blocks from one pool with a free list: a drained bucket's
  // blocks serve the next, so memory follows what is queued (not the most each of 64 buckets
  // ever held, several times more) and no block is allocated twice.
  static constexpr std::size_t kBlockEvents = 1024;
  using Block = std::array<Event, kBlockEvents>;
  struct Chain {
    std::vector<std::uint32_t> blocks;
    Event* next = nullptr;  ///< where the next event goes in the last block
    Event* end = nullptr;   ///< the end of the last block
    std::uint64_t least = std::numeric_limits<std::uint64_t>::max();  ///< the smallest key held
  };

  static std::uint64_t key_of(double t) { return std::bit_cast<std::uint64_t>(t + 0.0); }

  // A function object, not a function: std::sort and std::upper_bound inline it.
  static constexpr auto earlier = [](const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.stamp < b.stamp);
  };

  // Into bucket 0 at its place among the events not yet popped (mostly at the end: a later time,
  // or the same time with a fresh stamp).
  void insert_current(const Event& e) {
    if (head_ == current_.size()) {
      current_.clear();
      head_ = 0;
    }
    if (current_.empty() || !earlier(e, current_.back())) {
      current_.push_back(e);
      return;
    }
    const auto at = std::upper_bound(current_.begin() + static_cast<std::ptrdiff_t>(head_),
                                     current_.end(), e, earlier);
    current_.insert(at, e);
  }

  void append(unsigned bucket, const Event& e, std::uint64_t key) {
    Chain& c = chains_[bucket];
    if (c.next == c.end) {
      const std::uint32_t b = take_block();
      c.blocks.push_back(b);
      c.next = block(b).data();
      c.end = c.next + kBlockEvents;
    }
    *c.next++ = e;
    c.least = std::min(c.least, key);
    occupied_ |= std::uint64_t{1} << (bucket - 1);
  }

  Block& block(std::uint32_t b) { return slabs_[b / kSlabBlocks][b % kSlabBlocks]; }

  std::uint32_t take_block() {
    if (free_.empty()) {
      if (blocks_ % kSlabBlocks == 0) slabs_.emplace_back(kSlabBlocks);
      return blocks_++;
    }
    const std::uint32_t b = free_.back();
    free_.pop_back();
    return b;
  }

  // Bucket 0 is spent: the smallest non-empty bucket is spread around its minimum, which becomes
  // `last_`; its events within the window of it, sorted, are the new bucket 0.
  //
  // Why the window may take no more bits than the spread bucket's number: the other buckets' keys
  // differ from the new `last_` in a bit at least that high, so none of them belongs in it.
  void refill() {
    current_.clear();
    head_ = 0;
    const auto bucket = static_cast<unsigned>(std::countr_zero(occupied_)) + 1;
    occupied_ &= ~(std::uint64_t{1} << (bucket - 1));
    Chain& chain = chains_[bucket];
    std::vector<std::uint32_t> blocks;
    blocks.swap(chain.blocks);
    const Event* const last_end = chain.next;
    last_ = chain.least;
    window_ = std::min(wanted_window_, bucket);
    chain = Chain{};
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      const Event* e = block(blocks[k]).data();
      const Event* const end = k + 1 == blocks.size() ? last_end : e + kBlockEvents;
      for (; e != end; ++e) {
        const std::uint64_t key = key_of(e->time);
        if (((key ^ last_) >> window_) == 0)
          current_.push_back(*e);
        else
          append(static_cast<unsigned>(64 - std::countl_zero(key ^ last_)), *e, key);
      }
      free_.push_back(blocks[k]);
    }
    if (!std::is_sorted(current_.begin(), current_.end(), earlier))
      std::sort(current_.begin(), current_.end(), earlier);
    // A few dozen events ahead are enough to hide memory latency; many more would make the
    // sorted insertions into bucket 0 costly.
    if (current_.size() < kWindowEvents / 4 && wanted_window_ < 63) ++wanted_window_;
    if (current_.size() > kWindowEvents && wanted_window_ > 0) --wanted_window_;
  }

  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time > b.time || (a.time == b.time && a.stamp > b.stamp);
    }
  };

  std::vector<Event> current_;  ///< bucket 0: the events in the window at last_, in order
  std::size_t head_ = 0;        ///< the next of them
  std::array<Chain, 65> chains_;
  std::uint64_t occupied_ = 0;  ///< bit b - 1: chain b holds events
  // Blocks come in slabs of 2 MiB (on huge pages: the queue's blocks lie anywhere in memory).
  static constexpr std::uint32_t kSlabBlocks = 64;
  std::vector<HugeVector<Block>> slabs_;
  std::uint32_t blocks_ = 0;
  std::vector<std::uint32_t> free_;
  std::priority_queue<Event, std::vector<Event>, Later> past_;  ///< events before last_
  std::uint64_t last_ = 0;
  static constexpr std::size_t kWindowEvents = 128;
  unsigned window_ = 0;         ///< bucket 0 holds keys equal to last_ above their low window_ bits
  unsigned wanted_window_ = 0;  ///< what the next refill aims for
};

}  // namespace collnoise
