#include "engine/cycles/cycle_study.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/parallel_for.hpp"
#include "core/rng.hpp"
#include "engine/cycles/cycle_engine.hpp"
#include "engine/cycles/cycle_reference.hpp"
#include "engine/noise_fields.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/ratio_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

constexpr std::size_t kTopCapacity = 2048;
// Below this many ranks a chunk's replications run in parallel, each engine on one thread;
// above it the engine's own loops share the threads. Where the engine would run some case on
// one thread anyway (CycleTuning::parallel_from_ranks, four times it for the cheaper cases).
const std::uint64_t kParallelReplicationsBelow = 4 * CycleTuning{}.parallel_from_ranks;

const std::string kSeconds = "seconds";  // every time the model reports

// The cases (CycleStudy::available_cases), each name spelled once.
const std::string kConventionalCase = "conventional";
const std::string kRedundantCase = "redundant";
const std::string kQuietCase = "quiet";

// The paired differences tallied beside the cases' totals (CycleStudy::difference_metrics).
const std::string kConventionalMinusRedundant = "conventional_minus_redundant";
const std::string kConventionalMinusQuiet = "conventional_minus_quiet";

// The summary fields of one case, a pattern named after the case: T_M's mean
// (<case>_samples, <case>_mean, ...) and T_c at each cycle (<case>_T, <case>_T_ci_low, _ci_high).
struct CaseFields {
  std::string name;  // the case
  MeanFields run_time;
  FieldSpec cycle_means, cycle_low, cycle_high;
};

CaseFields case_fields(const std::string& c) {
  const std::string when = "when the " + c + " case runs";
  return {c,
          MeanFields(c + "_", kSeconds,
                     "T_M, the " + c +
                         " case's run time (null when the algorithm lacks the case or the run "
                         "leaves it out)"),
          {c + "_T", kSeconds, "mean T_c, the end of cycle c, at each c (a series)", when},
          {c + "_T_ci_low", kSeconds, "lower ends of their Student t intervals", when},
          {c + "_T_ci_high", kSeconds, "upper ends of their Student t intervals", when}};
}

// Every case's fields, in the schema's order (that of available_cases for the butterfly).
const CaseFields kCases[] = {case_fields(kConventionalCase), case_fields(kRedundantCase),
                             case_fields(kQuietCase)};

const CaseFields& fields_of(const std::string& c) {
  for (const CaseFields& f : kCases)
    if (f.name == c) return f;
  throw std::logic_error("unknown cycle case " + c);
}

const std::string kButterflyOnly = "the butterfly (which has a redundant variant)";
const FieldSpec kRecoveryRatio{"recovery_ratio", "",
                               "(T_conv - T_red) / (T_conv - T_quiet), a ratio of means"};
const FieldSpec kRecoveryLow{"recovery_ratio_ci_low", "", "lower end of its delta-method interval"};
const FieldSpec kRecoveryHigh{"recovery_ratio_ci_high", "",
                              "upper end of its delta-method interval"};
const FieldSpec kRecoveryMethod{"recovery_ratio_method", "", "how its interval was computed",
                                "for " + kButterflyOnly + " running every case"};
// Also the name of its metric in the tally (a pure number there, "1").
const FieldSpec kAdoptions{"adoptions_per_rank_cycle", "",
                           "adoptions of a redundant message per rank and cycle",
                           "for " + kButterflyOnly};
const FieldSpec kNoiseless =
    exact_field({"noiseless_closed_form", kSeconds, "T_M without noise, in closed form"});
const FieldSpec kNoiselessRedundant = exact_field(
    {"noiseless_closed_form_redundant", kSeconds, "the same for the redundant variant"});
const FieldSpec kCycle{"cycle", "", "the cycle numbers 1 .. collective.cycles (a series)"};

std::string total_name(const std::string& c) {
  return c + "_total";
}
std::string cycle_name(const std::string& c, std::uint64_t cycle) {
  return fmt::format("{}_T{}", c, cycle + 1);
}

