#include "engine/schedules/entry_keys.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/goal/goal_reader.hpp"

namespace collnoise {
namespace {

// Where a refused choice is explained.
constexpr const char* kWhere = "docs/models/schedules.md, \"Entry, timing and loop\"";

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& a : algorithm_kinds()) names.push_back(a.name);
  return names;
}

const KeySpec kMode{.name = "entry.mode",
                    .type = KeyType::kChoice,
                    .meaning =
                        "how the ranks enter: together (all at 0), barrier (as they leave a "
                        "simulated barrier) or law (each at an offset drawn from entry.law)",
                    .fallback = std::string("together"),
                    .choices = {"together", "barrier", "law"}};
const KeySpec kBarrier{.name = "entry.barrier",
                       .type = KeyType::kChoice,
                       .meaning =
                           "the barrier of entry.mode = \"barrier\": a built-in algorithm "
                           "(default dissemination_barrier)",
                       .choices = algorithm_names(),
                       .optional = true};
const KeySpec kBarrierGoal{.name = "entry.barrier_goal",
                           .type = KeyType::kFile,
                           .meaning = "the barrier as a GOAL schedule (instead of entry.barrier)",
                           .optional = true};
const KeySpec kLaw{.name = "entry.law",
                   .type = KeyType::kText,
                   .meaning =
                       "the noise law of each rank's entry offset (entry.mode = \"law\"; shape "
                       "keys under entry.)",
                   .optional = true};
const KeySpec kMean{.name = "entry.mean",
                    .meaning = "the mean entry offset (with entry.law)",
                    .unit = "seconds",
                    .bounds = {0.0, kMaxSeconds},
                    .optional = true};
// How, not what, is simulated: the runs are the same, read another way.
const KeySpec kMeasure{.name = "timing.measure",
                       .type = KeyType::kChoice,
                       .meaning =
                           "a sample's time: completion (the last finish from the first rank's "
                           "start) or per_rank (each rank from its own start to its own finish)",
                       .fallback = std::string("completion"),
                       .choices = {"completion", "per_rank"},
                       .identity = false};
const KeySpec kIterations{.name = "loop.iterations",
                          .type = KeyType::kInteger,
                          .meaning = "recorded iterations of the benchmark loop, one sample each",
                          .fallback = std::int64_t{1},
                          .bounds = {1.0, 1.0e9}};
const KeySpec kWarmups{.name = "loop.warmups",
                       .type = KeyType::kInteger,
                       .meaning = "unrecorded iterations before the recorded ones",
                       .fallback = std::int64_t{0},
                       .bounds = {0.0, 1.0e9}};
const KeySpec kPause{.name = "loop.pause",
                     .meaning = "what each rank waits before each iteration (the usleep)",
                     .unit = "seconds",
                     .fallback = 0.0,
                     .bounds = {0.0, kMaxSeconds}};
const KeySpec kPauseLaw{
    .name = "loop.pause.law",
    .type = KeyType::kText,
    .meaning = "a noise law of the pause instead (shape keys under loop.pause.)",
    .optional = true};
const KeySpec kPauseMean{.name = "loop.pause.mean",
                         .meaning = "the mean pause (with loop.pause.law)",
                         .unit = "seconds",
                         .bounds = {0.0, kMaxSeconds},
                         .optional = true};
const KeySpec kLoopBarrier{.name = "loop.barrier",
                           .type = KeyType::kBoolean,
                           .meaning = "a barrier (entry.barrier) before each timed collective",
                           .fallback = false};

[[noreturn]] void not_applicable(const KeySpec& key, const std::string& when) {
  throw InputError(fmt::format("{} applies with {}, which is not given", key.name, when));
}

// The entry keys, checked for consistency; the entry's description.
RankEntry read_mode(ParamReader& reader, EntrySpec& e) {
  std::string& text = e.entry_text;
  const std::string mode = reader.text(kMode);
  const bool barrier = mode == "barrier";
  const bool law = mode == "law";
  if (reader.has(kBarrier.name) && reader.has(kBarrierGoal.name))
    throw InputError("entry.barrier and entry.barrier_goal both name the barrier: keep one");
  for (const KeySpec* k : {&kBarrier, &kBarrierGoal})
    if (reader.has(k->name) && !barrier && !reader.boolean(kLoopBarrier))
      not_applicable(*k, "entry.mode = \"barrier\" or loop.barrier");
  for (const KeySpec* k : {&kLaw, &kMean})
    if (reader.has(k->name) && !law) not_applicable(*k, "entry.mode = \"law\"");
  if (law && !(reader.has(kLaw.name) && reader.has(kMean.name)))
    throw InputError("entry.mode = \"law\" needs entry.law and entry.mean (seconds)");
  // The barrier of the entry or of every iteration of a loop (loop.barrier).
  if (barrier || reader.boolean(kLoopBarrier)) {
    if (reader.has(kBarrierGoal.name)) e.barrier_goal = reader.text(kBarrierGoal);
    if (reader.has(kBarrier.name)) e.barrier_algorithm = reader.text(kBarrier);
  }
  if (barrier) {
    text = fmt::format("barrier ({})", e.barrier_goal.empty() ? e.barrier_algorithm
                                                              : "GOAL file " + e.barrier_goal);
    return RankEntry::kBarrier;
  }
  if (law) {
    text = fmt::format("law ({}, mean {:g} s)", reader.text(kLaw), reader.number(kMean));
    return RankEntry::kLaw;
  }
  text = "together";
  return RankEntry::kTogether;
}

}  // namespace

