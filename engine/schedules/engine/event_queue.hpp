#pragma once
// The schedule engine's priority queue: a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan) over
// the bit patterns of non-negative double times, which order as unsigned integers do, behind a
// few lanes that take the events of a fixed delay first in, first out (see "Lanes" below).
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
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <queue>
#include <vector>

#include "core/hot_inline.hpp"
#include "core/huge_page_allocator.hpp"

namespace collnoise {

template <class Event>  // Event has `double time` (>= 0) and a unique `std::uint64_t stamp`
class RadixEventQueue {
 public:
  bool empty() const { return lanes_busy_ == 0 && heap_empty(); }

  /// Events leave in order of (time, stamp); the queue is fastest when no event is pushed
  /// earlier than the last one popped (those wait in a small binary heap).
  COLLNOISE_HOT_INLINE void push(const Event& e) {
    if (!to_lane(e)) push_heap(e);
  }

  /// The earliest event (ties: the smallest stamp). Precondition: !empty().
  COLLNOISE_HOT_INLINE Event pop() {
    const std::size_t lane = earliest_lane();
    source_ = lane != kHeap && heap_after(*lanes_[lane].read) ? lane : kHeap;
    const Event e = source_ != kHeap ? pop_lane(lanes_[lane], lane) : pop_heap();
    now_ = e.time;
    return e;
  }

  /// The event `k` places behind the last one popped in the lane or window it came from, if
  /// there is one (the engine prefetches the state it will touch).
  COLLNOISE_HOT_INLINE const Event* ahead(std::size_t k) const {
    if (source_ != kHeap) {
      const Lane& l = lanes_[source_];
      if (l.empty()) return nullptr;
      const Event* const limit =
          l.first + 1 == l.blocks.size() ? l.next : block(l.blocks[l.first]).data() + kBlockEvents;
      return static_cast<std::size_t>(limit - l.read) > k ? l.read + k : nullptr;
    }
    return static_cast<std::size_t>(limit_ - read_) > k ? read_ + k : nullptr;
  }

  /// Whether the events being read are known far ahead: a lane's, or a noiseless round's (one
  /// time, read in place).
  bool reading_round() const { return source_ != kHeap || adopted(); }

  /// Events bucket 0 holds unread in the segment being read (a measure of its window, for tests:
  /// it stays at most a thousand or so once its events are spread in time).
  std::size_t window_events() const { return static_cast<std::size_t>(limit_ - read_); }

  /// Empties the queue, keeping its blocks and vectors for the next run.
  void clear() {
    read_ = limit_ = nullptr;
    current_.clear();
    adopted_ = Chain{};
    adopted_last_stamp_ = 0;
    read_block_ = 0;
    for (Chain& c : chains_) {
      c.blocks.clear();
      c.next = c.end = nullptr;
      c.least = kNoKey;
    }
    occupied_ = 0;
    free_.clear();  // every block free, taken again in the order a fresh queue takes them
    for (std::uint32_t b = blocks_; b > 0; --b) free_.push_back(b - 1);
    past_ = {};
    for (Lane& l : lanes_) l = Lane{};
    lanes_busy_ = 0;
    now_ = 0.0;
    unmatched_ = no_delays();
    source_ = kHeap;
    last_ = 0;
    narrow_at_ = kNarrowAt;
    window_ = 0;
    wanted_window_ = 0;
  }

  /// Bytes reserved.
  std::size_t capacity_bytes() const {
    return (current_.capacity() + sorted_.capacity() + past_.size()) * sizeof(Event) +
           order_.capacity() * sizeof(std::uint64_t) + slabs_.size() * kSlabBlocks * sizeof(Block);
  }

 private:
  // Buckets 1..64 are chains of fixed blocks from one pool with a free list: a drained bucket's
  // blocks serve the next, so memory follows what is queued (not the most each of 64 buckets
  // ever held, several times more) and no block is allocated twice.
  static constexpr std::size_t kBlockEvents = 1024;
  using Block = std::array<Event, kBlockEvents>;
  static constexpr std::uint64_t kNoKey = std::numeric_limits<std::uint64_t>::max();
  struct Chain {
    std::vector<std::uint32_t> blocks;
    Event* next = nullptr;         ///< where the next event goes in the last block
    Event* end = nullptr;          ///< the end of the last block
    std::uint64_t least = kNoKey;  ///< the smallest key held

