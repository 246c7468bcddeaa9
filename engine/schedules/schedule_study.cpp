#include "engine/schedules/schedule_study.hpp"

#include <fmt/format.h>
#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <optional>

#include "core/errors.hpp"
#include "core/memory_limit.hpp"
#include "core/rng.hpp"
#include "core/task_parallel.hpp"
#include "core/work_in_flight.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/network/topology_keys.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/pair_class_keys.hpp"
#include "engine/schedules/paths/path_composition.hpp"
#include "engine/schedules/paths/queue_stats.hpp"
#include "engine/schedules/schedule_fields.hpp"
#include "engine/schedules/simulate.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/proportion_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

constexpr std::size_t kTopCapacity = 2048;
// A match-list entry searched (about 0.5 ns measured on the linear gather at 2^16 and 2^18 ranks,
// bench/RESULTS.md).
constexpr double kSecondsPerSearch = 1.0e-9;
constexpr double kNanosecond = 1e-9;

// The parts of a sample's key its runs' per-operation draws come from (docs/models/streams.md):
// outside a loop the collective draws from the replication key itself and the entry barrier from
// its part kBarrierDraws; in a loop each iteration's collective, barrier and pauses draw from
// parts of the iteration's key.
enum DrawPart : std::uint64_t { kCollectiveDraws = 0, kBarrierDraws = 1, kPauseDraws = 2 };
std::uint64_t part_key(std::uint64_t key, DrawPart part) {
  return hash_combine(key, part);
}

// The net of the sample whose time-based noise comes from `time_key` (a replication's key, or
// a loop's: a benchmark loop is one job, its placement and background the same throughout): with
// contention that draws (network.placement = "random", network.rho), its own placement and
// background (docs/models/contention.md); else none, and `net` is used as it is.
std::optional<ScheduleNet> sample_net(const ScheduleNet& net, std::uint64_t time_key,
                                      std::uint32_t ranks) {
  if (!net.contention || !net.contention->draws()) return std::nullopt;
  ScheduleNet drawn = net;
  drawn.contention = net.contention->for_sample(
      hash_combine(time_key, static_cast<std::uint64_t>(StreamPurpose::kNetworkSample)), ranks);
  return drawn;
}

// The most operations any rank of `s` holds.
std::uint64_t most_operations_of(const AnySchedule& s) {
  return std::visit(
      [](const auto& x) {
        std::uint64_t most = 0;
        for (std::uint32_t h = 0; h < x.ranks(); ++h)
          most = std::max<std::uint64_t>(most, x.view(h).count());
        return most;
      },
      s);
}

}  // namespace

// Each thread's engine memory, reused by the replications it simulates.
struct ScheduleStudy::EngineMemories {
  oneapi::tbb::enumerable_thread_specific<ScheduleEngineMemory> per_thread;
  ScheduleEngineMemory& local() { return per_thread.local(); }
};

ScheduleStudy::ScheduleStudy(ScheduleSource source, ScheduleNet net, ScheduleNoiseSpec noise,
                             std::function<void(double)> check)
    : source_(std::move(source)),
      net_(net),
      noise_(std::move(noise)),
      check_(std::move(check)),
      engine_memory_(std::make_unique<EngineMemories>()),
      tracks_tails_(noise_.has_fitted_tails()) {}

ScheduleStudy::~ScheduleStudy() = default;

std::shared_ptr<const AnySchedule> ScheduleStudy::schedule() const {
  const std::lock_guard lock(build_mutex_);
  if (!schedule_) {
    schedule_ = source_.built ? source_.built : std::make_shared<const AnySchedule>(source_.make());
    built_ranks_ = ranks_of(*schedule_);
    built_operations_ = operations_of(*schedule_);
    if (source_.job)
      schedule_ = std::make_shared<const AnySchedule>(
          with_background_job(*schedule_, source_.job->schedule));
  }
  return schedule_;
}

void ScheduleStudy::release_working_memory() const {
  const std::lock_guard lock(build_mutex_);
  if (!source_.built || source_.job) schedule_.reset();
  engine_memory_->per_thread.clear();  // (called between points: no replication runs)
}

const ScheduleRun& ScheduleStudy::noiseless() const {
  std::call_once(noiseless_once_, [&] {
    const std::shared_ptr<const AnySchedule> s = schedule();
    // Validating a GOAL file runs it too, before the run's estimate: its memory is checked here.
    check_memory_limit(
        static_cast<double>(memory_bytes_of(*s)) +
            estimated_engine_bytes(ranks_of(*s), static_cast<double>(operations_of(*s)),
                                   static_cast<double>(ready_at_start_of(*s))),
        fmt::format("simulating {} once without noise", source_.description));
    most_operations_ = most_operations_of(*s);
    // On this thread's engine memory, which its samples use next: a memory of its own, freed
    // before they start, stayed with the allocator and added its size to the run's peak.
    ScheduleRun run = attributed_
                          ? run_noiseless_path(*s)
                          : run_schedule(*s, net_, ScheduleNoiseSpec{}, 0, engine_memory_->local());
    noiseless_searches_ = static_cast<double>(run.searched);
    if (!run.complete)
      throw InputError(
          fmt::format("{}: the schedule cannot complete: {}", source_.description, run.incomplete));
    const double last = *std::max_element(run.finish.begin(), run.finish.end());
    if (!std::isfinite(last))
      throw InputError(fmt::format(
          "{}: the noiseless run takes {} ns, no time: simulated with L {} ns, o {} ns, g {} ns, "
          "G {} ns per byte, O {} ns per byte",
          source_.description, last, net_.L, net_.o, net_.g, net_.G, net_.O));
    if (check_) check_(last * kNanosecond);
    noiseless_ = std::move(run);
  });
  return noiseless_;
}

