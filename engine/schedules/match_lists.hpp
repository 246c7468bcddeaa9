#pragma once
// The schedule engine's per-rank queues of posted receives and unexpected messages
// (docs/models/schedules.md): first-in first-out lists searched from the front for the first
// entry that matches, as MPI and LogGOPSim match. All ranks' lists share one pool of nodes
// with a free list, so a million ranks cost 8 bytes each plus what is actually waiting, and
// no event allocates.
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

class MatchLists {
 public:
  explicit MatchLists(std::uint32_t ranks) : heads_(ranks, kNone), tails_(ranks, kNone) {}

  bool empty(std::uint32_t rank) const { return heads_[rank] == kNone; }
  const PendingMatch& front(std::uint32_t rank) const { return nodes_[heads_[rank]].entry; }

  void push_back(std::uint32_t rank, const PendingMatch& entry) {
    std::uint32_t n;
    if (free_ != kNone) {
      n = free_;
      free_ = nodes_[n].next;
      nodes_[n] = Node{entry, kNone};
    } else {
      n = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(Node{entry, kNone});
    }
    if (tails_[rank] == kNone)
      heads_[rank] = n;
    else
      nodes_[tails_[rank]].next = n;
    tails_[rank] = n;
  }

  /// Removes and gives the first entry `match` accepts; false if none does.
  template <class Match>
  bool take_first(std::uint32_t rank, Match&& match, PendingMatch& taken) {
    std::uint32_t before = kNone;
    for (std::uint32_t n = heads_[rank]; n != kNone; before = n, n = nodes_[n].next) {
      if (!match(nodes_[n].entry)) continue;
      taken = nodes_[n].entry;
      const std::uint32_t after = nodes_[n].next;
      if (before == kNone)
        heads_[rank] = after;
      else
        nodes_[before].next = after;
      if (tails_[rank] == n) tails_[rank] = before;
      nodes_[n].next = free_;
      free_ = n;
      return true;
    }
    return false;
  }

  std::size_t capacity_bytes() const {
    return nodes_.capacity() * sizeof(Node) + 2 * heads_.capacity() * sizeof(std::uint32_t);
  }

 private:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  struct Node {
    PendingMatch entry;
    std::uint32_t next;
  };
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> heads_;
  std::vector<std::uint32_t> tails_;
  std::uint32_t free_ = kNone;
};

}  // namespace collnoise
