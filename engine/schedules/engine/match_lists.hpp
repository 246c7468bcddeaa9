#pragma once
// The schedule engine's queues of posted receives and unexpected messages
// (docs/models/schedules.md): first-in first-out lists searched from the front for the first
// entry that matches, as MPI and LogGOPSim match. A list's first entry lives in the list itself,
// which the engine keeps with the rest of its rank's state: most lists hold at most one entry, and
// reading it then costs no access to the pool. The others lie in chunks of four (one cache line)
// from one pool with a free list, so no event allocates.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/huge_page_allocator.hpp"

namespace collnoise {

/// A posted receive (src, tag of the receive) or an unexpected message (its sender and tag).
/// 12 bytes, so that a rank's two lists and its resources share one cache line.
struct PendingMatch {
  std::uint32_t src;
  std::uint32_t tag;
  std::uint32_t op;  ///< the receive, or the message's send, as an index within its rank
};

class MatchPool {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t kEmpty = kNone - 1;
  /// One list, 16 bytes: its first entry, then a chain of the pool's chunks from `head` (kNone:
  /// no chain; kEmpty: the list is empty). The chain's last chunk is kept in its first chunk.
  struct List {
    PendingMatch first{};
    std::uint32_t head = kEmpty;
    bool empty() const { return head == kEmpty; }
  };

  /// Precondition: !list.empty().
  const PendingMatch& front(const List& list) const { return list.first; }

  void push_back(List& list, const PendingMatch& entry) {
    if (list.head == kEmpty) {
      list.first = entry;
      list.head = kNone;
      return;
    }
    if (list.head == kNone) {
      list.head = new_chunk(entry);
      return;
    }
    const std::uint32_t tail = chunks_[list.head].tail;
    if (chunks_[tail].count < kPerChunk) {
      Chunk& t = chunks_[tail];
      t.entry[t.count++] = entry;
      return;
    }
    const std::uint32_t n = new_chunk(entry);  // (may move the chunks: index them afresh)
    chunks_[tail].next = n;
    chunks_[list.head].tail = n;
  }

  /// Removes and gives the first entry of `list` that `match` accepts; false if none does.
  template <class Match>
  bool take_first(List& list, Match&& match, PendingMatch& taken) {
    if (list.head == kEmpty) return false;
    if (match(list.first)) {
      taken = list.first;
      if (list.head == kNone) {
        list.head = kEmpty;
      } else {  // the chain's first entry moves up
        list.first = chunks_[list.head].entry[0];
        remove(list, kNone, list.head, 0);
      }
      return true;
    }
    std::uint32_t before = kNone;
    for (std::uint32_t c = list.head; c != kNone; before = c, c = chunks_[c].next) {
      const Chunk& k = chunks_[c];
      searched_ += k.count;
      for (std::uint32_t i = 0; i < k.count; ++i) {
        if (!match(k.entry[i])) continue;
        taken = k.entry[i];
        remove(list, before, c, i);
        return true;
      }
    }
    return false;
  }

  /// Fetches the first chunk of the list's chain into the cache, if it has one (the engine does
  /// so a few events ahead: chunks lie anywhere in the pool), and the three chunks after it: a
  /// rank that posts its receives at once gets its chunks one after the other, and under noise
  /// its messages come out of order and search them (each a dependent miss). Forced inline: GCC
  /// takes a function that only prefetches for a pure one, and may delete a call to it whose
  /// result is unused before inlining it (bench/HISTORY.md, "Benchmark notes from the schedule
  /// engine's comments").
  [[gnu::always_inline]] void prefetch(const List& list) const {
    if (list.head < kEmpty) {
      __builtin_prefetch(&chunks_[list.head]);
      __builtin_prefetch(&chunks_[list.head] + 1);
      __builtin_prefetch(&chunks_[list.head] + 2);
      __builtin_prefetch(&chunks_[list.head] + 3);
    }
  }

  std::size_t capacity_bytes() const { return chunks_.capacity() * sizeof(Chunk); }

  /// Entries of chained chunks searched since clear() (beyond each list's first entry): the work
  /// of a match that may take milliseconds where a list holds a million receives.
  std::uint64_t searched() const { return searched_; }

  /// Forgets every list, keeping the pool's memory (the lists themselves live with their ranks).
  void clear() {
    chunks_.clear();
    free_ = kNone;
    searched_ = 0;
  }

 private:
  // A chain holds its entries four to a cache line, in order. Why not one entry per node: a
  // rank that posts all its receives at the start (as Schedgen writes most collectives) searches
  // a dozen entries per message, and a node per entry made that a dozen dependent cache misses
  // (a third of the engine's time on such GOAL files).
  static constexpr std::uint32_t kPerChunk = 4;
  struct alignas(64) Chunk {
    PendingMatch entry[kPerChunk];
    std::uint32_t next;   ///< the next chunk of the chain, or kNone
    std::uint32_t tail;   ///< in a chain's first chunk: the chain's last
    std::uint32_t count;  ///< entries held, 1..kPerChunk (an emptied chunk leaves the chain)
  };

  std::uint32_t new_chunk(const PendingMatch& entry) {
    std::uint32_t n;
    if (free_ != kNone) {
      n = free_;
      free_ = chunks_[n].next;
    } else {
      n = static_cast<std::uint32_t>(chunks_.size());
      chunks_.emplace_back();
    }
    Chunk& c = chunks_[n];
    c.entry[0] = entry;
    c.next = kNone;
    c.tail = n;
    c.count = 1;
    return n;
  }

  // Removes entry i of chain chunk c, which follows `before` (kNone: c is the chain's first).
  void remove(List& list, std::uint32_t before, std::uint32_t c, std::uint32_t i) {
    Chunk& k = chunks_[c];
    for (std::uint32_t j = i + 1; j < k.count; ++j) k.entry[j - 1] = k.entry[j];
    if (--k.count > 0) return;
    const std::uint32_t after = k.next;
    if (before == kNone) {  // the chain's first chunk: the next one (if any) keeps the tail
      if (after != kNone) chunks_[after].tail = k.tail;
      list.head = after;
    } else {
      chunks_[before].next = after;
      if (chunks_[list.head].tail == c) chunks_[list.head].tail = before;
    }
    k.next = free_;
    free_ = c;
  }

  HugeVector<Chunk> chunks_;  ///< on huge pages: chunks are reached at random, ahead of time
  std::uint32_t free_ = kNone;
  std::uint64_t searched_ = 0;
};

}  // namespace collnoise