namespace {

// Log bins from `low` to `high` seconds.
TallyLayout completion_layout(std::size_t histogram_bins, double low, double high) {
  TallyLayout layout;
  layout.metrics = {"completion_time"};
  layout.top_capacity = {kTopCapacity};
  const double lo = std::max(low, 1e-12);
  layout.histograms.push_back({"completion_time", 0,
                               Histogram(std::nextafter(lo, 0.0), std::max(high, 2.0 * lo),
                                         histogram_bins, BinSpacing::kLog)});
  return layout;
}

// Appends a metric in `unit` that keeps no top values (the metrics before it, if their units
// were left implicit, in seconds).
void add_metric(TallyLayout& layout, const std::string& name, const std::string& unit) {
  layout.metric_units.resize(layout.metrics.size(), "seconds");
  layout.metrics.push_back(name);
  layout.metric_units.push_back(unit);
  layout.top_capacity.resize(layout.metrics.size(), 0);
}

}  // namespace

TallyLayout ScheduleStudy::layout(std::size_t histogram_bins, const std::string&) const {
  // From the noiseless completion to 100 times it; with drawn entries a rank's own time may be
  // below it (it found its messages waiting): from a tenth of it, and still to 100 times it (a
  // benchmark loop's slowest iterations, with detours drawn from a fitted tail, reach past 10).
  const double noiseless = noiseless_completion();
  const double lo = entry_.single_run_from_zero() ? noiseless : 0.1 * noiseless;
  TallyLayout layout = completion_layout(histogram_bins, lo, 100.0 * noiseless);
  if (attributed_) attribution().add_to(layout);
  add_sensitivity_metrics(layout);
  add_tail_metric(layout);
  return layout;
}

void ScheduleStudy::add_sensitivity_metrics(TallyLayout& layout) const {
  // In the rows' order (metrics_per_parameter).
  const auto unit_of = [](const MeanFields& m) {
    return m.mean().unit.empty() ? std::string("1") : m.mean().unit;
  };
  if (sensitivity_.differences())
    for (const LogGPParameter p : sensitivity_.parameters) {
      const schedule_fields::SensitivityFields& f = schedule_fields::sensitivity_fields(p);
      add_metric(layout, f.metric, unit_of(f.derivative));
      add_metric(layout, f.changed_metric, "1");
    }
  if (sensitivity_.from_path())
    for (const LogGPParameter p : sensitivity_.parameters) {
      const schedule_fields::SensitivityFields& f = schedule_fields::sensitivity_fields(p);
      add_metric(layout, f.path_metric, unit_of(f.path));
    }
  if (sensitivity_.method == SensitivityMethod::kBoth)
    for (const LogGPParameter p : sensitivity_.parameters)
      add_metric(layout, schedule_fields::sensitivity_fields(p).disagrees_metric, "1");
}

void ScheduleStudy::set_sensitivity(SensitivitySpec spec) {
  sensitivity_ = std::move(spec);
  steps_.clear();
  if (!sensitivity_.differences()) return;
  for (const LogGPParameter p : sensitivity_.parameters)
    steps_.emplace_back(scaled(net_, p, 1.0 + sensitivity_.step),
                        scaled(net_, p, 1.0 - sensitivity_.step));
}

std::size_t ScheduleStudy::first_sensitivity_metric() const {
  return 1 + (attributed_ ? attribution().metrics() : 0);
}

void ScheduleStudy::fill_sensitivities(std::uint64_t index, double base,
                                       std::span<double> out) const {
  out = out.first(difference_runs());  // the derivative and whether the path changed
  if (out.empty()) return;
  if (noisy()) {
    sensitivities_of(index, base, out);
    return;
  }
  // Without noise every sample is the noiseless run: its differences once.
  std::call_once(noiseless_sensitivity_once_, [&] {
    noiseless_sensitivity_.assign(out.size(), 0.0);
    sensitivities_of(0, base, noiseless_sensitivity_);
  });
  std::copy(noiseless_sensitivity_.begin(), noiseless_sensitivity_.end(), out.begin());
}

void ScheduleStudy::sensitivities_of(std::uint64_t index, double base,
                                     std::span<double> out) const {
  const std::shared_ptr<const AnySchedule> s = schedule();
  const std::uint64_t key = stream_key(key_, StreamPurpose::kReplication, index);
  ScheduleEngineMemory& memory = engine_memory_->local();
  const auto completion = [&](const ScheduleNet& net) {
    const auto drawn = sample_net(net, key, ranks_of(*s));
    const ScheduleRun run = run_schedule(*s, drawn ? *drawn : net, noise_, key, memory);
    if (!run.complete)
      throw RuntimeFailure(fmt::format("{}: a sensitivity's step did not complete: {}",
                                       source_.description, run.incomplete));
    return sample_time(run, {});
  };
  const double h = sensitivity_.step;
  for (std::size_t i = 0; i < sensitivity_.parameters.size(); ++i) {
    // The parameter in seconds (per byte for G and O), as the derivative's unit takes it.
    const double x = parameter_of(net_, sensitivity_.parameters[i]) * kNanosecond;
    const double up = completion(steps_[i].first), down = completion(steps_[i].second);
    const double plus = (up - base) / (h * x), minus = (base - down) / (h * x);
    out[2 * i] = (up - down) / (2.0 * h * x);
    // While the path holds, the completion is linear in the parameter and the one-sided
    // differences agree to rounding (a path's count is a whole number of messages or bytes).
    out[2 * i + 1] =
        std::abs(plus - minus) > 1e-6 * (1.0 + std::abs(plus) + std::abs(minus)) ? 1.0 : 0.0;
  }
}