    std::size_t size() const {
      return blocks.empty() ? 0
                            : blocks.size() * kBlockEvents - static_cast<std::size_t>(end - next);
    }
  };

  static std::uint64_t key_of(double t) { return std::bit_cast<std::uint64_t>(t + 0.0); }

  // ---- Lanes ----
  //
  // Most of an engine's events come a fixed delay after the event being processed: a message
  // o + L after its send, an operation o after the receive that released it. As the queue is read
  // in time order, the events of one delay come in (time, stamp) order by themselves, so each
  // such delay gets a lane: a first-in first-out list, appended to and read in place from the
  // pool's blocks. A pop takes the earliest of the lanes' first events and the radix heap's. Only
  // the rest (times noise scattered: a detour's end, a wait) go through the radix heap, where an
  // event is moved down its buckets a few times, sorted in a window and inserted into it: under
  // noise that was a third of a GOAL barrier's time (bench/HISTORY.md, "Noisy GOAL schedules").
  //
  // The order stays exact whatever the lanes hold: an event joins a lane only if it comes after
  // the lane's last event. Which delays get lanes only decides how fast: a delay met again
  // outside the lanes takes a free one (a detour's end, met once, never does).
  static constexpr std::size_t kLanes = 4;
  static constexpr std::size_t kHeap = kLanes;  ///< not a lane: the radix heap
  static constexpr double kNoDelay = -1.0;
  struct Lane {
    std::vector<std::uint32_t> blocks;  ///< the blocks from `first` on hold its events
    std::size_t first = 0;
    const Event* read = nullptr;  ///< its first event (in blocks[first])
    Event* next = nullptr;        ///< where the next event goes (in the last block)
    Event* end = nullptr;         ///< the end of the last block
    double delay = kNoDelay;      ///< after the event popped before them, ns
    double last_time = 0.0;       ///< the last event appended
    std::uint64_t last_stamp = 0;

    bool empty() const { return blocks.empty(); }
    bool takes(const Event& e) const {
      return empty() || e.time > last_time || (e.time == last_time && e.stamp > last_stamp);
    }
  };

  static constexpr std::array<double, kLanes> no_delays() {
    std::array<double, kLanes> none{};
    none.fill(kNoDelay);
    return none;
  }

  // Whether delays a and b are one (rounding aside: a time is taken relative to now_).
  bool same_delay(double a, double b) const {
    return b >= 0.0 && std::abs(a - b) <= (b + now_) * 0x1p-40;
  }

  // Into the lane of its delay, if it has one and comes after its last event.
  COLLNOISE_HOT_INLINE bool to_lane(const Event& e) {
    const double delay = e.time - now_;
    if (!(delay >= 0.0)) return false;
    for (std::size_t i = 0; i < kLanes; ++i) {
      Lane& l = lanes_[i];
      if (same_delay(delay, l.delay)) {
        if (!l.takes(e)) return false;
        append_lane(l, i, e);
        return true;
      }
    }
    return to_new_lane(e, delay);
  }

  // A delay met again among the last few that found no lane takes a free lane (the classes of
  // a round come interleaved: a message o + L after its send, the receive the send releases o
  // after it).
  [[gnu::noinline]] bool to_new_lane(const Event& e, double delay) {
    const bool again = std::any_of(unmatched_.begin(), unmatched_.end(),
                                   [&](double d) { return same_delay(delay, d); });
    if (again) {
      for (std::size_t i = 0; i < kLanes; ++i) {
        if (!lanes_[i].empty()) continue;
        lanes_[i].delay = delay;
        append_lane(lanes_[i], i, e);
        return true;
      }
    }
    unmatched_[unmatched_next_++ % unmatched_.size()] = delay;
    return false;
  }

