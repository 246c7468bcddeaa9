#include "engine/tree_barrier/tree_barrier_study.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/tree_barrier/tree_barrier_fields.hpp"
#include "engine/tree_barrier/tree_params.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

constexpr std::size_t kTopCapacity = 8192;

// What TreeBarrierStudy::summarize writes, each declared once (core/field_spec.hpp). Phase times
// and everything compared with them are in seconds; the rest are pure numbers.
const std::string kSeconds = "seconds";
const MeanFields kPhaseTime{"", kSeconds, "the phase time T"};
const FieldSpec kMeanTailCorrected{"mean_tail_corrected", kSeconds,
                                   "the mean corrected for the unseen tail (Peng's interval)"};
const FieldSpec kSd = time_sd_field("standard deviation of T (null for a tail index <= 2)");
const FieldSpec kMin{"min", kSeconds, "shortest sampled phase"};
const FieldSpec kMax{"max", kSeconds, "longest sampled phase"};
const FieldSpec kTailIndex{"tail_index", "", "the law's tail index alpha (null for a light tail)"};
const FieldSpec kTailIndexHill{"tail_index_hill", "",
                               "Hill's estimate of the tail index from the largest samples"};
const FieldSpec kExactMean =
    exact_field({"exact_mean", kSeconds, "exact E[T] (null for a tail index <= 1)"});
const FieldSpec kExactSd = exact_field(
    {"exact_sd", kSeconds, "exact standard deviation of T (null for a tail index <= 2)"});
const FieldSpec kExactInCi{"exact_in_ci", "", "whether exact_mean lies in the mean's interval"};
const FieldSpec kExactInCiAdjusted{"exact_in_ci_adjusted", "",
                                   "the same at the Bonferroni-adjusted level of the run's points"};
const FieldSpec kAdjustedConfidence{"adjusted_confidence", "", "that adjusted level"};
const FieldSpec kZScore{"z_score", "", "(mean - exact_mean) / standard_error"};
const FieldSpec kWithinTheorem1{"within_theorem1", "",
                                "whether the mean's interval meets Theorem 1's bounds"};
const FieldSpec kWithinBounds{"within_bounds", "",
                              "whether the mean's interval meets bound_lower .. bound_upper"};
const FieldSpec kTheorem1Lower =
    exact_field({"theorem1_lower", kSeconds, "Theorem 1's lower bound as printed (full trees)"});
const FieldSpec kTheorem1LowerCorrected = exact_field(
    {"theorem1_lower_corrected", kSeconds, "Theorem 1's lower bound, leaves at the right depth"});
const FieldSpec kTheorem1Upper =
    exact_field({"theorem1_upper", kSeconds, "Theorem 1's upper bound (full trees)"});
const FieldSpec kBoundLower =
    exact_field({"bound_lower", kSeconds, "w + s E[Y^(n_D)] + 2 tau D, any N"});
const FieldSpec kBoundUpper =
    exact_field({"bound_upper", kSeconds, "w + s E[Y^N] + 2 tau D, any N"});
const FieldSpec kTheorem2Lower =
    exact_field({"theorem2_lower", kSeconds, "Theorem 2 (exponential noise, full trees)"});
const FieldSpec kTheorem3Lower =
    exact_field({"theorem3_lower", kSeconds, "Theorem 3 (Pareto noise, full trees)"});
const FieldSpec kTheorem4Lower =
    exact_field({"theorem4_lower", kSeconds, "Theorem 4 (Bernoulli noise, full trees)"});
const FieldSpec kNoiselessTime = noiseless_time_field("w + 2 tau D: the phase without noise");
const QuantileFields kPhaseTimeQuantiles{"", kSeconds, "T"};

