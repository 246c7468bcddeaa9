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
struct PendingMatch {
  std::uint32_t src;
  std::uint32_t tag;
  std::uint64_t op;  ///< the receive, or the message's send
};

class MatchPool {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  /// One list: its first entry, then the pool's nodes head..tail.
  struct List {
    PendingMatch first{};
    bool has_first = false;  ///< false: the list is empty (and so is its chain)
    std::uint32_t head = kNone;
    std::uint32_t tail = kNone;
    bool empty() const { return !has_first; }
  };

  const PendingMatch& front(const List& list) const { return list.first; }

  void push_back(List& list, const PendingMatch& entry) {
    if (!list.has_first) {
      list.first = entry;
      list.has_first = true;
      return;
    }
    std::uint32_t n;
    if (free_ != kNone) {
      n = free_;
      free_ = nodes_[n].next;
      nodes_[n] = Node{entry, kNone};
    } else {
      n = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(Node{entry, kNone});
    }
    if (list.tail == kNone)
      list.head = n;
    else
      nodes_[list.tail].next = n;
    list.tail = n;
  }

  /// Removes and gives the first entry of `list` that `match` accepts; false if none does.
  template <class Match>
  bool take_first(List& list, Match&& match, PendingMatch& taken) {
    if (!list.has_first) return false;
    if (match(list.first)) {
      taken = list.first;
      if (list.head == kNone) {
        list.has_first = false;
      } else {  // the chain's first node moves up
        const std::uint32_t n = list.head;
        list.first = nodes_[n].entry;
        list.head = nodes_[n].next;
        if (list.tail == n) list.tail = kNone;
        nodes_[n].next = free_;
        free_ = n;
      }
      return true;
    }
    std::uint32_t before = kNone;
    for (std::uint32_t n = list.head; n != kNone; before = n, n = nodes_[n].next) {
      if (!match(nodes_[n].entry)) continue;
      taken = nodes_[n].entry;
      const std::uint32_t after = nodes_[n].next;
      if (before == kNone)
        list.head = after;
      else
        nodes_[before].next = after;
      if (list.tail == n) list.tail = before;
      nodes_[n].next = free_;
      free_ = n;
      return true;
    }
    return false;
  }

  std::size_t capacity_bytes() const { return nodes_.capacity() * sizeof(Node); }

 private:
  struct Node {
    PendingMatch entry;
    std::uint32_t next;
  };
  std::vector<Node> nodes_;
  std::uint32_t free_ = kNone;
};

}  // namespace collnoise