// Seconds by which noise can plausibly delay one operation: for the finishing-time histograms'
// range only (values beyond are counted as overflow).
double delay_scale(const CpuNoiseSpec& noise) {
  if (noise.stage) return noise.stage->scale * noise.stage->eta->isf(1e-6);
  if (!noise.time) return 0.0;
  if (const auto* p = std::get_if<PatternNoise>(&*noise.time)) {
    double longest = 0.0;
    for (const auto& d : p->pattern->busy()) longest = std::max(longest, d.end - d.start);
    return longest;
  }
  return 20.0 * std::get<std::shared_ptr<const PoissonDetours>>(*noise.time)->mean_duration();
}

}  // namespace

struct CycleStudy::Replication {
  std::vector<CycleResult> cases;  // in case_names() order
};

CycleStudy::CycleStudy(CycleSetup setup, CpuNoiseSpec noise, bool use_reference, double tail_index,
                       std::vector<std::string> cases)
    : setup_(std::move(setup)),
      noise_(std::move(noise)),
      use_reference_(use_reference),
      tail_index_(tail_index),
      noiseless_(static_cast<double>(setup_.cycles) *
                 (setup_.work + rounds_of(setup_) * setup_.net.noiseless_round())) {
  // The cases in tally order, whatever order the run file gave them in: the metrics, histograms
  // and summary fields of a case do not depend on which other cases run.
  for (const auto& c : available_cases(setup_.algorithm))
    if (cases.empty() || std::find(cases.begin(), cases.end(), c) != cases.end())
      cases_.push_back(c);
}

std::vector<std::string> CycleStudy::available_cases(CycleAlgorithm algorithm) {
  if (algorithm == CycleAlgorithm::kButterfly)
    return {kConventionalCase, kRedundantCase, kQuietCase};
  return {kConventionalCase, kQuietCase};
}

bool CycleStudy::runs(const std::string& name) const {
  return std::find(cases_.begin(), cases_.end(), name) != cases_.end();
}

std::vector<std::string> CycleStudy::difference_metrics() const {
  // With every case this is the layout of collnoise before collective.cases: the same metrics
  // in the same order, so the default changes no tally.
  std::vector<std::string> metrics;
  if (runs(kConventionalCase) && runs(kRedundantCase))
    metrics.push_back(kConventionalMinusRedundant);
  if (runs(kConventionalCase) && runs(kQuietCase)) metrics.push_back(kConventionalMinusQuiet);
  if (runs(kRedundantCase)) metrics.push_back(kAdoptions.name);
  return metrics;
}

std::string CycleStudy::left_out(const std::string& name) const {
  return fmt::format("not simulated: collective.cases = [\"{}\"] leaves out the {} case",
                     fmt::join(cases_, "\", \""), name);
}

std::size_t CycleStudy::width() const {
  const std::size_t cases = case_names().size();
  return cases + difference_metrics().size() + cases * setup_.cycles;
}

TallyLayout CycleStudy::layout(std::size_t histogram_bins, const std::string&) const {
  TallyLayout layout;
  const auto& cases = case_names();
  for (const auto& c : cases) layout.metrics.push_back(total_name(c));
  for (const auto& d : difference_metrics()) layout.metrics.push_back(d);
  // The recovery ratio's numerator and denominator, paired (metrics 3 and 4 with every case).
  if (runs_all() && has_redundant()) {
    const auto index = [&](const std::string& name) {
      return static_cast<std::size_t>(
          std::find(layout.metrics.begin(), layout.metrics.end(), name) - layout.metrics.begin());
    };
    layout.pairs.push_back({index(kConventionalMinusRedundant), index(kConventionalMinusQuiet)});
  }
  for (const auto& c : cases)
    for (std::uint64_t k = 0; k < setup_.cycles; ++k) layout.metrics.push_back(cycle_name(c, k));
  for (const auto& metric : layout.metrics)
    layout.metric_units.emplace_back(metric == kAdoptions.name ? "1" : kSeconds);
  layout.top_capacity.assign(layout.metrics.size(), 0);
  for (std::size_t k = 0; k < cases.size(); ++k) layout.top_capacity[k] = kTopCapacity;
  // Finishing times of the last cycle: no rank finishes before the noiseless time.
  const double lo = std::max(noiseless_, 1e-9);
  const double hi = 10.0 * lo + static_cast<double>(setup_.cycles) * 10.0 * delay_scale(noise_);
  for (const auto& c : cases)
    layout.histograms.push_back(
        {"finish_time_" + c, std::nullopt, Histogram(lo, hi, histogram_bins, BinSpacing::kLog)});
  return layout;
}