void ScheduleStudy::fill_path_sensitivities(const CriticalPath& path, std::span<double> out) const {
  if (!sensitivity_.from_path()) return;
  const std::size_t n = sensitivity_.parameters.size();
  const std::size_t counts = sensitivity_.differences() ? 2 * n : 0;
  for (std::size_t i = 0; i < n; ++i) {
    const LogGPParameter p = sensitivity_.parameters[i];
    // ns of the parameter over the parameter's ns (per byte): messages or bytes, the unit the
    // differences give.
    const double count = path.parameter_ns.value()[index_of(p)] / parameter_of(net_, p);
    out[counts + i] = count;
    if (sensitivity_.method != SensitivityMethod::kBoth) continue;
    const double difference = out[2 * i];
    const bool held = out[2 * i + 1] == 0.0;
    out[3 * n + i] = held && std::abs(difference - count) >
                                 schedule_fields::kPathCountTolerance * (1.0 + std::abs(count))
                         ? 1.0
                         : 0.0;
  }
}

void ScheduleStudy::put_sensitivities(Record& s, const Tally& tally, double level,
                                      std::vector<std::string>& warnings) const {
  using namespace schedule_fields;
  if (sensitivity_.from_path()) put_path_sensitivities(s, tally, level, warnings);
  if (!sensitivity_.differences()) return;
  s.put(kSensitivityStep, Field(sensitivity_.step));
  for (const LogGPParameter p : sensitivity_.parameters) {
    const SensitivityFields& f = sensitivity_fields(p);
    const Accumulator derivative = tally.total(f.metric);
    put_mean(s, f.derivative, derivative, student_t_interval(derivative, level));
    const Accumulator changed = tally.total(f.changed_metric);
    if (changed.count == 0) continue;
    const ProportionInterval share = proportion_of_flags(changed, level);
    put_proportion(s, f.changed, share);
    if (share.share > kPathChangedWarning)
      warnings.push_back(fmt::format(
          "the critical path changed within the step of {} in {:.0f}% of the samples: there {} "
          "is a difference quotient, not the path's count (a smaller sensitivity.step, or more "
          "samples, tell them apart)",
          loggp_parameter_name(p), 100.0 * share.share, f.derivative.mean().name));
  }
}

void ScheduleStudy::put_path_sensitivities(Record& s, const Tally& tally, double level,
                                           std::vector<std::string>& warnings) const {
  using namespace schedule_fields;
  for (const LogGPParameter p : sensitivity_.parameters) {
    const SensitivityFields& f = sensitivity_fields(p);
    const Accumulator count = tally.total(f.path_metric);
    put_mean(s, f.path, count, student_t_interval(count, level));
    if (sensitivity_.method != SensitivityMethod::kBoth) continue;
    const Accumulator disagrees = tally.total(f.disagrees_metric);
    if (disagrees.count == 0) continue;
    const ProportionInterval share = proportion_of_flags(disagrees, level);
    put_proportion(s, f.disagrees, share);
    // Without noise they are one number: else the recorder and the engine differ.
    if (share.share > 0.0 && !noisy())
      warnings.push_back(
          fmt::format("without noise, the difference and the path's count of {} disagree: the "
                      "critical-path recorder and the engine differ (a fault to report)",
                      loggp_parameter_name(p)));
  }
}

void ScheduleStudy::add_tail_metric(TallyLayout& layout) const {
  if (tracks_tails_) add_metric(layout, schedule_fields::kSlowestTailMetric, "1");
}

std::size_t ScheduleStudy::row_width() const {
  return first_sensitivity_metric() + sensitivity_metrics() + (tracks_tails_ ? 1 : 0);
}

TallyLayout ScheduleStudy::shape(std::size_t histogram_bins, const std::string&) const {
  TallyLayout layout = completion_layout(histogram_bins, 1.0, 100.0);
  // At most kPathBuckets steps (the ranks' operations are not known before the schedule is).
  if (attributed_)
    PathAttribution(source_.ranks, PathSteps{kPathBuckets, {}}, on_network()).add_to(layout);
  add_sensitivity_metrics(layout);
  add_tail_metric(layout);
  return layout;
}

PathAttribution ScheduleStudy::attribution() const {
  noiseless();  // knows the most operations of a rank
  return PathAttribution(built_ranks_, path_steps(), on_network());
}

bool ScheduleStudy::noisy() const {
  // A drawn placement or background makes samples differ as noise does.
  return noise_.noisy() || (net_.contention && net_.contention->draws());
}

PathSteps ScheduleStudy::path_steps() const {
  if (source_.round_of) return {source_.rounds, source_.round_of};
  return {most_operations_, {}};
}

ScheduleRun ScheduleStudy::run_noiseless_path(const AnySchedule& s) const {
  // With critical paths, the one noiseless run records its path too. It has no noise to spread
  // over steps: one bucket keeps its compositions small (every rank sends at once there, the
  // most compositions held at a time of the run's samples).
  ScheduleEngineMemory memory;
  auto [run, path] = record_path({}, 1, [&](PathCompositionRecorder& recorder) {
    return run_schedule(s, net_, ScheduleNoiseSpec{}, 0, memory, recorder);
  });
  noiseless_path_ = std::move(path);
  noiseless_path_recorded_ = true;
  return run;
}

ParameterTimesLayout ScheduleStudy::times_layout() const {
  if (!sensitivity_.from_path()) return ParameterTimesLayout::kNone;
  return full_times_ ? ParameterTimesLayout::kFull : ParameterTimesLayout::kCompact;
}

template <class Run>
std::pair<ScheduleRun, CriticalPath> ScheduleStudy::record_path(const StepBucket& bucket,
                                                                std::size_t buckets,
                                                                Run&& run) const {
  // Parameter times in the compact layout until a run shows a computation or a rendezvous (the
  // noiseless one, which comes first: the samples have the same operations and sizes), then in
  // the full one, that run again.
  for (;;) {
    PathCompositionRecorder recorder(bucket, buckets, times_layout(), on_network());
    ScheduleRun done = run(recorder);
    if (!recorder.needs_full()) {
      CriticalPath path = recorder.result(done.finish);
      return {std::move(done), std::move(path)};
    }
    full_times_ = true;
  }
}

const CriticalPath& ScheduleStudy::noiseless_path() const {
  noiseless();
  // Asked for paths after the noiseless run: its path in a run of its own.
  if (!noiseless_path_recorded_)
    std::call_once(noiseless_path_once_, [&] { run_noiseless_path(*schedule()); });
  return noiseless_path_;
}

