#pragma once
// The summary fields of a schedule point (ScheduleStudy::summarize), each declared once
// (core/field_spec.hpp): the schema (schedule_summary_fields), the writer, the table, the plot
// hints and the commands that read a schedule point back (timeline, compare) use these. The
// critical path's fields are PathAttribution's (engine/schedules/paths/path_attribution.hpp).
#include <cstdint>
#include <string>

#include "core/field_spec.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise::schedule_fields {

/// Ranks up to which a point lists every rank's finishing time.
inline constexpr std::uint32_t kMaxRanksListed = 65536;

inline const std::string kSeconds = "seconds";
inline const std::string kFinishSampled = "with collective.finish_sample";
inline const std::string kListed =
    "a series over the ranks; null beyond " + std::to_string(kMaxRanksListed) + " ranks";

inline const FieldSpec kSchedule{"schedule", "",
                                 "the schedule, described (algorithm or GOAL file)"};
inline const FieldSpec kRanks{"ranks", "", "ranks of the schedule"};
inline const FieldSpec kOperations{"operations", "", "operations of the schedule"};
inline const FieldSpec kEventsPerSample{"events_per_sample", "",
                                        "events one simulated replication handles"};
inline const MeanFields kCompletion{"completion_", kSeconds, "the completion time"};
inline const FieldSpec kCompletionSd{"completion_sd", kSeconds,
                                     "standard deviation of the completion time"};
inline const FieldSpec kNoiselessCompletion =
    exact_field({"noiseless_completion", kSeconds, "the completion time without noise"});
inline const QuantileFields kCompletionQuantiles{"completion_", kSeconds, "the completion time"};
inline const FieldSpec kNoiselessFinish = exact_field(
    {"noiseless_finish", kSeconds, "every rank's finishing time without noise: " + kListed});
inline const FieldSpec kSampleFinishIndex{
    "sample_finish_index", "", "the replication whose finishing times follow", kFinishSampled};
inline const FieldSpec kSampleFinish{
    "sample_finish", kSeconds, "every rank's finishing time in it: " + kListed, kFinishSampled};

// How the ranks entered, how a sample was timed and the loop around it (entry_keys.hpp):
// `collnoise compare` reads the first two to say what it compares.
inline const FieldSpec kRankEntry{
    "rank_entry", "", "how the ranks entered: together (all at 0), barrier (...) or law (...)"};
inline const FieldSpec kSampleTiming{
    "sample_timing", "",
    "a sample's time: completion (the last finish from the first start) or per_rank (each "
    "rank's own time; the sample is their largest)"};
inline const FieldSpec kBenchmarkLoop{"benchmark_loop", "",
                                      "the benchmark loop simulated: none, or its iterations"};
inline const FieldSpec kLoopIterations{"loop_recorded_iterations", "",
                                       "recorded iterations of the loop (1: no loop)"};
inline const FieldSpec kLoopWarmups{"loop_warmup_iterations", "",
                                    "unrecorded iterations before them"};

}  // namespace collnoise::schedule_fields