CycleResult CycleStudy::run_case(CycleAlgorithm algorithm, bool quiet, std::uint64_t key,
                                 int threads, Histogram* finish) const {
  CycleSetup setup = setup_;
  setup.algorithm = algorithm;
  // Finishing times go straight into the histogram: at 2^23 ranks another N doubles per case
  // would not fit the memory budget.
  const CycleRecording recording{false, finish};
  ReplicationCpu cpu = make_replication_cpu(noise_, key, setup.ranks);
  return with_cpu(cpu, quiet, [&](auto& c) {
    return use_reference_ ? simulate_cycles_reference(setup, c, recording)
                          : simulate_cycles(setup, c, threads, recording);
  });
}

CycleStudy::Replication CycleStudy::replicate(std::uint64_t index, int threads,
                                              std::span<Histogram* const> finish) const {
  // Every case builds its own CPUs from the replication key, so a case sees the same noise, and
  // gives the same bits, whichever other cases run.
  const std::uint64_t key = stream_key(key_, StreamPurpose::kReplication, index);
  Replication rep;
  const auto& cases = case_names();
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const bool redundant = cases[c] == kRedundantCase;
    rep.cases.push_back(run_case(redundant ? CycleAlgorithm::kRedundantButterfly : setup_.algorithm,
                                 cases[c] == kQuietCase, key, threads, finish[c]));
  }
  return rep;
}

void CycleStudy::simulate(std::uint64_t first, std::span<double> rows,
                          std::span<Histogram* const> extra, int threads) const {
  const std::size_t width = this->width();
  const std::size_t count = rows.size() / width;
  std::vector<Replication> reps(count);
  const bool outer = setup_.ranks < kParallelReplicationsBelow && count > 1 && threads > 1;
  if (!noise_.time && (!noise_.stage || noise_.stage->scale == 0.0) && count > 1) {
    // No delay at all (law "none", f = 0, p = 0): every replication is the first, exactly; its
    // histogram counts repeat with it.
    std::vector<Histogram> once;
    std::vector<Histogram*> targets;
    for (const Histogram* h : extra) {
      once.push_back(*h);
      once.back().clear();
    }
    for (auto& h : once) targets.push_back(&h);
    reps[0] = replicate(first, threads, targets);
    for (std::size_t k = 1; k < count; ++k) reps[k] = reps[0];
    for (std::size_t k = 0; k < count; ++k)
      for (std::size_t h = 0; h < once.size(); ++h) extra[h]->merge(once[h]);
  } else if (outer) {
    // Replications side by side, each counting into its own histograms (integer counts, merged
    // below in any order).
    std::vector<std::vector<Histogram>> local(count);
    parallel_for(static_cast<std::int64_t>(count), threads, [&](std::int64_t k) {
      auto& mine = local[static_cast<std::size_t>(k)];
      std::vector<Histogram*> targets;
      for (const Histogram* h : extra) {
        mine.push_back(*h);
        mine.back().clear();
      }
      for (auto& h : mine) targets.push_back(&h);
      reps[static_cast<std::size_t>(k)] =
          replicate(first + static_cast<std::uint64_t>(k), 1, targets);
    });
    for (const auto& mine : local)
      for (std::size_t h = 0; h < mine.size(); ++h) extra[h]->merge(mine[h]);
  } else {
    for (std::size_t k = 0; k < count; ++k) reps[k] = replicate(first + k, threads, extra);
  }
  const auto& names = case_names();
  const std::size_t cases = names.size();
  // The index of a case in a replication; `cases` if it is not run.
  const auto slot = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const std::size_t conv = slot(kConventionalCase), red = slot(kRedundantCase),
                    quiet = slot(kQuietCase);
  const double rank_cycles = static_cast<double>(setup_.ranks * setup_.cycles);
  for (std::size_t k = 0; k < count; ++k) {
    const auto& rep = reps[k];
    double* row = rows.data() + k * width;
    std::size_t m = 0;
    for (std::size_t c = 0; c < cases; ++c) row[m++] = rep.cases[c].cycle_end.back();
    // The metrics of difference_metrics(), in its order.
    if (conv < cases && red < cases)
      row[m++] = rep.cases[conv].cycle_end.back() - rep.cases[red].cycle_end.back();
    if (conv < cases && quiet < cases)
      row[m++] = rep.cases[conv].cycle_end.back() - rep.cases[quiet].cycle_end.back();
    if (red < cases) row[m++] = static_cast<double>(rep.cases[red].adoptions) / rank_cycles;
    for (std::size_t c = 0; c < cases; ++c)
      for (double t : rep.cases[c].cycle_end) row[m++] = t;
  }
}

