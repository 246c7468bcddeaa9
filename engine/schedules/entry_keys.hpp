#pragma once
// How the ranks of a schedule point enter the collective, how a sample's time is taken and the
// benchmark loop around it (docs/models/schedules.md, "Entry, timing and loop"): the keys of the
// [entry], [timing] and [loop] tables, declared once here and registered with the schedule
// model's (schedule_model_kind.cpp), and what a point read from them.
//
// This build simulates the entries "together" (every rank's CPU and NIC free at 0, as before
// these keys), "law" (rank r's CPU and NIC free from its own drawn offset: the engine's per-rank
// start) and "barrier" (from its exit of a barrier simulated first) with either timing, and the
// benchmark loop (ScheduleStudy::run_loop): W + I iterations, iteration by iteration, each rank
// starting the next one from its own finish of the previous one and its pause, the time-based
// noise going on in time. A loop with entry.mode = "law" is refused with one line (the offsets
// would apply to the first iteration only: not simulated).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "distributions/noise_law.hpp"
#include "engine/schedules/schedule/any_schedule.hpp"

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
  /// loop.pause.law: the unit-mean law of the pauses and their mean, ns (a pause is
  /// pause_mean_ns * pause_law->isf(u), u drawn per loop, iteration and rank from
  /// StreamPurpose::kLoop); null for the constant loop.pause.
  std::shared_ptr<const NoiseLaw> pause_law;
  double pause_mean_ns = 0.0;
  std::string pause_law_text;  ///< its name, for the summary
  /// entry.mode = "law": the unit-mean law of the offsets and their mean, ns (an offset is
  /// mean_ns * law->isf(u), u drawn per replication and rank from StreamPurpose::kEntryOffset).
  std::shared_ptr<const NoiseLaw> law;
  double mean_ns = 0.0;
  /// entry.mode = "barrier": the built-in barrier, or its GOAL file's path (read, recorded) if
  /// not empty.
  std::string barrier_algorithm = "dissemination_barrier";
  std::string barrier_goal;

  /// The summary's `rank_entry`: "together", "barrier (<algorithm or GOAL file>)" or
  /// "law (<law>, mean <seconds> s)".
  std::string entry_text = "together";
  /// The summary's `sample_timing`: "completion" or "per_rank".
  std::string timing_text() const;
  /// The summary's `benchmark_loop`: "none", or its iterations, warm-ups, pause and barrier.
  std::string loop_text() const;
  /// Whether a benchmark loop is simulated: more than one iteration, warm-ups, a pause or a
  /// barrier in the loop (with none of them, the run of each sample alone, as before the loop).
  bool loop() const {
    return iterations != 1 || warmups != 0 || loop_barrier || pause != 0.0 || pause_law;
  }
  /// Whether each iteration passes a barrier before its timed collective (loop.barrier, or
  /// entry.mode = "barrier" in a loop).
  bool barrier_each_iteration() const { return loop_barrier || entry == RankEntry::kBarrier; }
  /// Whether every sample is one run with every rank starting at 0 (no drawn or barrier entry,
  /// no loop): its samples are then bounded below by the noiseless completion.
  bool single_run_from_zero() const { return entry == RankEntry::kTogether && !loop(); }
};

/// The barrier of entry.mode = "barrier" for a collective of `ranks` ranks: its GOAL file
/// (entry.barrier_goal, read now; InputError if its ranks differ) or the built-in algorithm
/// entry.barrier (default dissemination_barrier) with 1-byte messages.
AnySchedule entry_barrier(const EntrySpec& entry, std::uint32_t ranks);

/// The keys of the [entry], [timing] and [loop] tables (schedule model).
const std::vector<KeySpec>& entry_keys();

/// Reads them. InputError naming the key at fault: inconsistent keys (entry.barrier with
/// entry.barrier_goal, a barrier key without entry.mode = "barrier" or loop.barrier), and, in
/// this build, a loop with entry.mode = "law" (see above).
EntrySpec read_entry(ParamReader& reader);

}  // namespace collnoise