std::pair<ScheduleRun, CriticalPath> ScheduleStudy::replay(std::uint64_t index,
                                                           TimelineRecorder& timeline,
                                                           QueueStatsRecorder* queues,
                                                           LinkLoadListener* links) const {
  // The paths and timelines follow ranks that start together.
  if (entry_.loop())
    throw InputError("a timeline of a point with a benchmark loop: not replayed in this version");
  if (entry_.entry != RankEntry::kTogether)
    throw InputError(
        fmt::format("a timeline of a point with rank_entry {}: replayed only for "
                    "ranks entering together in this version",
                    entry_.entry_text));
  const PathAttribution a = attribution();
  CriticalPathRecorder recorder(a.step_bucket(), true);
  BothObservers<CriticalPathRecorder, TimelineRecorder> both{recorder, timeline};
  ScheduleEngineMemory memory;
  const std::uint64_t replication = stream_key(key_, StreamPurpose::kReplication, index);
  const NoiseKeys key = replication;
  // The sample's own placement and background, as its run had.
  const auto drawn = sample_net(net_, replication, ranks_of(*schedule()));
  ScheduleNet net = drawn ? *drawn : net_;
  if (links != nullptr) {
    if (!net.contention)
      throw InputError(
          "the point has no network.contention: its messages share no links whose load to "
          "record (docs/models/contention.md)");
    auto told = std::make_shared<ContentionSpec>(*net.contention);
    told->listener = links;
    net.contention = std::move(told);
  }
  // The queues in the same run, not a second one: their samples are this replay's.
  ScheduleRun run = [&] {
    if (queues == nullptr) return run_schedule(*schedule(), net, noise_, key, memory, both);
    QueueReplayObservers all{both, *queues};
    return run_schedule(*schedule(), net, noise_, key, memory, all);
  }();
  CriticalPath path = recorder.result(run.finish);
  return {std::move(run), std::move(path)};
}

double ScheduleStudy::noiseless_completion() const {
  const ScheduleRun& run = noiseless();
  return *std::max_element(run.finish.begin(), run.finish.end()) * kNanosecond;
}

double ScheduleStudy::replicate(std::uint64_t index) const {
  UnitInFlight unit;
  return replicate(index, unit);
}

double ScheduleStudy::replicate(std::uint64_t index, UnitInFlight& unit) const {
  return sample_value(index, unit).seconds;
}

ScheduleStudy::SampleValue ScheduleStudy::sample_value(std::uint64_t index,
                                                       UnitInFlight& unit) const {
  if (entry_.loop()) {
    // Its loop, through its iteration (a loop's iterations differ even without noise: their
    // ranks start apart).
    SampleValue value;
    const std::uint64_t loop = index / entry_.iterations;
    run_loop(loop, index % entry_.iterations,
             [&](std::uint64_t j, const ScheduleRun& run, std::span<const double> starts) {
               if (j == index % entry_.iterations)
                 value = sample_value(run, starts, stream_key(key_, StreamPurpose::kLoop, loop));
             });
    return value;
  }
  // Without noise or drawn entries every replication is the noiseless run: no need to simulate
  // it again.
  if (!noisy() && entry_.entry == RankEntry::kTogether) return {noiseless_completion(), false};
  NoObserver none;
  const std::vector<double> starts = entry_starts(index);
  const ScheduleRun run = run_replication(index, unit, none, starts);
  return sample_value(run, starts, stream_key(key_, StreamPurpose::kReplication, index));
}

bool ScheduleStudy::slowest_drew_from_tail(const ScheduleRun& run, std::span<const double> starts,
                                           std::uint64_t time_key) const {
  if (!tracks_tails_ || run.finish.empty()) return false;
  // The rank sample_time takes (the first of tied ones), and the interval it was timed over.
  const bool own = !starts.empty() && entry_.timing == SampleTiming::kPerRank;
  std::size_t slowest = 0;
  for (std::size_t r = 1; r < run.finish.size(); ++r)
    if (run.finish[r] - (own ? starts[r] : 0.0) >
        run.finish[slowest] - (own ? starts[slowest] : 0.0))
      slowest = r;
  if (!run.received_from_tail.empty() && run.received_from_tail[slowest] != 0) return true;
  const auto* poisson = std::get_if<PoissonCpuNoise>(&noise_.cpu);
  if (!poisson) return false;
  const double from = starts.empty() ? 0.0
                      : own          ? starts[slowest]
                                     : *std::min_element(starts.begin(), starts.end());
  const auto ranks = static_cast<std::uint32_t>(run.finish.size());
  return PoissonScheduleNoise(*poisson->detours, time_key, ranks, poisson->ranks_per_offset)
      .drew_from_fitted_tail(static_cast<std::uint32_t>(slowest), from, run.finish[slowest]);
}

std::vector<double> ScheduleStudy::entry_starts(std::uint64_t index) const {
  if (entry_.entry == RankEntry::kBarrier) {
    // Under the replication's own noise, from 0: the collective that follows sees the same
    // time-based noise at later times (its starts shift its ranks' clocks).
    // Its per-operation draws (stage delays, message delays) its own: the collective's sends of
    // the same index draw others.
    const std::uint64_t key = stream_key(key_, StreamPurpose::kReplication, index);
    const auto drawn = sample_net(net_, key, ranks_of(*barrier_));
    ScheduleRun run =
        run_schedule(*barrier_, drawn ? *drawn : net_, noise_,
                     NoiseKeys(key, part_key(key, kBarrierDraws)), engine_memory_->local());
    if (!run.complete)
      throw RuntimeFailure(fmt::format("{}: the entry barrier did not complete: {}",
                                       source_.description, run.incomplete));
    return std::move(run.finish);
  }
  if (entry_.entry != RankEntry::kLaw) return {};
  // One stream per (replication, rank), as the noise offsets: a rank's offset does not depend
  // on the order ranks are visited in.
  const std::uint64_t key = stream_key(key_, StreamPurpose::kEntryOffset, index);
  // The collective's ranks (a background job's start at 0).
  std::vector<double> starts(timed_ranks_of(*schedule()));
  for (std::size_t r = 0; r < starts.size(); ++r)
    starts[r] = entry_.mean_ns * entry_.law->isf(make_stream(hash_combine(key, r)).next_uniform());
  return starts;
}