std::vector<FieldSpec> cycle_summary_fields() {
  FieldList fields;
  for (const CaseFields& c : kCases) append_fields(fields, c.run_time.specs());
  append_fields(fields, {kRecoveryRatio, kRecoveryLow, kRecoveryHigh, kRecoveryMethod, kAdoptions,
                         kNoiseless, kNoiselessRedundant, kNoiseBusyFraction, kCycle});
  for (const CaseFields& c : kCases)
    append_fields(fields, {c.cycle_means, c.cycle_low, c.cycle_high});
  return fields;
}

MeanInterval CycleStudy::primary_mean(const Tally& tally, double level) const {
  return mean_interval(tally.total(0), tally.tops()[0], noiseless_, tail_index_, level);
}

PointSummary CycleStudy::summarize(const Tally& tally, const SummaryContext& context) const {
  const double level = context.confidence;
  const auto& cases = case_names();
  const std::string no_variant = "the dissemination barrier has no redundant variant";
  Record s;
  std::vector<std::string> warnings;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const Accumulator acc = tally.total(c);
    const MeanInterval ci = mean_interval(acc, tally.tops()[c], noiseless_, tail_index_, level);
    put_mean(s, fields_of(cases[c]).run_time, acc, ci);
    if (c == 0) warnings = ci.warnings;  // the primary metric's
  }
  // A case the algorithm lacks, or one the run left out: its fields are null with the reason.
  for (const CaseFields& c : kCases) {
    if (runs(c.name)) continue;
    const std::string why =
        c.name == kRedundantCase && !has_redundant() ? no_variant : left_out(c.name);
    put_null_mean(s, c.run_time, why);
  }

  // Recovery ratio: a ratio of means over paired replications, with a delta-method interval.
  const FieldSpec* const ratio_fields[] = {&kRecoveryRatio, &kRecoveryLow, &kRecoveryHigh};
  if (!has_redundant()) {
    for (const FieldSpec* k : ratio_fields) s.put(*k, Field(Null{no_variant}));
  } else if (!runs_all()) {
    std::vector<std::string> missing;
    for (const CaseFields& c : kCases)
      if (!runs(c.name)) missing.push_back(c.name);
    const std::string why = fmt::format(
        "not computed: (T_conv - T_red) / (T_conv - T_quiet) needs the conventional, redundant "
        "and quiet cases, and collective.cases = [\"{}\"] leaves out {}",
        fmt::join(cases, "\", \""), fmt::join(missing, " and "));
    for (const FieldSpec* k : ratio_fields) s.put(*k, Field(Null{why}));
  } else {
    const Accumulator y = tally.total(kConventionalMinusQuiet);
    const RatioInterval ratio =
        ratio_of_means(tally.total(kConventionalMinusRedundant), y, tally.pair_total(0), level);
    if (ratio.ratio) {
      s.put(kRecoveryRatio, Field(*ratio.ratio));
      s.put(kRecoveryLow, Field(*ratio.ci_low));
      s.put(kRecoveryHigh, Field(*ratio.ci_high));
    } else {
      const std::string why =
          ratio.denominator_may_be_zero
              ? fmt::format(
                    "the denominator T_conv - T_quiet = {:.3g} s has an interval containing 0: "
                    "noise in the collective's own overheads makes no detectable difference{}",
                    y.mean, noise_.stage ? " (per-stage noise acts on compute stages only)" : "")
              : ratio.reason;
      for (const FieldSpec* k : ratio_fields) s.put(*k, Field(Null{why}));
    }
    s.put(kRecoveryMethod, Field(std::string("delta method, Student t")));
  }
  if (runs(kRedundantCase))
    s.put(kAdoptions, Field(tally.total(kAdoptions.name).mean));
  else if (has_redundant())
    s.put(kAdoptions, Field(Null{left_out(kRedundantCase)}));
  const auto closed = noiseless_closed_form(setup_);
  const std::string nic_bound =
      "the NIC gap exceeds a round trip or the redundant messages do "
      "not fit in a round's wait: no closed form";
  s.put(kNoiseless, closed ? Field(*closed) : Field(Null{nic_bound}));
  if (has_redundant()) {
    CycleSetup red = setup_;
    red.algorithm = CycleAlgorithm::kRedundantButterfly;
    const auto closed_red = noiseless_closed_form(red);
    s.put(kNoiselessRedundant, closed_red ? Field(*closed_red) : Field(Null{nic_bound}));
  } else {
    s.put(kNoiselessRedundant, Field(Null{no_variant}));
  }
  if (noise_.time) s.put(kNoiseBusyFraction, Field(busy_fraction(*noise_.time)));

  // T_c per cycle, each case run: means and Student t intervals over replications.
  std::vector<double> cycles;
  for (std::uint64_t k = 1; k <= setup_.cycles; ++k) cycles.push_back(static_cast<double>(k));
  s.put(kCycle, Field(series_of(cycles)));
  for (const auto& c : cases) {
    Series mean, low, high;
    for (std::uint64_t k = 0; k < setup_.cycles; ++k) {
      const Accumulator acc = tally.total(cycle_name(c, k));
      const MeanInterval ci = student_t_interval(acc, level);
      mean.push_back(acc.mean);
      low.push_back(ci.ci_low.value);
      high.push_back(ci.ci_high.value);
    }
    const CaseFields& fields = fields_of(c);
    s.put(fields.cycle_means, Field(mean));
    s.put(fields.cycle_low, Field(low));
    s.put(fields.cycle_high, Field(high));
  }
  return {std::move(s), std::move(warnings)};
}

