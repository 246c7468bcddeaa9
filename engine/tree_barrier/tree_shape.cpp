#include "engine/tree_barrier/tree_shape.hpp"

#include "core/errors.hpp"

namespace collnoise {

TreeShape::TreeShape(RankCount n) : n_(n), depth_(0) {
  if (n == 0) throw InputError("collective.N = 0 is invalid: a tree needs at least one rank");
  if (n == ~RankCount{0}) throw InputError("collective.N is too large: at most 2^128 - 2 ranks");
  depth_ = floor_log2(n + 1);
  if (pow2(depth_) - 1 == n) --depth_;  // n + 1 a power of two: the last level is full
}

RankCount TreeShape::level_count(int d) const {
  if (d < depth_) return pow2(d);
  return n_ - (pow2(depth_) - 1);
}

std::vector<double> TreeShape::level_counts() const {
  std::vector<double> counts;
  for (int d = 0; d <= depth_; ++d) counts.push_back(to_double(level_count(d)));
  return counts;
}

}  // namespace collnoise