double ScheduleStudy::sample_time(const ScheduleRun& run, std::span<const double> starts) const {
  if (starts.empty()) return *std::max_element(run.finish.begin(), run.finish.end()) * kNanosecond;
  if (entry_.timing == SampleTiming::kPerRank) {
    double most = 0.0;
    for (std::size_t r = 0; r < starts.size(); ++r)
      most = std::max(most, run.finish[r] - starts[r]);
    return most * kNanosecond;
  }
  return (*std::max_element(run.finish.begin(), run.finish.end()) -
          *std::min_element(starts.begin(), starts.end())) *
         kNanosecond;
}

template <class Observer>
ScheduleRun ScheduleStudy::run_replication(std::uint64_t index, UnitInFlight& unit,
                                           Observer& observer,
                                           std::span<const double> starts) const {
  ScheduleEngineMemory& memory = engine_memory_->local();
  // A long sample (minutes at millions of ranks) tells progress how far it is: its events
  // against the noiseless run's.
  const double expected = std::max(1.0, static_cast<double>(noiseless().events));
  memory.on_progress(
      [&](std::uint64_t events) { unit.at(static_cast<double>(events) / expected); });
  const struct Unhook {
    ScheduleEngineMemory& memory;
    ~Unhook() { memory.on_progress({}); }
  } unhook{memory};
  const std::uint64_t key = stream_key(key_, StreamPurpose::kReplication, index);
  const auto drawn = sample_net(net_, key, ranks_of(*schedule()));
  ScheduleRun run =
      run_schedule(*schedule(), drawn ? *drawn : net_, noise_, key, memory, observer, starts);
  if (!run.complete)
    throw RuntimeFailure(
        fmt::format("{}: a replication did not complete: {}", source_.description, run.incomplete));
  return run;
}

void ScheduleStudy::sample_row(std::uint64_t index, UnitInFlight& unit, std::span<double> row,
                               CriticalPath& last) const {
  if (!attributed_) {
    const SampleValue value = sample_value(index, unit);
    row[0] = value.seconds;
    if (sensitivity_.any())
      fill_sensitivities(index, value.seconds,
                         row.subspan(first_sensitivity_metric(), sensitivity_metrics()));
    if (tracks_tails_) row.back() = value.from_tail ? 1.0 : 0.0;
    return;
  }
  const PathAttribution a = attribution();
  bool from_tail = false;
  if (!noisy()) {
    last = noiseless_path();
  } else {
    auto [run, path] = record_path(
        a.step_bucket(), a.buckets(),
        [&](PathCompositionRecorder& recorder) { return run_replication(index, unit, recorder); });
    last = std::move(path);
    from_tail =
        slowest_drew_from_tail(run, {}, stream_key(key_, StreamPurpose::kReplication, index));
  }
  row[0] = last.completion * kNanosecond;
  a.fill(last, row);
  if (sensitivity_.any()) {
    const std::span<double> out = row.subspan(first_sensitivity_metric(), sensitivity_metrics());
    fill_sensitivities(index, row[0], out);
    fill_path_sensitivities(last, out);
  }
  if (tracks_tails_) row.back() = from_tail ? 1.0 : 0.0;
}

std::uint64_t ScheduleStudy::default_chunk_size() const {
  if (!entry_.loop()) return 4;
  constexpr std::uint64_t kMostSamples = std::uint64_t{1} << 22;
  const std::uint64_t loops = std::clamp<std::uint64_t>(kMostSamples / entry_.iterations, 1, 4);
  return loops * entry_.iterations;
}

std::vector<double> ScheduleStudy::pauses(std::uint64_t loop_key, std::uint64_t i,
                                          std::uint32_t ranks) const {
  if (!entry_.pause_law) return std::vector<double>(ranks, entry_.pause * 1e9);
  // One stream per (loop, iteration, rank): part 2 of the iteration's key (0: the collective's
  // draws, 1: the barrier's).
  const std::uint64_t key = part_key(hash_combine(loop_key, i), kPauseDraws);
  std::vector<double> pause(ranks);
  for (std::uint32_t r = 0; r < ranks; ++r)
    pause[r] = entry_.pause_mean_ns *
               entry_.pause_law->isf(make_stream(hash_combine(key, r)).next_uniform());
  return pause;
}

void ScheduleStudy::run_loop(std::uint64_t loop, std::uint64_t through,
                             const LoopRecord& record) const {
  const std::shared_ptr<const AnySchedule> s = schedule();
  const std::uint32_t ranks = ranks_of(*s);
  ScheduleEngineMemory& memory = engine_memory_->local();
  const std::uint64_t loop_key = stream_key(key_, StreamPurpose::kLoop, loop);
  const bool barrier = entry_.barrier_each_iteration();
  std::vector<double> ready(ranks, 0.0);  // each rank's finish of the previous iteration
  const auto drawn = sample_net(net_, loop_key, ranks);
  const ScheduleNet& net = drawn ? *drawn : net_;
  for (std::uint64_t i = 0; i <= entry_.warmups + through; ++i) {
    const std::uint64_t iteration_key = hash_combine(loop_key, i);
    std::vector<double> start = pauses(loop_key, i, ranks);
    for (std::uint32_t r = 0; r < ranks; ++r) start[r] += ready[r];
    // One run of the loop's barrier or collective from `start`, complete.
    const auto run_part = [&](const AnySchedule& part, DrawPart draws, const char* what) {
      ScheduleRun r =
          run_schedule(part, net, noise_, NoiseKeys(loop_key, part_key(iteration_key, draws)),
                       memory, NoObserver{}, start);
      if (!r.complete)
        throw RuntimeFailure(fmt::format("{}: a loop's {} did not complete: {}",
                                         source_.description, what, r.incomplete));
      return r;
    };
    if (barrier) start = run_part(*barrier_, kBarrierDraws, "barrier").finish;
    ScheduleRun run = run_part(*s, kCollectiveDraws, "iteration");
    if (i >= entry_.warmups) record(i - entry_.warmups, run, start);
    ready = std::move(run.finish);
  }
}

