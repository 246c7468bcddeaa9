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
#include <queue>
#include <vector>

namespace collnoise {

template <class Event>  // Event has `double time` (>= 0) and a unique `std::uint64_t stamp`
class RadixEventQueue {
 public:
  bool empty() const { return size_ == 0 && past_.empty(); }

  /// Precondition: an event pushed at exactly the time of the last one popped carries a stamp
  /// above every queued one (the engine's fresh stamps).
  void push(const Event& e) {
    const std::uint64_t key = key_of(e.time);
    if (key < last_) {
      past_.push(e);
      return;
    }
    buckets_[bucket_of(key)].push_back(e);
    ++size_;
  }

  /// The earliest event (ties: the smallest stamp). Precondition: !empty().
  Event pop() {
    if (!past_.empty()) {
      const Event e = past_.top();
      past_.pop();
      return e;
    }
    if (head_ == buckets_[0].size()) refill();
    --size_;
    return buckets_[0][head_++];
  }

  /// Bytes reserved by the buckets.
  std::size_t capacity_bytes() const {
    std::size_t bytes = 0;
    for (const auto& b : buckets_) bytes += b.capacity() * sizeof(Event);
    return bytes;
  }

 private:
  static std::uint64_t key_of(double t) { return std::bit_cast<std::uint64_t>(t + 0.0); }
  std::size_t bucket_of(std::uint64_t key) const {
    return key == last_ ? 0 : static_cast<std::size_t>(64 - std::countl_zero(key ^ last_));
  }

  // Bucket 0 is empty: move the smallest non-empty bucket down around its minimum, which
  // becomes the new `last_`; the events equal to it land in bucket 0, put in stamp order.
  void refill() {
    buckets_[0].clear();
    head_ = 0;
    std::size_t i = 1;
    while (buckets_[i].empty()) ++i;
    auto& from = buckets_[i];
    std::uint64_t least = key_of(from.front().time);
    for (const Event& e : from) least = std::min(least, key_of(e.time));
    last_ = least;
    for (const Event& e : from) buckets_[bucket_of(key_of(e.time))].push_back(e);
    // A drained bucket gives its memory back: otherwise each of the 65 keeps the most it ever
    // held, several times what is ever queued at once (a million ranks: 640 MB instead of 100).
    if (from.capacity() > kKeptCapacity)
      std::vector<Event>().swap(from);
    else
      from.clear();
    const auto by_stamp = [](const Event& a, const Event& b) { return a.stamp < b.stamp; };
    if (!std::is_sorted(buckets_[0].begin(), buckets_[0].end(), by_stamp))
      std::sort(buckets_[0].begin(), buckets_[0].end(), by_stamp);
  }

  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time > b.time || (a.time == b.time && a.stamp > b.stamp);
    }
  };

  static constexpr std::size_t kKeptCapacity = 4096;
  std::array<std::vector<Event>, 65> buckets_;
  std::priority_queue<Event, std::vector<Event>, Later> past_;  ///< events before last_
  std::size_t head_ = 0;                                        ///< the next event of bucket 0
  std::size_t size_ = 0;
  std::uint64_t last_ = 0;
};

}  // namespace collnoise