// The exact quantiles beside the sampled ones: <q>_exact for each reported quantile q
// (reported_probabilities(), the order of TreeTheory::exact_quantiles).
FieldList exact_quantile_fields() {
  FieldList fields;
  for (double p : reported_probabilities())
    fields.push_back(exact_field(
        {quantile_name(p) + "_exact", kSeconds, fmt::format("exact {} quantile of T", p), ""}));
  return fields;
}
const FieldList kExactQuantiles = exact_quantile_fields();

Histogram make_histogram(const MaxDistribution& dist, double tail_index, std::size_t bins,
                         const std::string& requested_spacing) {
  double lo = dist.lower();
  // One step above the top quantile, so that an atom there (the largest delay of a Bernoulli or
  // truncated law) falls inside the last bin, not into the overflow.
  double hi = std::nextafter(dist.quantile(tail_index <= 4.0 ? 1.0 - 1e-7 : 1.0 - 1e-9),
                             std::numeric_limits<double>::infinity());
  if (!(hi > lo)) hi = lo * (1.0 + 1e-9) + 1e-15;  // a degenerate (noiseless) phase time
  lo = std::nextafter(lo, 0.0);
  std::string spacing = requested_spacing;
  if (spacing == "auto") spacing = (tail_index <= 4.0 && hi / lo > 4.0) ? "log" : "linear";
  return Histogram(lo, hi, bins, spacing == "log" ? BinSpacing::kLog : BinSpacing::kLinear);
}

}  // namespace

TreeBarrierStudy::TreeBarrierStudy(TreeBarrierModel model, TreeSampling sampling)
    : model_(std::move(model)),
      sampling_(sampling),
      tail_index_(model_.noise.scale > 0.0 ? model_.noise.eta->tail_index()
                                           : std::numeric_limits<double>::infinity()) {
  // The per-rank path's precondition, checked before any sampling.
  TreeBarrierSampler(model_, sampling_, 0);
}

const TreeTheory& TreeBarrierStudy::theory() const {
  std::call_once(theory_once_, [this] { theory_ = tree_theory(model_, reported_probabilities()); });
  return *theory_;
}

TallyLayout TreeBarrierStudy::layout(std::size_t histogram_bins, const std::string& spacing) const {
  TallyLayout layout;
  layout.metrics = {"phase_time"};
  layout.top_capacity = {kTopCapacity};
  layout.histograms.push_back(
      {"phase_time", 0,
       make_histogram(phase_time_distribution(model_), tail_index_, histogram_bins, spacing)});
  return layout;
}

void TreeBarrierStudy::simulate(std::uint64_t first, std::span<double> rows,
                                std::span<Histogram* const>, int threads) const {
  if (model_.noise.scale == 0.0 && !rows.empty()) {
    // No delay at all (law "none", f = 0, p = 0): every phase is the first, exactly.
    TreeBarrierSampler(model_, sampling_, key_).sample(first, rows.first(1), threads);
    std::fill(rows.begin() + 1, rows.end(), rows.front());
    return;
  }
  TreeBarrierSampler(model_, sampling_, key_).sample(first, rows, threads);
}

MeanInterval TreeBarrierStudy::primary_mean(const Tally& tally, double level) const {
  // Each phase time carries at most kPhaseTimeRoundings roundings: the intervals allow for them.
  return mean_interval(tally.total(0), tally.tops()[0], phase_time_distribution(model_).lower(),
                       tail_index_, level, SampleRounding::of_roundings(kPhaseTimeRoundings));
}

