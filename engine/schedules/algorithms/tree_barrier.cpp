// The tree barrier (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

// The heap-ordered binary tree of the tree barrier (docs/models/tree-barrier.md): up to the root,
// then down again.
auto tree_barrier_emitter(const AlgorithmParams& p) {
  return [n = p.ranks, bytes = p.message_bytes](std::uint32_t r, RankOps& ops) {
    std::vector<std::uint32_t> children;
    for (std::uint64_t c = 2ULL * r + 1; c <= 2ULL * r + 2; ++c)
      if (c < n) children.push_back(static_cast<std::uint32_t>(c));
    std::vector<Local> up;
    for (const std::uint32_t c : children) up.push_back(ops.recv(c, bytes, 0));
    MaybeOp released;
    if (r > 0) {
      const Local to_parent = ops.send((r - 1) / 2, bytes, 0);
      for (const Local u : up) ops.after(to_parent, u);
      const Local from_parent = ops.recv((r - 1) / 2, bytes, 1);
      ops.after(from_parent, to_parent);
      released = from_parent;
    }
    for (const std::uint32_t c : children) {
      const Local down = ops.send(c, bytes, 1);
      if (released)
        ops.after(down, released);
      else
        for (const Local u : up) ops.after(down, u);
    }
  };
}

Schedule tree_barrier(const AlgorithmParams& p) {
  return build(p.ranks, tree_barrier_emitter(p));
}

// The tree's ranks differ only by their place: the root, ranks with two children, the one rank
// with a single child (N even), the leaves; in that order, as runs. Peers follow from the rank as
// the heap's 2r + 1, 2r + 2 and (r - 1) / 2.
std::optional<GeneratedSchedule> tree_barrier_on_the_fly(const AlgorithmParams& p) {
  const std::uint64_t n = p.ranks;
  // Below the root, the children a rank has (2r + 1 and 2r + 2 below N) only decrease with r:
  // the first rank r >= 1 with 2r + c >= N is where ranks have fewer than c.
  const auto first_with_fewer_than = [n](std::uint64_t c) {
    return std::max<std::uint64_t>(1, n > c ? (n - c + 1) / 2 : 0);
  };
  std::vector<std::uint64_t> bounds = {0, 1, first_with_fewer_than(2), first_with_fewer_than(1), n};
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  std::vector<GeneratedSchedule::RankRun> runs;
  for (std::size_t i = 0; i + 1 < bounds.size() && bounds[i] < n; ++i)
    runs.push_back({static_cast<std::uint32_t>(bounds[i]),
                    static_cast<std::uint32_t>(std::min(bounds[i + 1], n)),
                    static_cast<std::uint32_t>(runs.size()), 1});
  return generate_classes(p.ranks, RankFold{}, runs, tree_barrier_emitter(p),
                          [](const Operation& op, std::uint32_t r) {
                            return r > 0 && op.peer == (r - 1) / 2 ? PeerRule::Mode::kHeapParent
                                                                   : PeerRule::Mode::kHeapChild;
                          });
}

double tree_barrier_operations(const AlgorithmParams& p) {
  return 4.0 * (n_of(p) - 1.0);
}

// Tree barrier, the heap-ordered binary tree of depth D = floor(log2 N): the message between a
// child at depth d and its parent is round D - d going up (the deepest first), D + d - 1 coming
// down (the root's children first): 2 D rounds.
AlgorithmRounds tree_barrier_rounds(const AlgorithmParams& p) {
  const auto depth = [](std::uint64_t r) {
    return static_cast<std::uint32_t>(std::bit_width(r + 1)) - 1;
  };
  const std::uint32_t tree = p.ranks < 1 ? 0 : depth(p.ranks - 1);
  return rounds(2 * tree, [tree, depth](std::uint32_t rank, const Operation& op) {
    const std::uint32_t child = depth(std::max(rank, op.peer));
    return op.tag == 0 ? tree - child : tree + child - 1;
  });
}

}  // namespace

AlgorithmKind tree_barrier_kind() {
  return {.name = "tree_barrier",
          .meaning = "up the heap-ordered binary tree and down again (Agarwal et al.)",
          .generate = tree_barrier,
          .generate_on_the_fly = tree_barrier_on_the_fly,
          .operations = tree_barrier_operations,
          .rounds = tree_barrier_rounds};
}

}  // namespace collnoise::algorithms
