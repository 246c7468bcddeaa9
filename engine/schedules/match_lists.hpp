#pragma once
// The schedule engine's queues of posted receives and unexpected messages
// (docs/models/schedules.md): first-in first-out lists searched from the front for the first
// entry that matches, as MPI and LogGOPSim match. Every list's nodes come from one pool with a
// free list, so no event allocates. A list's first entry lives in the list itself, which the
// engine keeps with the rest of its rank's state: most lists hold at most one entry, and reading
// it then costs no access to the pool (whose nodes lie anywhere in memory).
#include <cstdint>
#include <limits>
#include <vector>

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
  /// One list, 16 bytes: its first entry, then a chain of the pool's nodes from `head` (kNone:
  /// no chain; kEmpty: the list is empty). The chain's last node is kept in its first node.
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
    const std::uint32_t n = new_node(entry);
    if (list.head == kNone) {
      list.head = n;
    } else {
      Node& chain = nodes_[list.head];
      nodes_[chain.tail].next = n;
      chain.tail = n;
    }
  }

  /// Removes and gives the first entry of `list` that `match` accepts; false if none does.
  template <class Match>
  bool take_first(List& list, Match&& match, PendingMatch& taken) {
    if (list.head == kEmpty) return false;
    if (match(list.first)) {
      taken = list.first;
      if (list.head == kNone) {
        list.head = kEmpty;
      } else {  // the chain's first node moves up
        const std::uint32_t n = list.head;
        list.first = nodes_[n].entry;
        list.head = unlink_first(n);
      }
      return true;
    }
    std::uint32_t before = kNone;
    for (std::uint32_t n = list.head; n != kNone; before = n, n = nodes_[n].next) {
      if (!match(nodes_[n].entry)) continue;
      taken = nodes_[n].entry;
      if (before == kNone) {
        list.head = unlink_first(n);
      } else {
        nodes_[before].next = nodes_[n].next;
        Node& chain = nodes_[list.head];
        if (chain.tail == n) chain.tail = before;
        release(n);
      }
      return true;
    }
    return false;
  }

  /// Fetches the first node of the list's chain into the cache, if it has one (the engine does so
  /// a few events ahead: a chain's nodes lie anywhere in the pool).
  void prefetch(const List& list) const {
    if (list.head < kEmpty) __builtin_prefetch(&nodes_[list.head]);
  }

  std::size_t capacity_bytes() const { return nodes_.capacity() * sizeof(Node); }

 private:
  struct Node {
    PendingMatch entry;
    std::uint32_t next;
    std::uint32_t tail;  ///< in a chain's first node: the chain's last
  };

  std::uint32_t new_node(const PendingMatch& entry) {
    std::uint32_t n;
    if (free_ != kNone) {
      n = free_;
      free_ = nodes_[n].next;
      nodes_[n] = Node{entry, kNone, n};
    } else {
      n = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(Node{entry, kNone, n});
    }
    return n;
  }

  // Frees a chain's first node `n`; gives the chain's new first (kNone: none left).
  std::uint32_t unlink_first(std::uint32_t n) {
    const std::uint32_t after = nodes_[n].next;
    if (after != kNone) nodes_[after].tail = nodes_[n].tail;
    release(n);
    return after;
  }

  void release(std::uint32_t n) {
    nodes_[n].next = free_;
    free_ = n;
  }

  std::vector<Node> nodes_;
  std::uint32_t free_ = kNone;
};

}  // namespace collnoise