std::string EntrySpec::timing_text() const {
  return timing == SampleTiming::kPerRank ? "per_rank" : "completion";
}

std::string EntrySpec::loop_text() const {
  if (!loop()) return "none";
  const std::string paused =
      pause_law ? fmt::format("pause {} of mean {:g} s", pause_law_text, pause_mean_ns * 1e-9)
                : fmt::format("pause {:g} s", pause);
  return fmt::format("{} iterations after {} warm-ups, {}{}", iterations, warmups, paused,
                     barrier_each_iteration() ? ", a barrier before each" : "");
}

AnySchedule entry_barrier(const EntrySpec& entry, std::uint32_t ranks) {
  if (!entry.barrier_goal.empty()) {
    const std::string& path = entry.barrier_goal;
    AnySchedule barrier = read_goal_schedule(path);
    if (ranks_of(barrier) != ranks)
      throw InputError(fmt::format("entry.barrier_goal = \"{}\" has {} ranks, the collective {}",
                                   path, ranks_of(barrier), ranks));
    return barrier;
  }
  const AlgorithmKind& algorithm = *find_algorithm(entry.barrier_algorithm);
  AlgorithmParams p;
  p.ranks = ranks;
  p.message_bytes = 1;  // a barrier's messages carry no data
  if (algorithm.generate_on_the_fly)
    if (std::optional<GeneratedSchedule> fly = algorithm.generate_on_the_fly(p))
      return AnySchedule(std::move(*fly));
  return AnySchedule(algorithm.generate(p));
}

const std::vector<KeySpec>& entry_keys() {
  static const std::vector<KeySpec> keys = {kMode,  kBarrier,  kBarrierGoal, kLaw,
                                            kMean,  kMeasure,  kIterations,  kWarmups,
                                            kPause, kPauseLaw, kPauseMean,   kLoopBarrier};
  return keys;
}

EntrySpec read_entry(ParamReader& reader) {
  EntrySpec e;
  e.entry = read_mode(reader, e);
  if (e.entry == RankEntry::kLaw) {
    // The same reader as latency.law's and noise.law's: a unit-mean law, its shape keys under
    // entry.
    e.law = read_unit_law(reader, "entry");
    e.mean_ns = reader.number(kMean) * 1e9;
  }
  e.timing =
      reader.text(kMeasure) == "per_rank" ? SampleTiming::kPerRank : SampleTiming::kCompletion;
  e.iterations = static_cast<std::uint64_t>(reader.integer(kIterations));
  e.warmups = static_cast<std::uint64_t>(reader.integer(kWarmups));
  e.pause = reader.number(kPause);
  e.loop_barrier = reader.boolean(kLoopBarrier);
  if (reader.has(kPauseLaw.name) && reader.has(kPause.name))
    throw InputError("loop.pause and loop.pause.law both give the pause: keep one");
  if (reader.has(kPauseMean.name) && !reader.has(kPauseLaw.name))
    not_applicable(kPauseMean, "loop.pause.law");
  if (reader.has(kPauseLaw.name) && !reader.has(kPauseMean.name))
    throw InputError("loop.pause.law needs loop.pause.mean, the mean pause in seconds");
  if (reader.has(kPauseLaw.name)) {
    // The same reader as entry.law's: a unit-mean law, its shape keys under loop.pause.
    e.pause_law = read_unit_law(reader, "loop.pause");
    e.pause_law_text = reader.text(kPauseLaw);
    e.pause_mean_ns = reader.number(kPauseMean) * 1e9;
  }
  // What this build simulates: every entry, and the loop after any but a drawn one.
  if (e.loop() && e.entry == RankEntry::kLaw)
    throw InputError(
        fmt::format("entry.mode = \"law\" with a benchmark loop (loop.*): not simulated by this "
                    "version, whose loop starts each iteration from the previous one ({})",
                    kWhere));
  return e;
}

}  // namespace collnoise
