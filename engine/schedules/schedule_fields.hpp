#pragma once
// The summary fields of a schedule point (ScheduleStudy::summarize), each declared once
// (core/field_spec.hpp): the schema (schedule_summary_fields), the writer, the table, the plot
// hints and the commands that read a schedule point back (timeline, compare) use these. The
// critical path's fields are PathAttribution's (engine/schedules/paths/path_attribution.hpp).
#include <array>
#include <cstdint>
#include <string>

#include "core/field_spec.hpp"
#include "engine/schedules/sensitivity_keys.hpp"
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
inline const FieldSpec kLatencyFlooredShare = exact_field(
    {"latency_floored_share", "",
     "the share of the messages' draws whose whole measured one-way time is shorter than what "
     "the engine charges them besides their wire (2o + max((s-1)O, (s-1)G)), so that the wire "
     "is 0: over the pool, exact, averaged over the schedule's sends",
     "with latency.use = \"whole\""});
inline const std::string kLatencyFile = "with latency.file";
inline const FieldSpec kLatencyPoolBytes{
    "latency_pool_bytes", "", "the measured message sizes in bytes, one per pool: a series",
    kLatencyFile};
inline const FieldSpec kLatencyPoolSamples{
    "latency_pool_samples", "",
    "the samples of each pool after the transforms, in the order of latency_pool_bytes",
    kLatencyFile};
inline const FieldSpec kLatencyPools{
    "latency_pools", "",
    "each file's pool of each size: the file, its kind, its checksum, its size, the samples read "
    "and kept; and the transform",
    kLatencyFile};
// Whether a prediction rests on a fitted tail more than on data (docs/models/tails.md).
inline const std::string kWithFittedTails = "with noise.tail = \"gpd\" or latency.tail = \"gpd\"";
/// The per-sample metric behind it: 1 when the sample's slowest rank drew from a fitted tail.
inline const std::string kSlowestTailMetric = "slowest_drew_tail";
/// Above this share the summary warns that the point rests on the tail model more than on data.
inline constexpr double kTailShareWarning = 0.5;
inline const ProportionFields kSlowestTail{
    "slowest_tail_",
    "samples whose slowest rank drew from a fitted tail beyond the data while it was timed (a "
    "received message's latency or an overlapping detour's duration above the fit's threshold)",
    kWithFittedTails};
// Sensitivities by finite differences or from the critical path (sensitivity_keys.hpp).
inline const std::string kWithSensitivity =
    "with sensitivity.parameters naming it and sensitivity.method = \"differences\" or \"both\"";
inline const std::string kWithPathSensitivity =
    "with sensitivity.parameters naming it and sensitivity.method = \"path\" or \"both\"";
inline const std::string kWithBothSensitivities =
    "with sensitivity.parameters naming it and sensitivity.method = \"both\"";
inline const FieldSpec kSensitivityStep{
    "sensitivity_step", "", "the relative step h of the finite differences (sensitivity.step)",
    "with sensitivity.parameters and sensitivity.method = \"differences\" or \"both\""};
/// Above this share of samples whose path changed within a step, the summary warns.
inline constexpr double kPathChangedWarning = 0.1;
/// A difference and a path's count of a path that held agree within this, relative.
inline constexpr double kPathCountTolerance = 1e-6;
/// One parameter's: the per-sample metrics and the summary's fields.
struct SensitivityFields {
  std::string metric;            ///< the derivative's per-sample metric ("sensitivity_L")
  std::string changed_metric;    ///< 1 when the path changed within the step
  std::string path_metric;       ///< the path's count ("path_sensitivity_L")
  std::string disagrees_metric;  ///< 1 when the path held and its count is not the difference
  MeanFields derivative;
  ProportionFields changed;
  MeanFields path;
  ProportionFields disagrees;
  explicit SensitivityFields(LogGPParameter p)
      : metric(std::string("sensitivity_") + loggp_parameter_name(p)),
        changed_metric(metric + "_path_changed"),
        path_metric("path_" + metric),
        disagrees_metric(metric + "_path_disagrees"),
        derivative(metric + "_", per_byte(p) ? "bytes" : "",
                   std::string("d(completion)/d") + loggp_parameter_name(p) +
                       " by central differences on each sample's streams: the " +
                       loggp_parameter_count(p) + " of " + loggp_parameter_name(p) +
                       " on its critical path while the path holds",
                   kWithSensitivity),
        changed(changed_metric + "_",
                std::string("samples whose critical path changed within the step of ") +
                    loggp_parameter_name(p) + " (its one-sided differences disagree)",
                kWithSensitivity),
        path(path_metric + "_", per_byte(p) ? "bytes" : "",
             std::string("d(completion)/d") + loggp_parameter_name(p) + " from each sample's " +
                 "critical path: the time of " + loggp_parameter_name(p) + " along it divided " +
                 "by " + loggp_parameter_name(p) + ", the " + loggp_parameter_count(p) + " of " +
                 loggp_parameter_name(p) + " on it (a derivative while the path holds)",
             kWithPathSensitivity),
        disagrees(disagrees_metric + "_",
                  std::string("samples whose path held within the step of ") +
                      loggp_parameter_name(p) +
                      " but whose difference and path count differ (beyond 1e-6 relative): "
                      "noise that moves with the parameter (per-stage noise scales with the "
                      "stages, a stage moves into or out of a detour); without noise 0",
                  kWithBothSensitivities) {}
  FieldList specs() const {
    FieldList out = derivative.specs();
    append_fields(out, changed.specs());
    append_fields(out, path.specs());
    append_fields(out, disagrees.specs());
    return out;
  }
};
inline const std::array<SensitivityFields, kLogGPParameters> kSensitivities = {
    SensitivityFields(LogGPParameter::kL), SensitivityFields(LogGPParameter::kSmallO),
    SensitivityFields(LogGPParameter::kSmallG), SensitivityFields(LogGPParameter::kBigG),
    SensitivityFields(LogGPParameter::kBigO)};
