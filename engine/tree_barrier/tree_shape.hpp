#pragma once
// The complete binary tree of the tree barrier in heap order (docs/models/tree-barrier.md): node i
// has children 2i+1 and 2i+2 and depth floor(log2(i+1)); every level is full except possibly the
// deepest.
#include <vector>

#include "core/rank_count.hpp"

namespace collnoise {

class TreeShape {
 public:
  /// Precondition n >= 1 (checked: InputError).
  explicit TreeShape(RankCount n);

  RankCount ranks() const { return n_; }
  /// Deepest level D (the root is level 0).
  int depth() const { return depth_; }
  /// Number of nodes at level d, 0 <= d <= D.
  RankCount level_count(int d) const;
  /// True when n = 2^k - 1 (every level full).
  bool is_full() const { return n_ == pow2(depth_ + 1) - 1; }
  /// Nodes per level as doubles, level 0 first.
  std::vector<double> level_counts() const;

 private:
  RankCount n_;
  int depth_;
};

}  // namespace collnoise
