#include "engine/tree_barrier/timed_tree_study.hpp"
#include "core/errors.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/noise_fields.hpp"
#include "engine/tree_barrier/tree_barrier_fields.hpp"
#include "engine/tree_barrier/tree_params.hpp"

#include <fmt/format.h>
#include <bit>
#include <cmath>
#include <limits>

#include "core/parallel_for.hpp"
#include "core/rng.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {
constexpr std::size_t kTopCapacity = 2048;
constexpr std::uint64_t kParallelReplicationsBelow = 1 << 14;

// What TimedTreeStudy::summarize writes, each declared once (core/field_spec.hpp): times in
// seconds, the busy fraction a pure number.
const std::string kSeconds = "seconds";
const MeanFields kTotalTime{"", kSeconds, "the time of all phases"};
const FieldSpec kSd = time_sd_field("standard deviation of the time of all phases");
const FieldSpec kNoiselessTime = noiseless_time_field("the time of all phases without noise");
const FieldSpec kMeanPhaseTime{"mean_phase_time", kSeconds, "mean / collective.phases"};
// Every timed tree point has time-based noise: the field is always written.
const FieldSpec kBusyFraction = kNoiseBusyFraction.written("");
const FieldSpec kPhaseTimeMeans{"phase_time_means", kSeconds,
                                "mean time of each phase (a series over the phases)"};
const FieldSpec kPhaseTimeCiLow{"phase_time_ci_low", kSeconds,
                                "lower ends of their Student t intervals"};
const FieldSpec kPhaseTimeCiHigh{"phase_time_ci_high", kSeconds,
                                 "upper ends of their Student t intervals"};
const QuantileFields kPhaseTimeQuantiles{"phase_time_", kSeconds, "a phase's time"};

}  // namespace

TimedTreeStudy::TimedTreeStudy(TimedTreeSetup setup, CpuNoiseSpec noise)
    : setup_(setup), noise_(std::move(noise)) {
  const int depth = static_cast<int>(std::bit_width(setup_.ranks)) - 1;
  noiseless_ = static_cast<double>(setup_.phases) * (setup_.work + 2.0 * setup_.tau * depth);
}

double TimedTreeStudy::primary_tail_index() const {
  return noise_.time ? tail_index(*noise_.time) : std::numeric_limits<double>::infinity();
}

TallyLayout TimedTreeStudy::layout(std::size_t histogram_bins, const std::string&) const {
  TallyLayout layout;
  layout.metrics.push_back("total_time");
  for (std::uint64_t p = 1; p <= setup_.phases; ++p)
    layout.metrics.push_back(fmt::format("phase_time_{}", p));
  layout.top_capacity.assign(layout.metrics.size(), 0);
  layout.top_capacity[0] = kTopCapacity;
  // Phase times: never below the noiseless phase, log bins up to 100 times it.
  const double lo = noiseless_ / static_cast<double>(setup_.phases);
  layout.histograms.push_back(
      {"phase_time", std::nullopt,
       Histogram(std::nextafter(lo, 0.0), 100.0 * lo, histogram_bins, BinSpacing::kLog)});
  return layout;
}

TimedTreeResult TimedTreeStudy::replicate(std::uint64_t index, int threads) const {
  const std::uint64_t key = stream_key(key_, StreamPurpose::kReplication, index);
  ReplicationCpu cpu = make_replication_cpu(noise_, key, setup_.ranks);
  return with_cpu(cpu, false, [&](auto& c) { return simulate_timed_tree(setup_, c, threads); });
}

void TimedTreeStudy::simulate(std::uint64_t first, std::span<double> rows,
                              std::span<Histogram* const> extra, int threads) const {
  const std::size_t width = 1 + setup_.phases;
  const std::size_t count = rows.size() / width;
  std::vector<TimedTreeResult> reps(count);
  if (setup_.ranks < kParallelReplicationsBelow && count > 1 && threads > 1) {
    parallel_for(static_cast<std::int64_t>(count), threads, [&](std::int64_t k) {
      reps[static_cast<std::size_t>(k)] = replicate(first + static_cast<std::uint64_t>(k), 1);
    });
  } else {
    for (std::size_t k = 0; k < count; ++k) reps[k] = replicate(first + k, threads);
  }
  for (std::size_t k = 0; k < count; ++k) {
    double* row = rows.data() + k * width;
    const auto& ends = reps[k].phase_end;
    row[0] = ends.back();
    for (std::size_t p = 0; p < ends.size(); ++p) {
      row[1 + p] = ends[p] - (p ? ends[p - 1] : 0.0);
      extra[0]->add(row[1 + p]);
    }
  }
}

MeanInterval TimedTreeStudy::primary_mean(const Tally& tally, double level) const {
  return mean_interval(tally.total(0), tally.tops()[0], noiseless_, primary_tail_index(), level);
}

