#include "engine/tree_barrier/tree_barrier_study.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/tree_barrier/tree_params.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

constexpr std::size_t kTopCapacity = 8192;

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
  put_mean(s, "", total, ci, "seconds");
  s.set("mean_tail_corrected", ci.corrected_mean);
  if (tail_index_ > 2.0)
    s.set("sd", Nullable::of(total.sd()));
  else
    s.set("sd", Nullable::null("tail index <= 2: the variance is infinite"));
  s.set("min", Field(total.min));
  s.set("max", Field(total.max));
  if (std::isfinite(tail_index_))
    s.set("tail_index", Nullable::of(tail_index_));
  else
    s.set("tail_index", Nullable::null("light tail (all moments finite)"));
  const auto top_values = top.descending();
  s.set("tail_index_hill",
        hill_tail_index(top_values, tail_order_count(total.count, top_values.size()), shift));
  s.set("exact_mean", th.exact_mean);
  s.set("exact_sd", th.exact_sd);

  const auto& exact = th.exact_mean;
  const auto in_interval = [&](const MeanInterval& interval) -> Field {
    if (!exact.has_value()) return Null{exact.reason};
    if (!interval.ci_low.has_value()) return Null{interval.ci_low.reason};
    return Field(*interval.ci_low.value <= *exact.value && *exact.value <= *interval.ci_high.value);
  };
  s.set("exact_in_ci", in_interval(ci));
  s.set("exact_in_ci_adjusted", in_interval(ci_adjusted));
  s.set("adjusted_confidence", Field(adjusted_level));
  if (exact.has_value() && ci.standard_error.has_value() && *ci.standard_error.value > 0.0) {
    const double center = ci.corrected_mean.has_value() ? *ci.corrected_mean.value : total.mean;
    s.set("z_score", Field((center - *exact.value) / *ci.standard_error.value));
  } else {
    s.set("z_score", Field(Null{exact.has_value() ? "no standard error" : exact.reason}));
  }
  const auto overlaps = [&](const Nullable& lo, const Nullable& hi) -> Field {
    if (!lo.has_value()) return Null{lo.reason};
    if (!ci.ci_low.has_value()) return Null{ci.ci_low.reason};
    return Field(*ci.ci_high.value >= *lo.value && *ci.ci_low.value <= *hi.value);
  };
  s.set("within_theorem1", overlaps(th.theorem1_lower, th.theorem1_upper));
  s.set("within_bounds", overlaps(th.bound_lower, th.bound_upper));
  s.set("theorem1_lower", th.theorem1_lower);
  s.set("theorem1_lower_corrected", th.theorem1_lower_corrected);
  s.set("theorem1_upper", th.theorem1_upper);
  s.set("bound_lower", th.bound_lower);
  s.set("bound_upper", th.bound_upper);
  s.set("theorem2_lower", th.theorem2_lower);
  s.set("theorem3_lower", th.theorem3_lower);
  s.set("theorem4_lower", th.theorem4_lower);
  s.set("noiseless_time", Field(model_.w + 2.0 * model_.tau * model_.shape.depth()));

  put_quantiles(s, "", *tally.histogram_of(0), level, "seconds");
  for (std::size_t i = 0; i < th.quantile_probabilities.size(); ++i) {
    const std::string exact_quantile = quantile_name(th.quantile_probabilities[i]) + "_exact";
    s.set(exact_quantile, Nullable::of(th.exact_quantiles[i]));
    s.set_unit(exact_quantile, "seconds");
  }
  // Phase times and everything compared with them are in seconds; the rest are pure numbers.
  s.set_unit({"mean_tail_corrected", "sd", "min", "max", "exact_mean", "exact_sd", "theorem1_lower",
              "theorem1_lower_corrected", "theorem1_upper", "bound_lower", "bound_upper",
              "theorem2_lower", "theorem3_lower", "theorem4_lower", "noiseless_time"},
             "seconds");
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
  return {{"samples", "samples", ""},  {"mean[s]", "mean", ""},        {"ci_low", "ci_low", ""},
          {"ci_high", "ci_high", ""},  {"exact[s]", "exact_mean", ""}, {"z", "z_score", "z"},
          {"in_ci", "exact_in_ci", ""}};
}

PlotHints TreeBarrierStudy::plot_hints() const {
  PlotHints hints;
  hints.y_label = "phase time [s]";
  hints.references = {"exact_mean", "theorem1_lower", "theorem1_upper", "bound_lower",
                      "bound_upper"};
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
std::vector<FieldSpec> tree_barrier_fields() {
  const std::string s = "seconds";
  std::vector<FieldSpec> fields = mean_field_specs("", s, "the phase time T");
  append_fields(
      fields,
      {
          {"mean_tail_corrected", s, "the mean corrected for the unseen tail (Peng's interval)"},
          {"sd", s, "standard deviation of T (null for a tail index <= 2)"},
          {"min", s, "shortest sampled phase"},
          {"max", s, "longest sampled phase"},
          {"tail_index", "", "the law's tail index alpha (null for a light tail)"},
          {"tail_index_hill", "", "Hill's estimate of the tail index from the largest samples"},
          {"exact_mean", s, "exact E[T] (null for a tail index <= 1)"},
          {"exact_sd", s, "exact standard deviation of T (null for a tail index <= 2)"},
          {"exact_in_ci", "", "whether exact_mean lies in the mean's interval"},
          {"exact_in_ci_adjusted", "",
           "the same at the Bonferroni-adjusted level of the run's points"},
          {"adjusted_confidence", "", "that adjusted level"},
          {"z_score", "", "(mean - exact_mean) / standard_error"},
          {"within_theorem1", "", "whether the mean's interval meets Theorem 1's bounds"},
          {"within_bounds", "", "whether the mean's interval meets bound_lower .. bound_upper"},
          {"theorem1_lower", s, "Theorem 1's lower bound as printed (full trees)"},
          {"theorem1_lower_corrected", s, "Theorem 1's lower bound, leaves at the right depth"},
          {"theorem1_upper", s, "Theorem 1's upper bound (full trees)"},
          {"bound_lower", s, "w + s E[Y^(n_D)] + 2 tau D, any N"},
          {"bound_upper", s, "w + s E[Y^N] + 2 tau D, any N"},
          {"theorem2_lower", s, "Theorem 2 (exponential noise, full trees)"},
          {"theorem3_lower", s, "Theorem 3 (Pareto noise, full trees)"},
          {"theorem4_lower", s, "Theorem 4 (Bernoulli noise, full trees)"},
          {"noiseless_time", s, "w + 2 tau D: the phase without noise"},
      });
  append_fields(fields, quantile_field_specs("", s, "T"));
  for (double p : reported_probabilities())
    fields.push_back({quantile_name(p) + "_exact", s, fmt::format("exact {} quantile of T", p)});
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