PointSummary TreeBarrierStudy::summarize(const Tally& tally, const SummaryContext& context) const {
  const Accumulator total = tally.total(0);
  const TopValues& top = tally.tops()[0];
  const double level = context.confidence;
  const double shift = phase_time_distribution(model_).lower();
  const MeanInterval ci = primary_mean(tally, level);
  const TreeTheory& th = theory();
  // Verdicts over a sweep of many points: Bonferroni-adjusted level.
  const double adjusted_level =
      1.0 - (1.0 - level) / static_cast<double>(std::max<std::size_t>(context.points_in_run, 1));
  const MeanInterval ci_adjusted = primary_mean(tally, adjusted_level);

  Record s;
  put_mean(s, kPhaseTime, total, ci);
  s.put(kMeanTailCorrected, ci.corrected_mean);
  if (tail_index_ > 2.0)
    s.put(kSd, Nullable::of(total.sd()));
  else
    s.put(kSd, Nullable::null("tail index <= 2: the variance is infinite"));
  s.put(kMin, Field(total.min));
  s.put(kMax, Field(total.max));
  if (std::isfinite(tail_index_))
    s.put(kTailIndex, Nullable::of(tail_index_));
  else
    s.put(kTailIndex, Nullable::null("light tail (all moments finite)"));
  const auto top_values = top.descending();
  s.put(kTailIndexHill,
        hill_tail_index(top_values, tail_order_count(total.count, top_values.size()), shift));
  s.put(kExactMean, th.exact_mean);
  s.put(kExactSd, th.exact_sd);

  const auto& exact = th.exact_mean;
  const auto in_interval = [&](const MeanInterval& interval) -> Field {
    if (!exact.has_value()) return Null{exact.reason};
    if (!interval.ci_low.has_value()) return Null{interval.ci_low.reason};
    return Field(*interval.ci_low.value <= *exact.value && *exact.value <= *interval.ci_high.value);
  };
  s.put(kExactInCi, in_interval(ci));
  s.put(kExactInCiAdjusted, in_interval(ci_adjusted));
  s.put(kAdjustedConfidence, Field(adjusted_level));
  if (exact.has_value() && ci.standard_error.has_value() && *ci.standard_error.value > 0.0) {
    const double center = ci.corrected_mean.has_value() ? *ci.corrected_mean.value : total.mean;
    s.put(kZScore, Field((center - *exact.value) / *ci.standard_error.value));
  } else {
    s.put(kZScore, Field(Null{exact.has_value() ? "no standard error" : exact.reason}));
  }
  const auto overlaps = [&](const Nullable& lo, const Nullable& hi) -> Field {
    if (!lo.has_value()) return Null{lo.reason};
    if (!ci.ci_low.has_value()) return Null{ci.ci_low.reason};
    return Field(*ci.ci_high.value >= *lo.value && *ci.ci_low.value <= *hi.value);
  };
  s.put(kWithinTheorem1, overlaps(th.theorem1_lower, th.theorem1_upper));
  s.put(kWithinBounds, overlaps(th.bound_lower, th.bound_upper));
  s.put(kTheorem1Lower, th.theorem1_lower);
  s.put(kTheorem1LowerCorrected, th.theorem1_lower_corrected);
  s.put(kTheorem1Upper, th.theorem1_upper);
  s.put(kBoundLower, th.bound_lower);
  s.put(kBoundUpper, th.bound_upper);
  s.put(kTheorem2Lower, th.theorem2_lower);
  s.put(kTheorem3Lower, th.theorem3_lower);
  s.put(kTheorem4Lower, th.theorem4_lower);
  s.put(kNoiselessTime, Field(model_.w + 2.0 * model_.tau * model_.shape.depth()));

  put_quantiles(s, kPhaseTimeQuantiles, *tally.histogram_of(0), tally.raw(), level);
  // The theory's quantiles are at reported_probabilities(), those kExactQuantiles declares.
  for (std::size_t i = 0; i < th.exact_quantiles.size(); ++i)
    s.put(kExactQuantiles.at(i), Nullable::of(th.exact_quantiles[i]));
  return {std::move(s), ci.warnings};
}

double TreeBarrierStudy::cost_per_sample() const {
  // Per rank: 0.6 ns of random words per rank, then one transform per level; per level: a log,
  // an expm1 and the transform per level (bench/HISTORY.md, "Cost model").
  const double levels = model_.shape.depth() + 1.0;
  const double transform = model_.noise.eta->isf_seconds();
  if (sampling_ == TreeSampling::kPerLevel) return levels * (1.0e-8 + transform) + 2.0e-7;
  return 6.0e-10 * to_double(model_.shape.ranks()) + levels * transform + 1.0e-6;
}