void ScheduleStudy::simulate_loops(std::uint64_t first, std::span<double> rows, int threads) const {
  // Whole loops side by side, each on one thread: a sample's value depends on its loop and
  // iteration only. A chunk that cuts a loop (a chunk_size not a multiple of loop.iterations)
  // simulates its first iterations again.
  const std::size_t width = row_width();
  const std::uint64_t n = entry_.iterations, end = first + rows.size() / width;
  const std::uint64_t first_loop = first / n, last_loop = (end - 1) / n;
  std::atomic<std::int64_t> finished{0};
  const struct Counted {
    std::atomic<std::int64_t>& finished;
    ~Counted() { work_in_flight().add(-static_cast<double>(finished.load())); }
  } counted{finished};
  parallel_tasks(
      static_cast<std::int64_t>(last_loop - first_loop + 1), threads, [&](std::int64_t k) {
        const std::uint64_t loop = first_loop + static_cast<std::uint64_t>(k);
        const std::uint64_t base = loop * n;
        const std::uint64_t from = std::max(first, base) - base;
        const std::uint64_t through = std::min(end, base + n) - 1 - base;
        const std::uint64_t loop_key = stream_key(key_, StreamPurpose::kLoop, loop);
        run_loop(loop, through,
                 [&](std::uint64_t j, const ScheduleRun& run, std::span<const double> starts) {
                   if (j < from) return;
                   const SampleValue value = sample_value(run, starts, loop_key);
                   std::span<double> row = rows.subspan((base + j - first) * width, width);
                   row[0] = value.seconds;
                   if (tracks_tails_) row.back() = value.from_tail ? 1.0 : 0.0;
                   UnitInFlight unit;
                   unit.finish();
                   ++finished;
                 });
      });
}

void ScheduleStudy::simulate(std::uint64_t first, std::span<double> rows,
                             std::span<Histogram* const> extra, int threads) const {
  if (entry_.loop()) {
    simulate_loops(first, rows, threads);
    return;
  }
  // Replications side by side, each on one thread: the value of each depends on its index only.
  // Their cost varies with the noise they meet: idle threads steal the rest (oneTBB).
  // Finished replications stay in flight for progress until the chunk is counted, here.
  std::atomic<std::int64_t> finished{0};
  const struct Counted {
    std::atomic<std::int64_t>& finished;
    ~Counted() { work_in_flight().add(-static_cast<double>(finished.load())); }
  } counted{finished};
  const std::size_t width = row_width();
  const std::size_t samples = rows.size() / width;
  std::vector<CriticalPath> paths(attributed_ ? samples : 0);
  parallel_tasks(static_cast<std::int64_t>(samples), threads, [&](std::int64_t k) {
    UnitInFlight unit;
    const auto i = static_cast<std::size_t>(k);
    CriticalPath ignored;
    sample_row(first + i, unit, rows.subspan(i * width, width), attributed_ ? paths[i] : ignored);
    unit.finish();
    ++finished;
  });
  // The ranks that finished last, counted in sample order (the counts are sums: any order would
  // do, but one thread counts them).
  if (attributed_)
    for (const CriticalPath& path : paths) PathAttribution::count_last(path, *extra.back());
}

void ScheduleStudy::put_background_job(Record& s, std::vector<std::string>& warnings) const {
  using namespace schedule_fields;
  const double job_end = noiseless().untimed_finish * kNanosecond;
  s.put(kBackgroundJob, Field(source_.job->description));
  s.put(kBackgroundJobRanks, Field(static_cast<std::uint64_t>(source_.job->schedule.ranks())));
  s.put(kNoiselessJobFinish, Field(job_end));
  // A job that ends first leaves the collective's last part on a quiet network: say so.
  if (job_end < noiseless_completion())
    warnings.push_back(fmt::format(
        "the background job ({}) ends at {:.6g} s in the noiseless run, before the collective's "
        "{:.6g} s: the collective's end runs without it (make the job longer)",
        source_.job->description, job_end, noiseless_completion()));
}

void ScheduleStudy::put_loggp_fit(Record& s) const {
  using namespace schedule_fields;
  if (loggp_fit_.empty()) return;
  s.put(kLogGPFit, Field(loggp_fit_));
  if (!loggp_regimes_) return;
  const std::string none = "no protocol switch found";
  s.put(kLogGPEagerBytes,
        loggp_regimes_->eager_bytes ? Field(*loggp_regimes_->eager_bytes) : Field(Null{none}));
  const auto put_regime = [&](const RegimeFields& f, const std::optional<LogGPRegime>& r) {
    const auto value = [&](double LogGPRegime::*member) {
      return r ? Field((*r).*member) : Field(Null{none});
    };
    s.put(f.L, value(&LogGPRegime::L));
    s.put(f.o, value(&LogGPRegime::o));
    s.put(f.O, value(&LogGPRegime::O));
    s.put(f.g, value(&LogGPRegime::g));
    s.put(f.G, value(&LogGPRegime::G));
  };
  put_regime(kEagerRegime, loggp_regimes_->eager);
  put_regime(kRendezvousRegime, loggp_regimes_->rendezvous);
}

