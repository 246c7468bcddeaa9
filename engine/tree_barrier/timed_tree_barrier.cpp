#include "engine/tree_barrier/timed_tree_barrier.hpp"

#include <algorithm>
#include <bit>

#include "core/stop_request.hpp"

namespace collnoise {

template <class Cpu>
TimedTreeResult simulate_timed_tree(const TimedTreeSetup& setup, Cpu& cpu, int threads) {
  const std::uint64_t n = setup.ranks;
  const int depth = static_cast<int>(std::bit_width(n)) - 1;  // floor(log2 N)
  std::vector<double> up(n);
  TimedTreeResult result;
  double start = 0.0;
  for (std::uint64_t p = 0; p < setup.phases; ++p) {
    for (int d = depth; d >= 0; --d) {
      throw_if_stop_requested();
      const std::uint64_t first = (std::uint64_t{1} << d) - 1;
      const std::uint64_t end = std::min(n, (std::uint64_t{2} << d) - 1);
      const double begin = start + setup.tau * static_cast<double>(d);
#pragma omp parallel for num_threads(threads) schedule(static) if (end - first > 4096)
      for (std::int64_t k = static_cast<std::int64_t>(first); k < static_cast<std::int64_t>(end);
           ++k) {
        if (stop_requested()) continue;  // the phase is abandoned after the loop
        const auto i = static_cast<std::uint64_t>(k);
        double done = cpu.compute(i, p, begin, setup.work);
        // Children are one level deeper, already settled in this phase.
        if (2 * i + 1 < n) done = std::max(done, up[2 * i + 1] + setup.tau);
        if (2 * i + 2 < n) done = std::max(done, up[2 * i + 2] + setup.tau);
        up[i] = done;
      }
    }
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