PointSummary TimedTreeStudy::summarize(const Tally& tally, const SummaryContext& context) const {
  const double level = context.confidence;
  const Accumulator total = tally.total(0);
  const MeanInterval ci = primary_mean(tally, level);
  Record s;
  put_mean(s, kTotalTime, total, ci);
  s.put(kSd, Field(total.sd()));
  s.put(kNoiselessTime, Field(noiseless_));
  s.put(kMeanPhaseTime, Field(total.mean / static_cast<double>(setup_.phases)));
  if (noise_.time) s.put(kBusyFraction, Field(busy_fraction(*noise_.time)));
  Series mean, low, high;
  for (std::uint64_t p = 1; p <= setup_.phases; ++p) {
    const Accumulator acc = tally.total(p);
    const MeanInterval pci = student_t_interval(acc, level);
    mean.push_back(acc.mean);
    low.push_back(pci.ci_low.value);
    high.push_back(pci.ci_high.value);
  }
  s.put(kPhaseTimeMeans, Field(mean));
  s.put(kPhaseTimeCiLow, Field(low));
  s.put(kPhaseTimeCiHigh, Field(high));
  // The pooled phase times have a histogram, never raw values (those are of the total time).
  put_quantiles(s, kPhaseTimeQuantiles, *tally.histogram_named("phase_time"), {}, level);
  return {std::move(s), ci.warnings};
}

double TimedTreeStudy::cost_per_sample() const {
  // One advance per rank and phase through the detour pattern (15 ns) or Poisson cursors
  // (20 ns); bench/HISTORY.md, "Cost model".
  const bool poisson = noise_.time && !std::holds_alternative<PatternNoise>(*noise_.time);
  return (poisson ? 2.0e-8 : 1.5e-8) * static_cast<double>(setup_.ranks * setup_.phases) + 1.0e-6;
}

double TimedTreeStudy::working_bytes(int threads) const {
  // Each replication: a finishing time per rank and the noise's per-rank state; small trees run
  // one replication per thread.
  const bool poisson = noise_.time && !std::holds_alternative<PatternNoise>(*noise_.time);
  const double per_rank = 8.0 + (poisson ? 33.0 : 4.0);
  const double copies = setup_.ranks < kParallelReplicationsBelow ? threads : 1;
  return copies * per_rank * static_cast<double>(setup_.ranks);
}

std::vector<TableColumn> TimedTreeStudy::columns() const {
  const std::string& samples = kTotalTime.samples().name;
  const std::string& ci_low = kTotalTime.ci_low().name;
  const std::string& ci_high = kTotalTime.ci_high().name;
  return {{samples, samples, ""},
          {"mean[s]", kTotalTime.mean().name, ""},
          {ci_low, ci_low, ""},
          {ci_high, ci_high, ""},
          {"noiseless[s]", kNoiselessTime.name, ""}};
}

PlotHints TimedTreeStudy::plot_hints() const {
  PlotHints hints;
  hints.show(kTotalTime);
  hints.y_label = "time of all phases [s]";
  hints.add_reference(kNoiselessTime);
  return hints;
}

namespace {

// What TimedTreeStudy::summarize writes, in its order.
FieldList timed_tree_fields() {
  FieldList fields = kTotalTime.specs();
  append_fields(fields, {kSd, kNoiselessTime, kMeanPhaseTime, kBusyFraction, kPhaseTimeMeans,
                         kPhaseTimeCiLow, kPhaseTimeCiHigh});
  append_fields(fields, kPhaseTimeQuantiles.specs());
  return fields;
}

}  // namespace

ModelKind timed_tree_model_kind() {
  static const KeySpec phases{.name = "collective.phases",
                              .type = KeyType::kInteger,
                              .meaning = "phases per replication, simulated in absolute time",
                              .fallback = std::int64_t{1},
                              .bounds = {1.0, 1.0e9}};
  std::vector<KeySpec> keys = tree_keys();
  keys.push_back(phases);
  return {.name = "timed_tree_barrier",
          .meaning =
              "the tree barrier under time-based noise: every rank in absolute time, phases "
              "interact",
          .collectives = {"tree_barrier"},
          .keys = keys,
          .summary_fields = timed_tree_fields(),
          .takes =
              [](const ParamReader& reader, const RunContext& run) {
                return run.run_kind == "sample" &&
                       reader.peek_text(collective_kind_key().name).value_or("tree_barrier") ==
                           "tree_barrier" &&
                       reader.has("noise.law") && names_time_noise(reader, "noise");
              },
          .prepare =
              [](PreparedPoint& point, ParamReader& reader, const RunContext&) {
                reader.text(collective_kind_key());
                const TreeParams tree = read_tree_params(reader, true);
                CpuNoiseSpec cpu;
                cpu.time = read_time_noise(reader, "noise");
                // Time-based noise: phases interact, every rank is simulated in absolute time.
                if (tree.sampling != TreeSampling::kPerRank)
                  throw InputError(fmt::format(
                      "collective.sampling = \"per_level\" draws level maxima of iid per-stage "
                      "noise; noise.law = \"{}\" is time-based and needs \"per_rank\"",
                      *reader.peek_text("noise.law")));
                if (tree.n > RankCount{1} << 40)
                  throw InputError(
                      "collective.N is too large for time-based noise: at most 2^40 ranks");
                TimedTreeSetup setup;
                setup.ranks = static_cast<std::uint64_t>(tree.n);
                setup.work = tree.w;
                setup.tau = tree.tau;
                setup.phases = static_cast<std::uint64_t>(reader.integer(phases));
                const double depth = static_cast<double>(std::bit_width(setup.ranks) - 1);
                check_time_noise_horizon(
                    *cpu.time,
                    static_cast<double>(setup.phases) * (setup.work + 2.0 * setup.tau * depth),
                    static_cast<double>(setup.phases));
                point.kind = "tree_barrier";
                point.sampled = std::make_unique<TimedTreeStudy>(setup, std::move(cpu));
              }};
}

}  // namespace collnoise
