#pragma once
// The tree barrier under time-based noise (docs/models/tree-barrier.md, docs/models/time-noise.md):
// phases are no longer independent, so each replication simulates them one after the other in
// absolute time. In a phase that the root starts at S, rank i receives the start at S + tau d(i),
// computes w seconds on its CPU (advance_i), and forwards its completion up once it has finished
// and heard from both children (tau per hop; network time is not delayed). The phase ends when the
// root is done; the next one starts then.
#include <cstdint>
#include <vector>

#include "engine/cpu_noise.hpp"

namespace collnoise {

struct TimedTreeSetup {
  std::uint64_t ranks = 1;   ///< N >= 1, heap order
  double work = 0.0;         ///< w, seconds per phase
  double tau = 0.0;          ///< seconds per hop
  std::uint64_t phases = 1;  ///< M >= 1
};

struct TimedTreeResult {
  std::vector<double> phase_end;  ///< T_p, p = 1..M, seconds (absolute)
};

/// One replication. The result does not depend on `threads`.
template <class Cpu>
TimedTreeResult simulate_timed_tree(const TimedTreeSetup& setup, Cpu& cpu, int threads);

}  // namespace collnoise
