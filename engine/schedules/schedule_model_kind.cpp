// The schedule model as a run file declares it: its keys, and how a point's keys become a
// ScheduleStudy (the sampling and its summary are in schedule_study.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/loggops/loggops_keys.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/contention_keys.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/entry_keys.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/pair_class_keys.hpp"
#include "engine/schedules/schedule/rank_classes.hpp"
#include "engine/schedules/schedule_fields.hpp"
#include "engine/schedules/schedule_net_keys.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "engine/schedules/sensitivity_keys.hpp"

namespace collnoise {
namespace {

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& a : algorithm_kinds()) names.push_back(a.name);
  return names;
}

const KeySpec kGoal{.name = "collective.goal",
                    .type = KeyType::kFile,
                    .meaning = "a GOAL schedule (relative to the run file)",
                    .optional = true};
const KeySpec kAlgorithm{.name = "collective.algorithm",
                         .type = KeyType::kChoice,
                         .meaning = "a built-in algorithm (collnoise schedule --list)",
                         .choices = algorithm_names(),
                         .optional = true};
const KeySpec kRanks{.name = "collective.N",
                     .type = KeyType::kInteger,
                     .meaning = "ranks of a built-in algorithm",
                     .bounds = {1.0, 2147483647.0},
                     .optional = true,
                     .alternatives = "ranks",
                     .short_form = true};
const KeySpec kLog2Ranks{.name = "collective.log2_N",
                         .type = KeyType::kInteger,
                         .meaning = "N = 2^log2_N",
                         .bounds = {0.0, 30.0},
                         .optional = true,
                         .alternatives = "ranks",
                         .short_form = true};
const KeySpec kBytes{.name = "collective.message_bytes",
                     .type = KeyType::kInteger,
                     .meaning = "the collective's message (an allreduce's vector), bytes",
                     .unit = "bytes",
                     .fallback = std::int64_t{8},
                     .bounds = {0.0, 1099511627776.0}};
const KeySpec kRadix{.name = "collective.k",
                     .type = KeyType::kInteger,
                     .meaning = "radix of a k-nomial tree, or n + 1 of an n-way dissemination",
                     .fallback = std::int64_t{2},
                     .bounds = {2.0, 65536.0}};
const KeySpec kSegments{.name = "collective.segments",
                        .type = KeyType::kInteger,
                        .meaning = "pieces each ring chunk is sent in",
                        .fallback = std::int64_t{1},
                        .bounds = {1.0, 65536.0}};
const KeySpec kReceives{.name = "collective.receives",
                        .type = KeyType::kChoice,
                        .meaning = "in_order (a round's receive posted with its send) or preposted",
                        .fallback = std::string("in_order"),
                        .choices = {"in_order", "preposted"}};
const KeySpec kCompute{.name = "collective.compute",
                       .type = KeyType::kBoolean,
                       .meaning =
                           "an n-way dissemination's reductions take message_bytes ns "
                           "(false: 0 ns, the benchmark's _nocompute variant)",
                       .fallback = true};
const KeySpec kCycles{.name = "collective.cycles",
                      .type = KeyType::kInteger,
                      .meaning = "cycles M of compute W, then the schedule",
                      .fallback = std::int64_t{1},
                      .bounds = {1.0, 1.0e6}};
const KeySpec kWork{.name = "collective.W",
                    .meaning = "compute before each cycle",
                    .unit = "seconds",
                    .fallback = 0.0,
                    .bounds = {0.0, kMaxSeconds}};
const KeySpec kFinishSample{.name = "collective.finish_sample",
                            .type = KeyType::kInteger,
                            .meaning = "also record every rank's finishing time in this sample",
                            .bounds = {0.0, 4.0e18},
                            .optional = true,
                            .identity = false};
const KeySpec kMeasurements{.name = "noise.measurements",
                            .type = KeyType::kChoice,
                            .meaning =
                                "a trace's measurements: one (noise.measurement) for every "
                                "rank, or per_rank (rank r replays measurement r mod their "
                                "number)",
                            .fallback = std::string("one"),
                            .choices = {"one", "per_rank"}};
const KeySpec kSemantics{.name = "noise.semantics",
                         .type = KeyType::kChoice,
                         .meaning = "preempt (work stops in every detour) or loggopsim",
                         .fallback = std::string("preempt"),
                         .choices = {"preempt", "loggopsim"}};