std::vector<FieldSpec> schedule_summary_fields() {
  using namespace schedule_fields;
  FieldList fields = {kSchedule, kRanks, kOperations, kEventsPerSample};
  append_fields(fields, kCompletion.specs());
  append_fields(fields, {kCompletionSd, kNoiselessCompletion});
  append_fields(fields, kCompletionQuantiles.specs());
  append_fields(fields, {kNoiselessFinish, kSampleFinishIndex, kSampleFinish});
  append_fields(fields,
                {kLatencyPoolBytes, kLatencyPoolSamples, kLatencyPools, kLatencyFlooredShare});
  append_fields(fields, {kPairClasses, kNearMessages, kFarMessages});
  append_fields(fields, written_under(topology_fields::all(), kTopologyGiven));
  append_fields(fields, {kContention, kPlacement, kNoiselessRepolls, kNoiselessRecomputations});
  append_fields(fields, written_under({topology_fields::kBackground}, kTopologyGiven));
  append_fields(fields, {kBackgroundJob, kBackgroundJobRanks, kNoiselessJobFinish});
  append_fields(fields, kSlowestTail.specs());
  append_fields(fields, {kSensitivityStep});
  for (const SensitivityFields& f : kSensitivities) append_fields(fields, f.specs());
  append_fields(fields,
                PathAttribution::field_specs("with output.critical_path = true",
                                             "with output.critical_path = true and a shared "
                                             "network (network.contention)"));
  append_fields(fields, {kLogGPFit, kLogGPEagerBytes});
  append_fields(fields, kEagerRegime.specs());
  append_fields(fields, kRendezvousRegime.specs());
  append_fields(fields, {kRankEntry, kSampleTiming, kBenchmarkLoop, kLoopIterations, kLoopWarmups});
  return fields;
}

MeanInterval ScheduleStudy::primary_mean(const Tally& tally, double level) const {
  // The noiseless completion bounds the samples from below when the ranks enter together; with
  // drawn entries only 0 does.
  const double lower = entry_.single_run_from_zero() ? noiseless_completion() : 0.0;
  return mean_interval(tally.total(0), tally.tops()[0], lower, noise_.tail_index, level);
}

PointSummary ScheduleStudy::summarize(const Tally& tally, const SummaryContext& context) const {
  const double level = context.confidence;
  const Accumulator total = tally.total(0);
  const MeanInterval ci = primary_mean(tally, level);
  using namespace schedule_fields;
  Record s;
  s.put(kSchedule, Field(source_.description));
  // The noiseless run built the schedule once: its size is known without it.
  s.put(kRanks, Field(static_cast<std::uint64_t>(built_ranks_)));
  s.put(kOperations, Field(built_operations_));
  s.put(kEventsPerSample, Field(noiseless().events));
  put_mean(s, kCompletion, total, ci);
  s.put(kCompletionSd, Field(total.sd()));
  s.put(kNoiselessCompletion, Field(noiseless_completion()));
  put_quantiles(s, kCompletionQuantiles, *tally.histogram_of(0), tally.raw(), level);
  const auto put_finish = [&](const FieldSpec& field, const ScheduleRun& run) {
    if (built_ranks_ <= kMaxRanksListed) {
      std::vector<double> finish;
      for (const double t : run.finish) finish.push_back(t * kNanosecond);
      s.put(field, Field(series_of(finish)));
    } else {
      s.put(field, Field(Null{fmt::format("more than {} ranks: not listed", kMaxRanksListed)}));
    }
  };
  put_finish(kNoiselessFinish, noiseless());
  put_loggp_fit(s);
  if (noise_.delays) put_latency_fields(s, *noise_.delays, *schedule());
  if (net_.classes) put_pair_class_fields(s, *net_.classes, *schedule());
  if (net_.contention) {
    topology_fields::put(s, *net_.contention->topology);
    s.put(kContention, Field(net_.contention->model_name()));
    s.put(kPlacement, Field(net_.contention->placement));
    s.put(topology_fields::kBackground, Field(net_.contention->background));
    s.put(kNoiselessRepolls, Field(noiseless().network_repolls));
    s.put(kNoiselessRecomputations, Field(noiseless().network_recomputations));
  }
  s.put(kRankEntry, Field(entry_.entry_text));
  s.put(kSampleTiming, Field(entry_.timing_text()));
  s.put(kBenchmarkLoop, Field(entry_.loop_text()));
  s.put(kLoopIterations, Field(entry_.iterations));
  s.put(kLoopWarmups, Field(entry_.warmups));
  std::vector<std::string> warnings = ci.warnings;
  if (source_.job) put_background_job(s, warnings);
  if (attributed_) attribution().summarize(s, tally, noiseless_path(), level, warnings);
  if (sensitivity_.any()) put_sensitivities(s, tally, level, warnings);
  if (tracks_tails_) put_tail_share(s, tally, level, warnings);
  if (finish_sample_) {
    s.put(kSampleFinishIndex, Field(*finish_sample_));
    if (built_ranks_ <= kMaxRanksListed)
      s.put(kSampleFinish, Field(series_of(rank_finishes(*finish_sample_))));
    else
      s.put(kSampleFinish,
            Field(Null{fmt::format("more than {} ranks: not listed", kMaxRanksListed)}));
  }
  return {std::move(s), std::move(warnings)};
}

void ScheduleStudy::put_tail_share(Record& s, const Tally& tally, double level,
                                   std::vector<std::string>& warnings) const {
  using namespace schedule_fields;
  const Accumulator flags = tally.total(kSlowestTailMetric);
  if (flags.count == 0) return;
  const ProportionInterval share = proportion_of_flags(flags, level);
  put_proportion(s, kSlowestTail, share);
  if (share.share > kTailShareWarning)
    warnings.push_back(fmt::format(
        "{:.0f}% of the samples' slowest ranks drew from a fitted tail beyond the data "
        "({} = {:.3g}): the prediction rests on the tail model more than on measurements",
        100.0 * share.share, kSlowestTail.share().name, share.share));
}

