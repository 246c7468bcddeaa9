#pragma once
// The reference discrete-event simulator of repeated cycles (docs/models/loggops-cycles.md): one
// time-ordered event queue, each rank a small state machine with a message buffer that follows the
// rules of engine/cycle_model.hpp literally. Obviously correct, O(events log events), meant for
// small N (up to ~2^12); the fast engine (engine/cycle_engine.hpp) must give identical times.
#include "engine/cpu_noise.hpp"
#include "engine/cycles/cycle_model.hpp"

namespace collnoise {

/// Runs one replication of one case with the given CPUs. Preconditions: valid setup (N a power
/// of two for the butterflies).
template <class Cpu>
CycleResult simulate_cycles_reference(const CycleSetup& setup, Cpu& cpu,
                                      const CycleRecording& recording = {});

}  // namespace collnoise