const KeySpec kCosched{.name = "noise.cosched",
                       .type = KeyType::kChoice,
                       .meaning = "none, all (one detour offset for every rank) or node",
                       .fallback = std::string("none"),
                       .choices = {"none", "all", "node"}};
const KeySpec kRanksPerNode{.name = "noise.ranks_per_node",
                            .type = KeyType::kInteger,
                            .meaning = "ranks of a node sharing one offset (cosched = node)",
                            .bounds = {1.0, 2147483647.0}};

std::shared_ptr<const DetourPattern> in_nanoseconds(const DetourPattern& p) {
  std::vector<Detour> busy;
  for (const auto& d : p.busy()) busy.push_back({d.start * 1e9, d.end * 1e9});
  return std::make_shared<const DetourPattern>(std::move(busy), p.span() * 1e9, "noise");
}

ScheduleNoiseSpec read_schedule_noise(ParamReader& reader, std::uint32_t ranks,
                                      std::optional<TimeNoiseLaw>& time_law) {
  ScheduleNoiseSpec spec;
  if (!reader.has("noise.law")) return spec;
  if (!names_time_noise(reader, "noise")) {
    // Scaled per second of work: an f-law's delays then follow each stage's length.
    StageNoise stage = read_stage_noise(reader, "noise", 1.0);
    // No delay at all (law "none", f = 0, p = 0) is the noiseless run, not one of zeros.
    if (stage.scale > 0.0) {
      spec.tail_index = stage.eta->tail_index();
      spec.cpu = std::move(stage);
    }
    return spec;
  }
  const TimeNoiseLaw law = read_time_noise(reader, "noise");
  time_law = law;
  spec.tail_index = tail_index(law);
  const TimeSemantics semantics =
      reader.text(kSemantics) == "loggopsim" ? TimeSemantics::kLogGOPSim : TimeSemantics::kPreempt;
  const std::string cosched = reader.text(kCosched);
  std::uint32_t ranks_per_offset = 1;
  if (cosched == "all") ranks_per_offset = std::max<std::uint32_t>(ranks, 1);
  if (cosched == "node")
    ranks_per_offset = static_cast<std::uint32_t>(reader.integer(kRanksPerNode));
  if (const auto* pattern = std::get_if<PatternNoise>(&law)) {
    PatternCpuNoise one{.pattern = in_nanoseconds(*pattern->pattern),
                        .semantics = semantics,
                        .ranks_per_offset = ranks_per_offset};
    if (reader.text(kMeasurements) == "per_rank") {
      if (reader.peek_text("noise.law") != "trace")
        throw InputError("noise.measurements = \"per_rank\" applies to law = \"trace\"");
      if (reader.has("noise.measurement"))
        throw InputError(
            "noise.measurement picks one measurement, noise.measurements = \"per_rank\" gives "
            "each rank one: keep one of them");
      PerRankCpuNoise each{
          .patterns = {}, .semantics = semantics, .ranks_per_offset = ranks_per_offset};
      for (const DetourPattern& m : read_trace_measurements(reader, "noise"))
        each.patterns.push_back(in_nanoseconds(m));
      if (!each.patterns.empty()) {
        spec.cpu = std::move(each);
        return spec;
      }
    }
    spec.cpu = std::move(one);
  } else {
    const auto& poisson = *std::get<std::shared_ptr<const PoissonDetours>>(law);
    if (semantics == TimeSemantics::kLogGOPSim)
      throw InputError(
          "noise.semantics = \"loggopsim\" applies to periodic and trace noise (LogGOPSim replays "
          "traces); Poisson detours take \"preempt\"");
    spec.cpu = PoissonCpuNoise{
        .detours = std::make_shared<const PoissonDetours>(
            poisson.rate() * 1e-9, poisson.mean_duration() * 1e9, poisson.duration_law()),
        .ranks_per_offset = ranks_per_offset};
  }
  return spec;
}

// Operations beyond this are refused: over a day per sample, terabytes stored.
constexpr double kMaxOperations = 0x1p37;
// Likewise for match-list entries searched (1 ns each: about a day).
constexpr double kMaxSearches = 0x1p46;
// Bytes a stored schedule takes per operation (schedule.hpp: the arrays and the dependencies).
constexpr double kStoredBytesPerOperation = 32.0;