namespace {

enum class NoiseKind { kQuiet, kStage, kPattern, kPoisson };

NoiseKind noise_kind(const CpuNoiseSpec& noise) {
  if (noise.stage) return NoiseKind::kStage;
  if (!noise.time) return NoiseKind::kQuiet;
  return std::holds_alternative<PatternNoise>(*noise.time) ? NoiseKind::kPattern
                                                           : NoiseKind::kPoisson;
}

}  // namespace

double CycleStudy::cost_per_sample() const {
  // Seconds per rank and round of each case run, and per rank and compute stage, measured on the
  // fast engine (bench/HISTORY.md, "Cost model"); the reference simulator takes about 600 ns a
  // rank-round for the conventional and quiet cases, twice that for the redundant one.
  const NoiseKind kind = noise_kind(noise_);
  const double poisson_op = kind == NoiseKind::kPoisson ? 1.2e-8 : 0.0;
  double per_round = 0.0;
  if (runs(kConventionalCase)) per_round += use_reference_ ? 6.0e-7 : 6.0e-9 + poisson_op;
  if (runs(kRedundantCase)) per_round += use_reference_ ? 1.2e-6 : 2.2e-8 + 2.0 * poisson_op;
  if (runs(kQuietCase)) per_round += use_reference_ ? 6.0e-7 : 4.0e-9;
  double compute = 1.0e-9;
  if (kind == NoiseKind::kStage) compute = 3.0e-8 + noise_.stage->eta->isf_seconds();
  if (kind == NoiseKind::kPattern) compute = 5.0e-9;
  if (kind == NoiseKind::kPoisson) compute = 3.0e-8;
  const double cases = static_cast<double>(case_names().size());
  const double rank_cycles = static_cast<double>(setup_.ranks * setup_.cycles);
  // Beyond 2^20 ranks the state leaves the caches: the sweeps become memory-bound.
  const double memory_bound = setup_.ranks > (1u << 20) ? 1.5 : 1.0;
  return memory_bound * rank_cycles * (rounds_of(setup_) * per_round + cases * compute) + 2.0e-6;
}