  COLLNOISE_HOT_INLINE void append_lane(Lane& l, std::size_t i, const Event& e) {
    if (l.next == l.end) {
      const std::uint32_t b = take_block();
      if (l.empty()) {
        l.first = 0;
        l.read = block(b).data();
        lanes_busy_ |= 1U << i;
      } else if (l.first > 64 && 2 * l.first > l.blocks.size()) {
        l.blocks.erase(l.blocks.begin(), l.blocks.begin() + static_cast<std::ptrdiff_t>(l.first));
        l.first = 0;
      }
      l.blocks.push_back(b);
      l.next = block(b).data();
      l.end = l.next + kBlockEvents;
    }
    *l.next++ = e;
    l.last_time = e.time;
    l.last_stamp = e.stamp;
  }

  // The lane whose first event is earliest, or kHeap if all are empty.
  COLLNOISE_HOT_INLINE std::size_t earliest_lane() const {
    std::size_t best = kHeap;
    for (unsigned busy = lanes_busy_; busy != 0; busy &= busy - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(busy));
      if (best == kHeap || earlier(*lanes_[i].read, *lanes_[best].read)) best = i;
    }
    return best;
  }

  COLLNOISE_HOT_INLINE Event pop_lane(Lane& l, std::size_t i) {
    const Event e = *l.read++;
    if (l.first + 1 == l.blocks.size()) {
      if (l.read == l.next) {  // empty: its block back to the pool, its delay kept
        free_.push_back(l.blocks[l.first]);
        l.blocks.clear();
        l.next = l.end = nullptr;
        lanes_busy_ &= ~(1U << i);
      }
    } else if (l.read == block(l.blocks[l.first]).data() + kBlockEvents) {
      free_.push_back(l.blocks[l.first]);
      l.read = block(l.blocks[++l.first]).data();
    }
    return e;
  }

  // ---- The radix heap ----

  bool heap_empty() const { return bucket0_empty() && occupied_ == 0 && past_.empty(); }

  void push_heap(const Event& e) {
    const std::uint64_t key = key_of(e.time);
    if (key < last_) {
      past_.push(e);
    } else if (((key ^ last_) >> window_) == 0) {
      if (adopted())
        push_adopted(e, key);
      else
        insert_current(e);
    } else {
      append(bucket_of(key), e, key);
    }
  }

  Event pop_heap() {
    if (!past_.empty()) {
      const Event e = past_.top();
      past_.pop();
      return e;
    }
    if (read_ == limit_) next_segment();
    return *read_++;
  }

  // Whether the heap's earliest event comes after `x` (or there is none). A bucket is spread only
  // when its least time is no later than x's: spread ahead of the lanes, it would move last_ past
  // the times still to come, and every event pushed before it would wait in the binary heap.
  COLLNOISE_HOT_INLINE bool heap_after(const Event& x) {
    if (!past_.empty()) return earlier(x, past_.top());
    if (read_ == limit_) {
      if (bucket0_empty()) {
        if (occupied_ == 0) return true;
        const auto bucket = static_cast<unsigned>(std::countr_zero(occupied_)) + 1;
        if (key_of(x.time) < chains_[bucket].least) return true;
      }
      next_segment();
    }
    return earlier(x, *read_);
  }

  // The bucket of a key outside the window: one more than the highest bit in which it differs
  // from last_ (0 for last_ itself).
  unsigned bucket_of(std::uint64_t key) const {
    return static_cast<unsigned>(64 - std::countl_zero(key ^ last_));
  }

  // Whether the chain holds one time in stamp order, sorted as it stands. Checked when the chain
  // is spread rather than tracked as events come: a read that stops at the first other time
  // costs less than a comparison at every append (a tenth of the engine's time under noise).
  bool one_time_in_order(const Chain& c) const {
    std::uint64_t stamp = 0;
    for (std::size_t k = 0; k < c.blocks.size(); ++k) {
      const Event* e = block(c.blocks[k]).data();
      const Event* const end = k + 1 == c.blocks.size() ? c.next : e + kBlockEvents;
      for (; e != end; ++e) {
        if (key_of(e->time) != c.least || e->stamp < stamp) return false;
        stamp = e->stamp;
      }
    }
    return true;
  }

