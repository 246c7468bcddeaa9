#pragma once
// Communication overheads T_o(m) measured by simulating a collective on m ranks, for the
// isoefficiency run kind (docs/models/isoefficiency.md): the phase time of a tree barrier less its
// work, or the completion time of one butterfly allreduce with no work, over independent samples,
// with a confidence interval and the exact mean where one is known.
#include <cstdint>

#include "engine/cpu_noise.hpp"
#include "engine/cycles/cycle_model.hpp"
#include "engine/isoefficiency/isoefficiency_study.hpp"
#include "engine/tree_barrier/sampler.hpp"

namespace collnoise {

using OverheadSimulator =
    std::function<SimulatedOverhead(double m, int threads, std::uint64_t key, double confidence)>;

/// T_o(m) = E[T] - w of a tree barrier of m ranks (per-level sampling; base.shape is replaced).
/// Precondition: samples >= 2.
OverheadSimulator tree_barrier_overhead(TreeBarrierModel base, std::uint64_t samples);

/// T_o(m) of one butterfly allreduce on m = 2^k ranks with no work (base.ranks is replaced); exact
/// when no noise reaches it (per-stage noise scaled by f has no compute stage to delay).
/// Precondition: samples >= 2, base.cycles == 1, base.work == 0.
OverheadSimulator butterfly_overhead(CycleSetup base, CpuNoiseSpec noise, std::uint64_t samples);

}  // namespace collnoise