double TreeBarrierStudy::fixed_cost() const {
  // The exact distribution's moments and quantiles: integrations over the levels.
  return 1.0e-3 * (model_.shape.depth() + 1.0) * (1.0 + 1.0e4 * model_.noise.eta->isf_seconds());
}

double TreeBarrierStudy::working_bytes(int threads) const {
  return 16384.0 * threads;  // per thread: 64 level minima and a batch of 1024 words
}

std::vector<TableColumn> TreeBarrierStudy::columns() const {
  const std::string& samples = kPhaseTime.samples().name;
  const std::string& ci_low = kPhaseTime.ci_low().name;
  const std::string& ci_high = kPhaseTime.ci_high().name;
  return {{samples, samples, ""},
          {"mean[s]", kPhaseTime.mean().name, ""},
          {ci_low, ci_low, ""},
          {ci_high, ci_high, ""},
          {"exact[s]", kExactMean.name, ""},
          {"z", kZScore.name, "z"},
          {"in_ci", kExactInCi.name, ""}};
}

PlotHints TreeBarrierStudy::plot_hints() const {
  PlotHints hints;
  hints.show(kPhaseTime);
  hints.y_label = "phase time [s]";
  for (const FieldSpec* reference :
       {&kExactMean, &kTheorem1Lower, &kTheorem1Upper, &kBoundLower, &kBoundUpper})
    hints.add_reference(*reference);
  return hints;
}

TreeBarrierModel read_tree_model(ParamReader& reader, const TreeParams& tree) {
  TreeBarrierModel m;
  m.shape = TreeShape(tree.n);
  m.w = tree.w;
  m.tau = tree.tau;
  m.noise = read_stage_noise(reader, "noise", tree.w);
  return m;
}

namespace {

// What TreeBarrierStudy::summarize writes, in its order.
FieldList tree_barrier_fields() {
  FieldList fields = kPhaseTime.specs();
  append_fields(fields, {kMeanTailCorrected,
                         kSd,
                         kMin,
                         kMax,
                         kTailIndex,
                         kTailIndexHill,
                         kExactMean,
                         kExactSd,
                         kExactInCi,
                         kExactInCiAdjusted,
                         kAdjustedConfidence,
                         kZScore,
                         kWithinTheorem1,
                         kWithinBounds,
                         kTheorem1Lower,
                         kTheorem1LowerCorrected,
                         kTheorem1Upper,
                         kBoundLower,
                         kBoundUpper,
                         kTheorem2Lower,
                         kTheorem3Lower,
                         kTheorem4Lower,
                         kNoiselessTime});
  append_fields(fields, kPhaseTimeQuantiles.specs());
  append_fields(fields, kExactQuantiles);
  return fields;
}

}  // namespace

ModelKind tree_barrier_model_kind() {
  return {
      .name = "tree_barrier",
      .meaning = "the tree barrier under per-stage noise: phase times, exact theory, Theorems 1-4",
      .collectives = {"tree_barrier"},
      .keys = tree_keys(),
      .summary_fields = tree_barrier_fields(),
      .takes =
          [](const ParamReader& reader, const RunContext& run) {
            return run.run_kind == "sample" &&
                   reader.peek_text(collective_kind_key().name).value_or("tree_barrier") ==
                       "tree_barrier" &&
                   !(reader.has("noise.law") && names_time_noise(reader, "noise"));
          },
      .prepare =
          [](PreparedPoint& point, ParamReader& reader, const RunContext&) {
            reader.text(collective_kind_key());
            const TreeParams tree = read_tree_params(reader, true);
            point.kind = "tree_barrier";
            point.sampled =
                std::make_unique<TreeBarrierStudy>(read_tree_model(reader, tree), tree.sampling);
          }};
}

}  // namespace collnoise