  // A function object, not a function: std::sort and std::upper_bound inline it.
  static constexpr auto earlier = [](const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.stamp < b.stamp);
  };

  // Bucket 0's unread events are [read_, limit_) of the segment being read: the sorted vector
  // `current_`, or a block of the adopted chain (see refill). Past limit_, next_segment() finds
  // the next block, or refills.
  bool adopted() const { return !adopted_.blocks.empty(); }
  bool bucket0_empty() const {
    return read_ == limit_ && !(adopted() && read_block_ + 1 < adopted_.blocks.size());
  }

  void next_segment() {
    for (;;) {
      if (!adopted()) {
        refill();
      } else if (read_block_ + 1 < adopted_.blocks.size()) {
        free_.push_back(adopted_.blocks[read_block_]);
        read_ = block(adopted_.blocks[++read_block_]).data();
        limit_ = read_block_ + 1 == adopted_.blocks.size() ? adopted_.next : read_ + kBlockEvents;
      } else {
        release_adopted();
        refill();
      }
      if (read_ != limit_) return;
    }
  }

  // Into bucket 0 at its place among the events not yet popped (mostly at the end: a later time,
  // or the same time with a fresh stamp).
  void insert_current(const Event& e) {
    std::size_t head = 0;
    if (read_ == limit_)
      current_.clear();
    else
      head = static_cast<std::size_t>(read_ - current_.data());
    if (current_.size() == head || !earlier(e, current_.back())) {
      current_.push_back(e);
    } else {
      Event* const first = current_.data() + head;
      Event* const end = current_.data() + current_.size();
      Event* const at = std::upper_bound(first, end, e, earlier);
      // Under noise most insertions fall just behind the read position (an operation released
      // at the current time plus an overhead): where a popped slot is free before the unread
      // events and fewer of them lie before the place than after it, those move back one slot
      // instead of the rest moving forward.
      if (head > 0 && at - first < end - at) {
        std::move(first, at, first - 1);
        *(at - 1) = e;
        --head;
      } else {
        current_.insert(current_.begin() + (at - current_.data()), e);
      }
    }
    read_ = current_.data() + head;
    limit_ = current_.data() + current_.size();
    if (static_cast<std::size_t>(limit_ - read_) > narrow_at_) narrow_unread();
  }

  // Bucket 0 outgrew its window between refills: a window widened while events were sparse (a
  // tree's root waiting for one late child) met a burst, and every insertion moved thousands of
  // events (quadratic: a 2^20-rank tree barrier under noise spent nine tenths of its time there).
  // The unread events are narrowed as at a refill; the threshold doubles if they cannot be (all
  // of one time), so the cost per event stays bounded.
  [[gnu::noinline]] void narrow_unread() {
    current_.erase(current_.begin(), current_.begin() + (read_ - current_.data()));
    narrow_window();
    read_ = current_.data();
    limit_ = current_.data() + current_.size();
    narrow_at_ = std::max(kNarrowAt, 2 * current_.size());
  }

  void append(unsigned bucket, const Event& e, std::uint64_t key) {
    append_to(chains_[bucket], e, key);
    occupied_ |= std::uint64_t{1} << (bucket - 1);
  }

  void append_to(Chain& c, const Event& e, std::uint64_t key) {
    if (c.next == c.end) {
      const std::uint32_t b = take_block();
      c.blocks.push_back(b);
      c.next = block(b).data();
      c.end = c.next + kBlockEvents;
    }
    *c.next++ = e;
    c.least = std::min(c.least, key);
  }

  // Bucket 0 as an adopted chain: read in place from its blocks, which are freed as they are
  // read, and appended to while events of its one time come (with fresh stamps, so at its end).
  // Noiseless rounds put hundreds of thousands of events at one time, and moving them to the
  // vector cost as much as a tenth of the engine's time.
  void push_adopted(const Event& e, std::uint64_t key) {
    if (e.stamp > adopted_last_stamp_) {  // the common case: a fresh stamp at the same time
      adopted_last_stamp_ = e.stamp;
      append_to(adopted_, e, key);
      if (read_block_ + 1 == adopted_.blocks.size()) limit_ = adopted_.next;
      return;
    }
    // An older stamp at this time: bucket 0 becomes the sorted vector, then takes it.
    current_.clear();
    while (!bucket0_empty()) {
      if (read_ == limit_) next_segment();
      current_.push_back(*read_++);
    }
    release_adopted();
    read_ = current_.data();
    limit_ = current_.data() + current_.size();
    insert_current(e);
  }

  void release_adopted() {
    for (std::size_t k = read_block_; k < adopted_.blocks.size(); ++k)
      free_.push_back(adopted_.blocks[k]);
    adopted_ = Chain{};
  }

  Block& block(std::uint32_t b) { return slabs_[b / kSlabBlocks][b % kSlabBlocks]; }
  const Block& block(std::uint32_t b) const { return slabs_[b / kSlabBlocks][b % kSlabBlocks]; }

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
  // `last_`; its events within the window of it, sorted, are the new bucket 0. A bucket of one
  // time in stamp order (a noiseless round) is adopted as it stands instead, once the window has
  // narrowed to one time: under noise, the rounds it leaves alone would otherwise reset the
  // window that lets the engine look ahead (a tenth slower).
  //
  // Why the window may take no more bits than the spread bucket's number: the other buckets' keys
  // differ from the new `last_` in a bit at least that high, so none of them belongs in it.
  void refill() {
    current_.clear();
    const auto bucket = static_cast<unsigned>(std::countr_zero(occupied_)) + 1;
    occupied_ &= ~(std::uint64_t{1} << (bucket - 1));
    Chain& chain = chains_[bucket];
    last_ = chain.least;
    if (wanted_window_ == 0 && chain.size() > kWindowEvents && one_time_in_order(chain)) {
      window_ = 0;
      adopted_last_stamp_ = (chain.next - 1)->stamp;
      adopted_ = std::move(chain);
      chain = Chain{};
      read_block_ = 0;
      read_ = block(adopted_.blocks[0]).data();
      limit_ = adopted_.blocks.size() == 1 ? adopted_.next : read_ + kBlockEvents;
      return;
    }
    std::vector<std::uint32_t> blocks;
    blocks.swap(chain.blocks);
    const Event* const last_end = chain.next;
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
          append(bucket_of(key), *e, key);
      }
      free_.push_back(blocks[k]);
    }
    narrow_window();
    if (!std::is_sorted(current_.begin(), current_.end(), earlier)) sort_current();
    read_ = current_.data();
    limit_ = current_.data() + current_.size();
    narrow_at_ = std::max(kNarrowAt, 2 * current_.size());
    // A few dozen events ahead are enough to hide memory latency; many more would make the
    // sorted insertions into bucket 0 costly.
    if (current_.size() < kWindowEvents / 4 && wanted_window_ < 63) ++wanted_window_;
    if (current_.size() > kWindowEvents && wanted_window_ > 0) --wanted_window_;
  }

  // A window that caught many more events than wanted narrows at once, its later events going
  // back to the chains: insertions into bucket 0 move the events behind them, so a window of
  // thousands (a round's events, spread by noise) cost more than the moves saved.
  [[gnu::noinline]] void narrow_window() {
    if (current_.size() <= 2 * kWindowEvents || window_ == 0) return;
    // Events by the highest bit in which their key differs from last_ (b at b + 1, none at 0):
    // the widest window that keeps at most 2 * kWindowEvents of them (or only last_'s time).
    std::array<std::uint32_t, 65> by_bit{};
    for (const Event& e : current_) ++by_bit[bucket_of(key_of(e.time))];
    std::size_t kept = by_bit[0];
    unsigned w = 0;
    while (w < window_ && kept + by_bit[w + 1] <= 2 * kWindowEvents) kept += by_bit[++w];
    window_ = w;
    wanted_window_ = std::min(wanted_window_, w);
    std::size_t k = 0;
    for (std::size_t i = 0; i < current_.size(); ++i) {
      const std::uint64_t key = key_of(current_[i].time);
      if (((key ^ last_) >> window_) == 0)
        current_[k++] = current_[i];
      else
        append(bucket_of(key), current_[i], key);
    }
    current_.resize(k);
  }

  // Sorts bucket 0 by (time, stamp). Its events agree with last_ above the low window_ bits, so
  // a window of up to 256 events sorts as 64-bit words: those bits, then the event's place; the
  // rare events of equal time are then put in stamp order. Sorting the 32-byte events with a
  // two-field comparison took a sixth of the engine's time under noise.
  [[gnu::noinline]] void sort_current() {
    const std::size_t n = current_.size();
    if (n > 256 || window_ > 56) {
      std::sort(current_.begin(), current_.end(), earlier);
      return;
    }
    const std::uint64_t low = window_ == 0 ? 0 : (std::uint64_t{1} << window_) - 1;
    order_.resize(n);
    for (std::size_t i = 0; i < n; ++i) order_[i] = (key_of(current_[i].time) & low) << 8 | i;
    std::sort(order_.begin(), order_.end());
    sorted_.resize(n);
    for (std::size_t i = 0; i < n; ++i) sorted_[i] = current_[order_[i] & 0xff];
    for (std::size_t i = 1; i < n; ++i)  // equal times: by stamp (an insertion sort, runs short)
      for (std::size_t j = i; j > 0 && earlier(sorted_[j], sorted_[j - 1]); --j)
        std::swap(sorted_[j], sorted_[j - 1]);
    // Copied back, not swapped: current_ may hold the room of a large window (a round of one
    // time not read in place), and swapped into the scratch it was allocated again beside it.
    std::copy(sorted_.begin(), sorted_.end(), current_.begin());
  }

  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time > b.time || (a.time == b.time && a.stamp > b.stamp);
    }
  };

  const Event* read_ = nullptr;       ///< bucket 0's next event
  const Event* limit_ = nullptr;      ///< the end of the segment it is read from
  std::vector<Event> current_;        ///< bucket 0 (unless a chain is adopted): sorted
  std::vector<std::uint64_t> order_;  ///< scratch of sort_current
  std::vector<Event> sorted_;         ///< scratch of sort_current
  Chain adopted_;  ///< bucket 0 when it holds blocks (see refill), read from `read_block_`
  std::uint64_t adopted_last_stamp_ = 0;  ///< the largest stamp in it
  std::size_t read_block_ = 0;
  std::array<Chain, 65> chains_;
  std::uint64_t occupied_ = 0;  ///< bit b - 1: chain b holds events
  // Blocks come in slabs of 2 MiB (on huge pages: the queue's blocks lie anywhere in memory).
  static constexpr std::uint32_t kSlabBlocks = 64;
  std::vector<HugeVector<Block>> slabs_;
  std::uint32_t blocks_ = 0;
  std::vector<std::uint32_t> free_;
  std::priority_queue<Event, std::vector<Event>, Later> past_;  ///< events before last_
  std::array<Lane, kLanes> lanes_;
  unsigned lanes_busy_ = 0;                             ///< bit i: lane i holds events
  double now_ = 0.0;                                    ///< the time of the last event popped
  std::array<double, kLanes> unmatched_ = no_delays();  ///< the last delays that found no lane
  std::size_t unmatched_next_ = 0;
  std::size_t source_ = kHeap;  ///< the lane of the last event popped, or kHeap
  std::uint64_t last_ = 0;
  static constexpr std::size_t kWindowEvents = 128;
  // Bucket 0 narrows between refills beyond this many unread events (or twice what it held).
  static constexpr std::size_t kNarrowAt = 8 * kWindowEvents;
  std::size_t narrow_at_ = kNarrowAt;
  unsigned window_ = 0;         ///< bucket 0 holds keys equal to last_ above their low window_ bits
  unsigned wanted_window_ = 0;  ///< what the next refill aims for
};

}  // namespace collnoise
