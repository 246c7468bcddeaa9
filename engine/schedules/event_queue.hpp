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
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <queue>
#include <vector>

namespace collnoise {

template <class Event>  // Event has `double time` (>= 0) and a unique `std::uint64_t stamp`
class RadixEventQueue {
 public:
  bool empty() const { return head_ == current_.size() && occupied_ == 0 && past_.empty(); }

  /// Precondition: an event pushed at exactly the time of the last one popped carries a stamp
  /// above every queued one (the engine's fresh stamps).
  void push(const Event& e) {
    const std::uint64_t key = key_of(e.time);
    if (key == last_) {
      current_.push_back(e);
    } else if (key > last_) {
      append(static_cast<unsigned>(64 - std::countl_zero(key ^ last_)), e, key);
    } else {
      past_.push(e);
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
    return (current_.capacity() + past_.size()) * sizeof(Event) + pool_.size() * sizeof(Block);
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

  void append(unsigned bucket, const Event& e, std::uint64_t key) {
    Chain& c = chains_[bucket];
    if (c.next == c.end) {
      const std::uint32_t b = take_block();
      c.blocks.push_back(b);
      c.next = pool_[b]->data();
      c.end = c.next + kBlockEvents;
    }
    *c.next++ = e;
    c.least = std::min(c.least, key);
    occupied_ |= std::uint64_t{1} << (bucket - 1);
  }

  std::uint32_t take_block() {
    if (free_.empty()) {
      pool_.push_back(std::make_unique<Block>());
      return static_cast<std::uint32_t>(pool_.size() - 1);
    }
    const std::uint32_t b = free_.back();
    free_.pop_back();
    return b;
  }

  // Bucket 0 (`current_`, the events at `last_`) is spent: the smallest non-empty bucket is
  // spread around its minimum, which becomes `last_`; its events equal to it, put in stamp order,
  // are the new bucket 0.
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
    chain = Chain{};
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      const Event* e = pool_[blocks[k]]->data();
      const Event* const end = k + 1 == blocks.size() ? last_end : e + kBlockEvents;
      for (; e != end; ++e) {
        const std::uint64_t key = key_of(e->time);
        if (key == last_)
          current_.push_back(*e);
        else
          append(static_cast<unsigned>(64 - std::countl_zero(key ^ last_)), *e, key);
      }
      free_.push_back(blocks[k]);
    }
    const auto by_stamp = [](const Event& a, const Event& b) { return a.stamp < b.stamp; };
    if (!std::is_sorted(current_.begin(), current_.end(), by_stamp))
      std::sort(current_.begin(), current_.end(), by_stamp);
  }

  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time > b.time || (a.time == b.time && a.stamp > b.stamp);
    }
  };

  std::vector<Event> current_;  ///< bucket 0: the events at last_, in stamp order
  std::size_t head_ = 0;        ///< the next of them
  std::array<Chain, 65> chains_;
  std::uint64_t occupied_ = 0;  ///< bit b - 1: chain b holds events
  std::vector<std::unique_ptr<Block>> pool_;
  std::vector<std::uint32_t> free_;
  std::priority_queue<Event, std::vector<Event>, Later> past_;  ///< events before last_
  std::uint64_t last_ = 0;
};

}  // namespace collnoise
