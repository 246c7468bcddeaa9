#pragma once
// The fast engine for repeated cycles (docs/models/loggops-cycles.md), parallel over ranks with
// OpenMP, giving the same times as the reference simulator (engine/cycle_reference.hpp) to the last
// bit:
//  - butterfly: round by round, each pair (i, i XOR 2^r) sends, then receives the other's message;
//  - dissemination: a send sweep that records each message's arrival, then a receive sweep;
//  - redundant butterfly: round r >= 1 is closed within the quad {i, i^1, i^2^r, i^2^r^1}: each
//    pair-mate gets its round-r data from its partner (ordinary) or from its mate (redundant).
//    Of two mates, the one whose ordinary message arrives first always completes by its own
//    exchange (the mate's redundant copy is sent after the mate's own, later, arrival); its
//    redundant message then decides whether the other adopts. Messages that lose the race are
//    received and dropped later, in arrival order; they wait in a small per-rank queue.
// Memory: a few arrays of N doubles (CPU free time, NIC free time, message arrivals, dropped
// arrivals) plus the CPU noise's per-rank state.
#include "engine/cpu_noise.hpp"
#include "engine/cycles/cycle_model.hpp"

namespace collnoise {

/// How the engine walks memory; the results do not depend on it (tests shrink it to exercise
/// every path at small N).
struct CycleTuning {
  /// Rounds 0 .. block_bits-1 run block by block over 2^block_bits ranks (a few hundred KiB of
  /// state, inside a core's L2 cache). >= 1.
  int block_bits = 12;
  /// Higher butterfly rounds run in passes of up to pass_bits rounds, each over independent
  /// groups of lane_ranks x 2^pass_bits ranks, one sweep over memory a pass. >= 1.
  int pass_bits = 6;
  std::size_t lane_ranks = 64;  ///< a power of two
  /// Below this many ranks the redundant butterfly runs on the calling thread alone, and the
  /// conventional butterfly and dissemination (about four times cheaper per rank and round)
  /// below four times as many: the two barriers a cycle costs when threads share the ranks
  /// would outweigh the work, above all on a busy machine, where a thread that waits at a
  /// barrier may wait for a whole time slice (measured: bench/RESULTS.md).
  std::size_t parallel_from_ranks = std::size_t{1} << 16;
};

/// One replication of one case. The result does not depend on `threads` or `tuning`.
template <class Cpu>
CycleResult simulate_cycles(const CycleSetup& setup, Cpu& cpu, int threads,
                            const CycleRecording& recording = {}, const CycleTuning& tuning = {});

}  // namespace collnoise