std::vector<double> ScheduleStudy::rank_finishes(std::uint64_t index) const {
  if (entry_.loop()) {
    // Its loop through its iteration; each rank from its own start of the collective (per_rank)
    // or from the iteration's first (completion).
    std::vector<double> finish;
    const std::uint64_t j = index % entry_.iterations;
    run_loop(index / entry_.iterations, j,
             [&](std::uint64_t at, const ScheduleRun& run, std::span<const double> starts) {
               if (at == j) finish = rank_times(run, starts);
             });
    return finish;
  }
  ScheduleEngineMemory memory;
  const std::vector<double> starts = entry_starts(index);
  const std::uint64_t key = stream_key(key_, StreamPurpose::kReplication, index);
  const auto drawn = sample_net(net_, key, ranks_of(*schedule()));
  const ScheduleRun run =
      run_schedule(*schedule(), drawn ? *drawn : net_, noise_, key, memory, NoObserver{}, starts);
  return rank_times(run, starts);
}

std::vector<double> ScheduleStudy::rank_times(const ScheduleRun& run,
                                              std::span<const double> starts) const {
  // Each rank from its own start (per_rank) or from the first start (completion).
  const double first = starts.empty() ? 0.0 : *std::min_element(starts.begin(), starts.end());
  std::vector<double> finish;
  for (std::size_t r = 0; r < run.finish.size(); ++r) {
    const double from = starts.empty()                            ? 0.0
                        : entry_.timing == SampleTiming::kPerRank ? starts[r]
                                                                  : first;
    finish.push_back((run.finish[r] - from) * kNanosecond);
  }
  return finish;
}

// Events: every operation, and a message per send (half the sends and receives); the run's own
// count once the noiseless run is known.
double ScheduleStudy::cost_per_sample() const {
  // The event engine: about 100 ns an event, more with noise draws, and 1 ns for each match-list
  // entry searched where searches grow faster than the events (bench/RESULTS.md).
  // Recording critical paths costs about 2.5 times the engine's time (bench/RESULTS.md).
  // Sensitivities simulate each sample again at two steps of each parameter.
  const double per_event = (noisy() ? 1.6e-7 : 1.0e-7) * (attributed_ ? 2.5 : 1.0) *
                           (1.0 + static_cast<double>(difference_runs()));
  if (entry_.loop()) {
    // Every iteration simulated, noisy or not, warm-ups shared by a loop's recorded ones; a
    // barrier in each costs about its operations (a few per rank).
    const double barrier = entry_.barrier_each_iteration() ? 4.0 * source_.ranks : 0.0;
    const double per_iteration =
        per_event * 1.5 * (source_.operations + barrier) + network_cost_per_run() + 1.0e-6;
    return per_iteration * static_cast<double>(entry_.warmups + entry_.iterations) /
           static_cast<double>(entry_.iterations);
  }
  return noisy() ? per_event * 1.5 * source_.operations + network_cost_per_run() +
                       kSecondsPerSearch * searches() + 1.0e-6
                 : 1.0e-6;
}

double ScheduleStudy::network_cost_per_run() const {
  if (!on_network()) return 0.0;
  // A message's start, end and polls walk its route and the messages on its links: about 0.5 us
  // a link of the topology's longest route under the simple model and 0.7 us under flows, per
  // message (half the operations), where a few messages share a link (bench/RESULTS.md, "The
  // work estimate under contention": right within a factor of 3 there; links shared by many
  // more, a tapered top level or a component of most flows, cost more).
  const ContentionSpec& c = *net_.contention;
  const double per_link = c.model == ContentionModel::kFlows ? 7.0e-7 : 5.0e-7;
  return 0.5 * source_.operations * std::max(c.topology->diameter(), 1) * per_link;
}

double ScheduleStudy::fixed_cost() const {
  // The noiseless run (about 100 ns an event, 1.5 events an operation); a stored algorithm is
  // also built and recompiled as rank classes when first sampled (40 to 120 ns an operation to
  // build, up to 45 to compare ranks, bench/RESULTS.md).
  const double build = source_.built ? 0.0 : 2.0e-7 * source_.operations;
  // Its matching, once measured: a GOAL file's is, by the run that validates it.
  return 1.0e-7 * 1.5 * source_.operations + network_cost_per_run() + build +
         kSecondsPerSearch * noiseless_searches_.load();
}

double ScheduleStudy::searches() const {
  // As estimated, or as the noiseless run searched (a GOAL file's, run when it is validated:
  // a root that posts its receives in reverse order searches N^2 / 2 entries).
  return std::max(source_.searches, noiseless_searches_.load());
}

double ScheduleStudy::working_bytes(int threads) const {
  // The schedule once; per thread the engine's memory, kept from sample to sample, and with
  // critical paths the recorder's, per rank (path_composition.hpp).
  const std::size_t buckets =
      std::min<std::size_t>(kPathBuckets, source_.rounds > 0 ? source_.rounds : kPathBuckets);
  const double paths =
      attributed_ ? PathCompositionRecorder::bytes_per_rank(buckets, times_layout(), on_network()) *
                        source_.ranks
                  : 0.0;
  return source_.stored_bytes +
         threads * (estimated_engine_bytes(static_cast<double>(source_.ranks), source_.operations,
                                           source_.ready_at_start) +
                    paths);
}

std::vector<TableColumn> ScheduleStudy::columns() const {
  using namespace schedule_fields;
  return {{kRanks.name, kRanks.name, ""},
          {"samples", kCompletion.samples().name, ""},
          {"completion[s]", kCompletion.mean().name, ""},
          {"ci_low", kCompletion.ci_low().name, ""},
          {"ci_high", kCompletion.ci_high().name, ""},
          {"noiseless[s]", kNoiselessCompletion.name, ""}};
}

PlotHints ScheduleStudy::plot_hints() const {
  using namespace schedule_fields;
  PlotHints hints;
  hints.show(kCompletion);
  hints.y_label = "completion time [s]";
  hints.add_reference(kNoiselessCompletion);
  return hints;
}

}  // namespace collnoise
