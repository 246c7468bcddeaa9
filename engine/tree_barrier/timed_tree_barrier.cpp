#include "engine/tree_barrier/timed_tree_barrier.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/stop_request.hpp"

namespace collnoise {
namespace {

// Threads share a phase only on trees this large (the size from which timed_tree_study.cpp hands
// its threads to the phases instead of to whole replications): one parallel loop per phase, of
// a few hundred microseconds or more, amortises the wake-up of threads that sleep in between
// (core/thread_policy.hpp).
constexpr std::uint64_t kSharedPhaseRanks = 1 << 14;
// The subtrees a shared phase is cut into: many more than threads, so that a thread that was
// descheduled (a busy machine) leaves its share to the others.
constexpr int kSubtreeDepth = 6;

// Phase p's completion times, up[i], of ranks [first, end) = level_range(d) of levels d = depth
// down to top: each rank once it has computed and heard from both children. Returns early on a
// stop request (the caller abandons the phase).
template <class Cpu, class LevelRange>
void settle_levels(const TimedTreeSetup& setup, Cpu& cpu, std::uint64_t p, double start, int depth,
                   int top, LevelRange&& level_range, std::vector<double>& up) {
  const std::uint64_t n = setup.ranks;
  for (int d = depth; d >= top; --d) {
    if (stop_requested()) return;
    const auto [first, end] = level_range(d);
    const double begin = start + setup.tau * static_cast<double>(d);
    for (std::uint64_t i = first; i < end; ++i) {
      double done = cpu.compute(i, p, begin, setup.work);
      // Children are one level deeper, already settled in this phase.
      if (2 * i + 1 < n) done = std::max(done, up[2 * i + 1] + setup.tau);
      if (2 * i + 2 < n) done = std::max(done, up[2 * i + 2] + setup.tau);
      up[i] = done;
    }
  }
}

}  // namespace

template <class Cpu>
TimedTreeResult simulate_timed_tree(const TimedTreeSetup& setup, Cpu& cpu, int threads) {
  const std::uint64_t n = setup.ranks;
  const int depth = static_cast<int>(std::bit_width(n)) - 1;  // floor(log2 N)
  const bool shared = threads > 1 && n >= kSharedPhaseRanks;
  // Shared phases: the subtrees under level `cut` are independent, one task each (the same
  // operations on each rank as level by level, so the same bits); levels above run after them.
  const int cut = shared ? std::min(depth, kSubtreeDepth) : 0;
  const auto whole_level = [n](int d) {
    return std::pair{(std::uint64_t{1} << d) - 1, std::min(n, (std::uint64_t{2} << d) - 1)};
  };
  std::vector<double> up(n);
  TimedTreeResult result;
  double start = 0.0;
  for (std::uint64_t p = 0; p < setup.phases; ++p) {
    if (shared) {
      const std::int64_t subtrees = std::int64_t{1} << cut;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
      for (std::int64_t j = 0; j < subtrees; ++j) {
        const auto root = static_cast<std::uint64_t>(j);
        // Subtree j's ranks on level d >= cut: a run of 2^(d - cut) ranks.
        const auto in_subtree = [&](int d) {
          const std::uint64_t width = std::uint64_t{1} << (d - cut);
          const std::uint64_t first = (std::uint64_t{1} << d) - 1 + root * width;
          return std::pair{std::min(n, first), std::min(n, first + width)};
        };
        settle_levels(setup, cpu, p, start, depth, cut, in_subtree, up);
      }
    }
    settle_levels(setup, cpu, p, start, shared ? cut - 1 : depth, 0, whole_level, up);
    throw_if_stop_requested();
    start = up[0];
    result.phase_end.push_back(start);
  }
  return result;
}

template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, QuietCpu&, int);
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, ListedCpu&, int);
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, PatternCpu&, int);
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, PoissonCpu&, int);
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, StageCpu&, int);
// The quiet variants (undelayed overheads): with_cpu can hand them over.
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, QuietOps<QuietCpu>&, int);
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, QuietOps<PatternCpu>&, int);
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, QuietOps<PoissonCpu>&, int);
template TimedTreeResult simulate_timed_tree(const TimedTreeSetup&, QuietOps<StageCpu>&, int);

}  // namespace collnoise