// The parameters of `algorithm` from the [collective] keys it takes.
AlgorithmParams read_algorithm_params(const AlgorithmKind& algorithm, ParamReader& reader) {
  AlgorithmParams p;
  if (reader.has(kRanks.name) == reader.has(kLog2Ranks.name))
    throw InputError("give exactly one of collective.N and collective.log2_N");
  if (reader.has(kLog2Ranks.name)) {
    p.ranks = std::uint32_t{1} << reader.integer(kLog2Ranks);
    reader.forget(kLog2Ranks.name);
    reader.derive(kRanks.name, static_cast<std::int64_t>(p.ranks), true);
  } else {
    p.ranks = static_cast<std::uint32_t>(reader.integer(kRanks));
  }
  p.message_bytes = static_cast<std::uint64_t>(reader.integer(kBytes));
  if (algorithm.uses_k) p.k = static_cast<std::uint32_t>(reader.integer(kRadix));
  if (algorithm.uses_segments) p.segments = static_cast<std::uint32_t>(reader.integer(kSegments));
  if (algorithm.uses_compute) p.compute = reader.boolean(kCompute);
  if (algorithm.uses_receive_order)
    p.receives =
        reader.text(kReceives) == "preposted" ? ReceiveOrder::kPreposted : ReceiveOrder::kInOrder;
  return p;
}

// The check that time-based noise `law` resolves its detours over a sample of `source` entered
// as `entry`, given the noiseless run's length (seconds). A benchmark loop runs its W + I
// iterations one after the other, each its pause, its barrier (counted as one more collective)
// and its collective.
std::function<void(double)> horizon_check(const TimeNoiseLaw& law, const EntrySpec& entry,
                                          const ScheduleSource& source) {
  const bool loop = entry.loop();
  const double iterations = loop ? static_cast<double>(entry.warmups + entry.iterations) : 1.0;
  const double pause = loop ? std::max(entry.pause, 4.0 * entry.pause_mean_ns * 1e-9) : 0.0;
  const double each = loop && entry.barrier_each_iteration() ? 2.0 : 1.0;
  const double rounds = source.operations / std::max(source.ranks, 1U) * iterations * each;
  return [law, rounds, iterations, pause, each](double noiseless) {
    check_time_noise_horizon(law, iterations * (each * noiseless + pause), rounds);
  };
}

// What this build simulates of an entry with the rest of the point.
// Sensitivities step the point's LogGOPS in samples that start together, outside a loop, and
// whose delays lie on top of it (docs/models/schedules.md, "Sensitivities").
void check_sensitivity(const SensitivitySpec& spec, const EntrySpec& entry,
                       const ScheduleNoiseSpec& noise, bool critical_path, const ScheduleNet& net) {
  const std::string keys = "sensitivity.parameters";
  if (spec.from_path() && !critical_path)
    throw InputError(
        "sensitivity.method = \"path\" or \"both\" without output.critical_path = true: the "
        "counts are summed by the critical-path recorder of the attributed run");
  // A shared network's time on the path depends on G and on the other messages, which no
  // count of the path's parameters says (docs/models/critical-path.md).
  if (spec.from_path() && net.contention)
    throw InputError(
        "sensitivity.method = \"path\" or \"both\" with network.contention: the path's network "
        "time is no parameter's count; use sensitivity.method = \"differences\"");
  if (entry.loop())
    throw InputError(keys + " with a benchmark loop (loop.*): not simulated in this version");
  if (entry.entry != RankEntry::kTogether)
    throw InputError(fmt::format(
        "{} with entry.mode = \"{}\": sensitivities are taken for ranks entering together in "
        "this version",
        keys, entry.entry_text));
  if (noise.delays && noise.delays->depend_on_net())
    throw InputError(keys +
                     " with latency.use = \"whole\" or \"wire\" or latency.draw = \"loggp\": "
                     "the drawn latencies set the wire, not L; use latency.use = \"excess\"");
}

void check_entry(const EntrySpec& entry, bool critical_path) {
  // A critical path follows ranks that start together (engine/schedules/paths/).
  if (critical_path && entry.loop())
    throw InputError(
        "output.critical_path = true with a benchmark loop (loop.*): critical paths are recorded "
        "only for single runs in this version");
  if (critical_path && entry.entry != RankEntry::kTogether)
    throw InputError(fmt::format(
        "output.critical_path = true with entry.mode = \"{}\": critical paths are recorded only "
        "for ranks entering together in this version",
        entry.entry == RankEntry::kLaw ? "law" : "barrier"));
}