double CycleStudy::working_bytes(int threads) const {
  // CPU and NIC free times, arrivals, the redundant exchange's rank records and drop pool (506
  // MiB at 2^23 ranks, bench/RESULTS.md), and the noise's per-rank state; the reference
  // simulator keeps an event queue and message buffers per rank.
  const NoiseKind kind = noise_kind(noise_);
  double per_rank = runs(kRedundantCase) ? 64.0 : 24.0;
  if (kind == NoiseKind::kPattern) per_rank += 4.0;
  if (kind == NoiseKind::kPoisson) per_rank += 33.0;
  if (use_reference_) per_rank = 400.0;
  const double copies = setup_.ranks < kParallelReplicationsBelow ? threads : 1;
  return copies * per_rank * static_cast<double>(setup_.ranks);
}

std::vector<TableColumn> CycleStudy::columns() const {
  // With every case (the default), the columns of collnoise before collective.cases, the
  // dissemination barrier's null redundant and ratio columns included; with some cases, theirs.
  std::vector<TableColumn> columns = {
      {"reps", fields_of(case_names().front()).run_time.samples().name, ""}};
  for (const auto& [header, name] :
       {std::pair<const char*, const std::string*>{"quiet[s]", &kQuietCase},
        {"conv[s]", &kConventionalCase},
        {"red[s]", &kRedundantCase}})
    if (runs(*name) || runs_all())
      columns.push_back({header, fields_of(*name).run_time.mean().name, ""});
  if (runs_all())
    for (const auto& [header, field] :
         {std::pair<const char*, const FieldSpec*>{"ratio", &kRecoveryRatio},
          {"ratio_lo", &kRecoveryLow},
          {"ratio_hi", &kRecoveryHigh}})
      columns.push_back({header, field->name, ""});
  columns.push_back({"noiseless[s]", kNoiseless.name, ""});
  return columns;
}

PlotHints CycleStudy::plot_hints() const {
  // The conventional case's T_M (the primary metric), or the first case run without it; the
  // other cases run as references.
  const std::string& primary = case_names().front();
  PlotHints hints;
  hints.figure = "cycles";
  hints.show(fields_of(primary).run_time);
  hints.y_label = "run time T_M [s]";
  for (const std::string* name : {&kQuietCase, &kRedundantCase})
    if (*name != primary && (runs(*name) || runs_all()))
      hints.add_reference(fields_of(*name).run_time.mean());
  hints.add_reference(kNoiseless);
  return hints;
}

}  // namespace collnoise
