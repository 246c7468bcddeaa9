#pragma once
// Repeated computation cycles (docs/models/loggops-cycles.md; Chen & Suda): every rank computes W
// seconds, then joins a collective under LogGOPS, and starts its next compute as soon as it has
// finished the collective (no global synchronisation), so ranks drift apart and noise carries from
// cycle to cycle. T_c is the latest time any rank finishes the collective of cycle c.
//
// Algorithms:
//  - butterfly (recursive doubling, N = 2^K): in round r rank i sends to i XOR 2^r, then
//    receives that partner's round-r message;
//  - redundant butterfly (Chen & Suda's Algorithm 2, with the semantic of
//  docs/models/loggops-cycles.md): after
//    completing a round r >= 1 by its own exchange a rank also sends its partial result to its
//    pair-mate i XOR 1, which adopts it if it arrives before the mate's own round-r message;
//  - dissemination barrier (any N): in round r rank i sends to (i + 2^r) mod N and receives
//    from (i - 2^r) mod N, ceil(log2 N) rounds.
//
// The CPU of a rank runs one operation at a time. When an operation ends, the sends it issued run
// first (each waiting for the NIC if need be); then the messages that have arrived and can be
// handled (for the current round, or for a round already completed, which are received and
// dropped) are received in arrival order (ties: lower round first, then ordinary before
// redundant); a message for a later round waits in a buffer. A rank that finishes the collective
// pays its owed sends and the receive overhead of messages that arrived before it finished, then
// computes; messages of a finished collective that arrive later are discarded at no cost.
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/loggops/loggops.hpp"
#include "estimators/histogram.hpp"

namespace collnoise {

enum class CycleAlgorithm { kButterfly, kRedundantButterfly, kDissemination };

struct CycleSetup {
  CycleAlgorithm algorithm = CycleAlgorithm::kButterfly;
  std::uint64_t ranks = 2;   ///< N: a power of two for the butterflies, any N >= 1 otherwise
  std::uint64_t cycles = 1;  ///< M >= 1
  double work = 0.0;         ///< W, seconds of compute per cycle
  LogGops net;
};

/// Rounds of one collective: log2 N for the butterflies, ceil(log2 N) for dissemination.
int rounds_of(const CycleSetup& setup);

/// What a run keeps of the ranks' finishing times in the last cycle: all of them (tests), or
/// only their counts in a histogram (large runs, where N doubles more would not fit).
struct CycleRecording {
  bool keep_last_finish = true;
  Histogram* last_finish_histogram = nullptr;  ///< when given, every finishing time is added
};

/// What one replication of one case produces.
struct CycleResult {
  std::vector<double> cycle_end;    ///< T_c for c = 1..M, seconds (max over ranks)
  std::vector<double> last_finish;  ///< each rank's finishing time in cycle M, seconds (if kept)
  std::uint64_t adoptions = 0;      ///< rounds completed from a mate's redundant copy
};

/// Closed form of T_M without noise, seconds (docs/modelling-choices.md derives it). With
/// round = 2o + L + (s-1)(G + 2O), overhead c = o + (s-1)O, NIC gap n = g + (s-1)G:
///  - butterfly and dissemination: M (W + K round), when n <= round (else the NIC, not the
///    round trip, paces the rounds, and nullopt);
///  - redundant butterfly with K >= 2: each cycle after the first also waits for the trailing
///    redundant send a finished rank still owes (and, when n <= c and K >= 3, the receive of its
///    mate's last redundant message, which arrives as it finishes), and for the NIC after that
///    send: T_M = M (W + K round) + (M - 1)(max(trail + W, n) - W), trail = c or 2c; valid when
///    the extra sends and receives fit in each round's wait (max(c, n) + c <= L + (s-1)G and
///    max(c, n) + n <= round), else nullopt. K = 1 is the plain butterfly.
std::optional<double> noiseless_closed_form(const CycleSetup& setup);

}  // namespace collnoise