// The background job beside the collective, if any, in what the point's cost estimates count.
void add_background_job(ScheduleSource& source, std::shared_ptr<const BackgroundJob> job,
                        const ScheduleNet& net) {
  if (!job) return;
  check_room_for_job(*net.contention, source.ranks, job->schedule.ranks());
  const auto ops = static_cast<double>(job->schedule.operations());
  source.operations += ops;
  // The collective is then stored again beside the job, whatever its kind.
  source.stored_bytes += kStoredBytesPerOperation * source.operations;
  source.ready_at_start += static_cast<double>(job->schedule.ready_at_start());
  source.job = std::move(job);
}

void prepare_schedule(PreparedPoint& point, ParamReader& reader, const RunContext& run) {
  reader.text(collective_kind_key());
  if (reader.has(kGoal.name) == reader.has(kAlgorithm.name))
    throw InputError("give exactly one of collective.goal and collective.algorithm");
  const auto cycles = static_cast<std::uint32_t>(reader.integer(kCycles));
  const double work = reader.number(kWork);
  const auto work_ns = static_cast<std::uint64_t>(std::llround(to_ns(work)));
  const bool repeated = cycles != 1 || work_ns != 0;
  const auto repeat = [=](Schedule one) {
    return repeated ? repeat_schedule(one, cycles, work_ns) : one;
  };
  // Stored, or as rank classes where its ranks share their programs (same runs, less memory).
  const auto compact = [](Schedule stored) {
    std::optional<GeneratedSchedule> classes = rank_classes(stored);
    return classes ? AnySchedule(std::move(*classes)) : AnySchedule(std::move(stored));
  };
  ScheduleSource source;
  std::uint64_t row_bytes = 1;  // the message size a LogGP file's rows are chosen for
  const bool goal = reader.has(kGoal.name);
  if (goal) {
    // Read now: a malformed file is refused when the run file is checked.
    const std::string path = reader.text(kGoal);
    source.built = std::make_shared<const AnySchedule>(
        repeated ? compact(repeat(read_goal_file(path))) : read_goal_schedule(path));
    source.ranks = ranks_of(*source.built);
    source.operations = static_cast<double>(operations_of(*source.built));
    source.stored_bytes = static_cast<double>(memory_bytes_of(*source.built));
    source.ready_at_start = static_cast<double>(ready_at_start_of(*source.built));
    source.description = fmt::format("GOAL file {}", path);
  } else {
    const AlgorithmKind& algorithm = *find_algorithm(reader.text(kAlgorithm));
    const AlgorithmParams p = read_algorithm_params(algorithm, reader);
    source.ranks = p.ranks;
    source.operations = algorithm.operations(p) * cycles + (work_ns > 0 ? p.ranks * cycles : 0);
    if (algorithm.searches) source.searches = algorithm.searches(p) * cycles;
    // The critical path's noise by round; repeated cycles, whose rounds recur, by operation index.
    if (cycles == 1) {
      AlgorithmRounds rounds = algorithm.rounds(p);
      source.rounds = rounds.count;
      source.round_of = std::move(rounds.of);
    }
    source.description =
        fmt::format("{} on {} ranks, {} bytes", algorithm.name, p.ranks, p.message_bytes);
    if (source.operations > kMaxOperations)
      throw InputError(fmt::format(
          "{}: about {:.3g} operations per sample, beyond the {:.3g} collnoise takes (a day per "
          "sample): use fewer ranks",
          source.description, source.operations, kMaxOperations));
    if (source.searches > kMaxSearches)
      throw InputError(fmt::format(
          "{}: its root searches its posted receives for each message, about {:.3g} entries per "
          "sample, beyond the {:.3g} collnoise takes (a day per sample): use fewer ranks",
          source.description, source.searches, kMaxSearches));
    // On the fly where the pattern allows (memory independent of N); else stored, built when
    // the point is first sampled.
    std::optional<GeneratedSchedule> fly;
    if (algorithm.generate_on_the_fly && !repeated) fly = algorithm.generate_on_the_fly(p);
    if (fly) {
      source.built = std::make_shared<const AnySchedule>(std::move(*fly));
      source.stored_bytes = static_cast<double>(memory_bytes_of(*source.built));
      source.ready_at_start = static_cast<double>(ready_at_start_of(*source.built));
    } else {
      // Before it is built: every receive at once if preposted (about half the operations), else
      // a few per rank (a root's receives, a rank's first send).
      source.ready_at_start = p.receives == ReceiveOrder::kPreposted
                                  ? source.operations / 2.0 + p.ranks
                                  : 2.0 * p.ranks;
      source.make = [&algorithm, p, repeat, compact] {
        return compact(repeat(algorithm.generate(p)));
      };
      source.stored_bytes = kStoredBytesPerOperation * source.operations;
      // Repeated: one cycle is built first, and each cycle's first operations wait for the
      // previous cycle's last ones ((N - 1)^2 dependencies a cycle at a linear scatter's root).
      if (repeated)
        source.stored_bytes +=
            kStoredBytesPerOperation * algorithm.operations(p) +
            4.0 * (work_ns > 0 ? cycles : cycles - 1.0) * cycle_joins_of(algorithm, p, work_ns > 0);
    }
    row_bytes = std::max<std::uint64_t>(p.message_bytes, 1);
  }
  ScheduleNetRead network = read_schedule_net(reader, row_bytes);
  read_pair_classes(reader, network.net);
  read_contention(reader, network.net);
  const ScheduleNet& net = network.net;
  add_background_job(source, read_background_job(reader, net), net);
  std::optional<TimeNoiseLaw> time_law;
  ScheduleNoiseSpec noise = read_schedule_noise(reader, source.ranks, time_law);
  noise.delays = read_message_delays(reader, net);
  if (noise.delays) noise.tail_index = std::min(noise.tail_index, noise.delays->tail_index());
  EntrySpec entry = read_entry(reader);
  const std::uint32_t source_ranks = source.ranks;
  check_entry(entry, run.critical_path);
  check_contention(net, noise, run.critical_path);
  if (source.job) check_background_job(entry);
  SensitivitySpec sensitivity = read_sensitivity(reader, net);
  if (sensitivity.any()) check_sensitivity(sensitivity, entry, noise, run.critical_path, net);
  point.kind = "schedule";
  // Time-based noise must resolve its detours over the whole run (checked once the noiseless
  // run is known).
  std::function<void(double)> check;
  if (time_law) check = horizon_check(*time_law, entry, source);
  auto study = std::make_unique<ScheduleStudy>(std::move(source), net, noise, std::move(check));
  study->record_loggp_fit(network.file_fit, network.fit);
  if (entry.entry == RankEntry::kBarrier || entry.barrier_each_iteration())
    study->set_barrier(entry_barrier(entry, source_ranks));
  study->set_entry(std::move(entry));
  if (run.critical_path) study->record_critical_paths();  // before the noiseless run: it records
  study->set_sensitivity(std::move(sensitivity));
  // A GOAL file's schedule is simulated now: one that cannot complete is refused at once.
  if (goal) study->noiseless();
  if (reader.has(kFinishSample.name)) {
    const auto index = static_cast<std::uint64_t>(reader.integer(kFinishSample));
    if (run.samples > 0 && index >= run.samples)
      throw InputError(
          fmt::format("collective.finish_sample = {} is invalid: the point has samples 0 to {}",
                      index, run.samples - 1));
    study->record_finish_of(index);
  }
  point.sampled = std::move(study);
}

}  // namespace

