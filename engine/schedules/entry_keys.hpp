#pragma once
// How the ranks of a schedule point enter the collective, how a sample's time is taken and the
// benchmark loop around it (docs/models/schedules.md, "Entry, timing and loop"): the keys of the
// [entry], [timing] and [loop] tables, declared once here and registered with the schedule
// model's (schedule_model_kind.cpp), and what a point read from them.
//
// This build simulates the entry "together" (every rank's CPU and NIC free at 0, as before
// these keys) with either timing, outside any loop. The other entries (a simulated barrier, a
// law of offsets) and loops of more than one iteration are declared, checked and refused with
// one line naming the key: they need a run start with per-rank free times and noise carried
// across runs in the engine, which is not there yet.
#include <cstdint>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"

namespace collnoise {

/// Where each rank's collective starts.
enum class RankEntry { kTogether, kBarrier, kLaw };
/// What a sample's value is.
enum class SampleTiming {
  kCompletion,  ///< the last finish, from the first rank's start (a common start)
  kPerRank,     ///< each rank's own time, from its own start to its own finish
};

/// What a schedule point read from the entry, timing and loop keys.
struct EntrySpec {
  RankEntry entry = RankEntry::kTogether;
  SampleTiming timing = SampleTiming::kCompletion;
  std::uint64_t iterations = 1;  ///< recorded iterations of the loop (1: no loop)
  std::uint64_t warmups = 0;     ///< unrecorded iterations before them
  bool loop_barrier = false;     ///< a barrier before each timed collective
  double pause = 0.0;            ///< seconds each rank waits before each iteration

  /// The summary's `rank_entry`: "together", "barrier (<algorithm or GOAL file>)" or
  /// "law (<law>, mean <seconds> s)".
  std::string entry_text = "together";
  /// The summary's `sample_timing`: "completion" or "per_rank".
  std::string timing_text() const;
  /// The summary's `benchmark_loop`: "none", or its iterations, warm-ups, pause and barrier.
  std::string loop_text() const;
};

/// The keys of the [entry], [timing] and [loop] tables (schedule model).
const std::vector<KeySpec>& entry_keys();

/// Reads them; `ranks`: the point's ranks. InputError naming the key at fault: inconsistent
/// keys (entry.barrier with entry.barrier_goal, a barrier key without entry.mode = "barrier"),
/// and, in this build, any entry but "together" and any loop (see above).
EntrySpec read_entry(ParamReader& reader);

}  // namespace collnoise