/// The fields of parameter `p`.
inline const SensitivityFields& sensitivity_fields(LogGPParameter p) {
  return kSensitivities[static_cast<std::size_t>(p)];
}
inline const std::string kPairClassesGiven = "with network.nodes_per_switch or network.mapping";
inline const FieldSpec kPairClasses{
    "pair_classes", "",
    "how near and far rank pairs were told apart: the rule and its ranks per switch, or the "
    "mapping file (its checksum, ranks and switches)",
    kPairClassesGiven};
inline const FieldSpec kNearMessages{"near_messages", "",
                                     "the schedule's messages between near ranks (one replication)",
                                     kPairClassesGiven};
inline const FieldSpec kFarMessages{"far_messages", "",
                                    "the schedule's messages between far ranks (one replication)",
                                    kPairClassesGiven};
inline const std::string kTopologyGiven = "with network.topology or network.topology_file";
inline const FieldSpec kContention{
    "contention", "", "how messages share the topology's links: \"simple\" (LogGOPSim's model)",
    kTopologyGiven};
inline const FieldSpec kPlacement{
    "placement", "",
    "where the ranks sit on the topology: \"linear\" (rank r on endpoint r), \"random\" "
    "(drawn per sample) or the mapping file and its checksum",
    kTopologyGiven};
inline const FieldSpec kNoiselessRepolls{
    "noiseless_network_repolls", "",
    "polls of the noiseless run that found a message still in the network (each queued it "
    "again)",
    kTopologyGiven};
inline const FieldSpec kNoiselessRecomputations{
    "noiseless_network_recomputations", "",
    "rate recomputations of the noiseless run's flows (each over the flows its change touches; "
    "0 under the simple model)",
    kTopologyGiven};
inline const std::string kJobGiven = "with network.background_schedule";
inline const FieldSpec kBackgroundJob{
    "background_job", "", "the background job beside the collective: its GOAL file", kJobGiven};
inline const FieldSpec kBackgroundJobRanks{
    "background_job_ranks", "",
    "the background job's ranks (on the endpoints after the collective's)", kJobGiven};
inline const FieldSpec kNoiselessJobFinish{
    "noiseless_background_job_finish", kSeconds,
    "when the background job's last rank finished in the noiseless run", kJobGiven};
inline const FieldSpec kSampleFinish{
    "sample_finish", kSeconds, "every rank's finishing time in it: " + kListed, kFinishSampled};

inline const std::string kWithFile = "with loggops.file";
inline const std::string kWithRegimes = "with loggops.file_fit = \"regimes\"";
inline const FieldSpec kLogGPFit{"loggp_fit", "",
                                 "how loggops.file was read: row (the rows nearest each message "
                                 "size) or regimes (fitted per protocol regime)",
                                 kWithFile};
inline const FieldSpec kLogGPEagerBytes{
    "loggp_eager_bytes", "bytes",
    "S from the regime fit: the largest eager message (null: no protocol switch found)",
    kWithRegimes};

/// A protocol regime's fitted LogGOPS parameters (docs/models/netgauge-files.md): `prefix`
/// "loggp_eager_" or "loggp_rendezvous_", then L, o, O, g, G.
struct RegimeFields {
  FieldSpec L, o, O, g, G;
  RegimeFields(const std::string& prefix, const std::string& regime)
      : L{prefix + "L", kSeconds, "LogGOPS L of the " + regime + " regime", kWithRegimes},
        o{prefix + "o", kSeconds, "CPU overhead o of the " + regime + " regime", kWithRegimes},
        O{prefix + "O", "seconds per byte", "CPU overhead per byte O of the " + regime + " regime",
          kWithRegimes},
        g{prefix + "g", kSeconds, "NIC gap g of the " + regime + " regime", kWithRegimes},
        G{prefix + "G", "seconds per byte", "NIC gap per byte G of the " + regime + " regime",
          kWithRegimes} {}
  FieldList specs() const { return {L, o, O, g, G}; }
};
inline const RegimeFields kEagerRegime{"loggp_eager_", "eager"};
inline const RegimeFields kRendezvousRegime{"loggp_rendezvous_",
                                            "rendezvous (null: no protocol switch found)"};
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