ModelKind schedule_model_kind() {
  std::vector<KeySpec> keys = {kGoal,    kAlgorithm,    kRanks,        kLog2Ranks,
                               kBytes,   kRadix,        kSegments,     kReceives,
                               kCompute, kCycles,       kWork,         kSemantics,
                               kCosched, kRanksPerNode, kFinishSample, kMeasurements};
  for (const auto& k : schedule_net_keys()) keys.push_back(k);
  for (const auto& k : pair_class_keys()) keys.push_back(k);
  for (const auto& k : contention_keys()) keys.push_back(k);
  for (const auto& k : message_delay_keys()) keys.push_back(k);
  for (const auto& k : entry_keys()) keys.push_back(k);
  for (const auto& k : sensitivity_keys()) keys.push_back(k);
  for (const auto& k : loggops_keys())
    if (k.name != "loggops.message_bytes") keys.push_back(k);
  return {
      .name = "schedule",
      .meaning = "any collective as a schedule: a GOAL file or a built-in algorithm under LogGOPS",
      .collectives = {"schedule"},
      .keys = keys,
      .records_critical_path = true,
      .ranks_field = &schedule_fields::kRanks,
      .ranks_key = &kRanks,
      .summary_fields = schedule_summary_fields(),
      .takes =
          [](const ParamReader& reader, const RunContext& run) {
            return run.run_kind == "sample" &&
                   reader.peek_text(collective_kind_key().name) == "schedule";
          },
      .prepare = prepare_schedule};
}

}  // namespace collnoise
