#include "engine/tree_barrier/nhalf_study.hpp"
#include "core/errors.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/tree_barrier/tree_barrier_study.hpp"

#include <fmt/format.h>

#include "core/rng.hpp"
#include "engine/tree_barrier/nhalf.hpp"
#include "engine/tree_barrier/tree_theory.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

// What NHalfStudy::analyse writes, each declared once (core/field_spec.hpp). Times are in
// seconds; N_1/2 and the checked N are rank counts, the relative error a pure number.
const std::string kSeconds = "seconds";
const std::string kFound = "when N_1/2 is found below 2^126";
const std::string kUnresolved = "when E[T] cannot resolve N_1/2 to one N";
const std::string kFullFound = "when a full tree reaches 2w below 2^126";

// A rank count, written as a number and as its decimal digits (exact beyond 2^53, where the
// number is not): two fields, each declared.
struct CountFields {
  FieldSpec count;
  FieldSpec digits;
};

const FieldSpec kTargetTime =
    exact_field({"target_time", kSeconds, "2w: the expected phase time N_1/2 reaches"});
const FieldSpec kPaperApprox = exact_field(
    {"nhalf_paper_approx", "", "the paper's approximate N_1/2 (null for laws it does not treat)"});
const FieldSpec kPaperFormula{"nhalf_paper_formula", "", "its formula as text (empty when null)"};
const CountFields kExact{
    exact_field(
        {"nhalf_exact", "", "the smallest N with exact E[T] >= 2w (null when none below 2^126)"}),
    {"nhalf_exact_string", "", "the same N in decimal digits, exact beyond 2^53", kFound}};
const FieldSpec kExactResolved{"nhalf_exact_resolved", "",
                               "whether E[T] separates N_1/2 from its neighbours", kFound};
const CountFields kExactLow{
    exact_field({"nhalf_exact_low", "",
                 "unresolved: the smallest N whose E[T] is within error of 2w", kFound}),
    {"nhalf_exact_low_string", "", "the same N in decimal digits", kUnresolved}};
const CountFields kExactHigh{
    exact_field({"nhalf_exact_high", "",
                 "unresolved: the largest N whose E[T] is within error of 2w", kFound}),
    {"nhalf_exact_high_string", "", "the same N in decimal digits", kUnresolved}};
const FieldSpec kExactNote{"nhalf_exact_note", "", "why N_1/2 is a range", kUnresolved};
const CountFields kFullTree{
    exact_field({"nhalf_full_tree", "", "the smallest full tree 2^k - 1 with E[T] >= 2w"}),
    {"nhalf_full_tree_string", "", "the same N in decimal digits", kFullFound}};
const FieldSpec kFullTreeLevels{"nhalf_full_tree_levels", "", "its number of levels k", kFullFound};
const FieldSpec kPaperRelativeError{"paper_relative_error", "",
                                    "nhalf_paper_approx / nhalf_exact - 1", kFound};
const CountFields kCheckHalf{
    {"check_N_half", "", "N_1/2 / 2, where the simulated check samples", kFound},
    {"check_N_half_string", "", "the same N in decimal digits", kFound}};
const CountFields kCheckDouble{
    {"check_N_double", "", "2 N_1/2, where the simulated check samples", kFound},
    {"check_N_double_string", "", "the same N in decimal digits", kFound}};
const FieldSpec kCheckConfidence{"check_confidence", "",
                                 "the check's confidence level (nhalf.check_confidence)", kFound};
const FieldSpec kCheckSamples{"check_samples", "",
                              "phases sampled at each checked N (nhalf.check_samples)", kFound};
const FieldSpec kCheckCiMethod{"check_ci_method", "", "how the check's intervals were computed",
                               kFound};
const FieldSpec kBelowMean{"check_below_mean", kSeconds, "mean phase time at N_1/2 / 2", kFound};
const FieldSpec kBelowCiLow{"check_below_ci_low", kSeconds, "lower end of its interval", kFound};
const FieldSpec kBelowCiHigh{"check_below_ci_high", kSeconds, "upper end of its interval", kFound};
const FieldSpec kAboveMean{"check_above_mean", kSeconds, "mean phase time at 2 N_1/2", kFound};
const FieldSpec kAboveCiLow{"check_above_ci_low", kSeconds, "lower end of its interval", kFound};
const FieldSpec kAboveCiHigh{"check_above_ci_high", kSeconds, "upper end of its interval", kFound};
const FieldSpec kExactMeanAtHalf =
    exact_field({"exact_mean_at_half", kSeconds, "exact E[T] at N_1/2 / 2", kFound});
const FieldSpec kExactMeanAtDouble =
    exact_field({"exact_mean_at_double", kSeconds, "exact E[T] at 2 N_1/2", kFound});
const FieldSpec kCheckPassed{"check_passed", "",
                             "whether the intervals put 2w between the two checked N"};

struct Check {
  Accumulator acc;
  MeanInterval ci;
};

Check simulate(const NHalfSettings& settings, std::uint64_t chunk_size, TreeBarrierModel model,
               RankCount n, std::uint64_t key, int threads) {
  model.shape = TreeShape(n);
  const TreeBarrierSampler sampler(model, TreeSampling::kPerLevel, key);
  Check c;
  TopValues top(8192);
  std::vector<double> buffer(chunk_size);
  for (std::uint64_t first = 0; first < settings.check_samples; first += chunk_size) {
    const auto count = static_cast<std::size_t>(
        std::min<std::uint64_t>(chunk_size, settings.check_samples - first));
    std::span<double> phases(buffer.data(), count);
    sampler.sample(first, phases, threads);
    Accumulator chunk;
    for (double t : phases) {
      chunk.add(t);
      top.add(t);
    }
    c.acc.merge(chunk);
  }
  const double alpha = model.noise.scale > 0 ? model.noise.eta->tail_index()
                                             : std::numeric_limits<double>::infinity();
  const double shift = phase_time_distribution(model).lower();
  c.ci = mean_interval(c.acc, top, shift, alpha, settings.check_confidence,
                       SampleRounding::of_roundings(kPhaseTimeRoundings));
  return c;
}

void put_count(Record& s, const CountFields& fields, RankCount n) {
  s.put(fields.count, Field(to_double(n)));
  s.put(fields.digits, Field(to_string(n)));
}

}  // namespace

NHalfStudy::NHalfStudy(TreeBarrierModel model, NHalfSettings settings, std::uint64_t chunk_size)
    : model_(std::move(model)),
      settings_(settings),
      chunk_size_(chunk_size > 0 ? chunk_size : 1024) {}

PointSummary NHalfStudy::analyse(int threads, const SampleProgress& progress) const {
  const TreeBarrierModel& model = model_;
  Record s;
  const double target = 2.0 * model.w;
  s.put(kTargetTime, Field(target));

  const PaperApprox approx = nhalf_paper_approx(model);
  s.put(kPaperApprox, approx.value);
  s.put(kPaperFormula, Field(approx.formula));

  const ExactNHalf exact = exact_nhalf(model, false);
  const ExactNHalf full = exact_nhalf(model, true);
  if (!exact.found) {
    s.put(kExact.count, Field(Null{exact.reason}));
    s.put(kFullTree.count, Field(Null{exact.reason}));
    s.put(kCheckPassed, Field(Null{exact.reason}));
    return {std::move(s), {}};
  }
  put_count(s, kExact, exact.n);
  s.put(kExactResolved, Field(exact.resolved));
  if (exact.resolved) {
    s.put(kExactLow.count, Field(Null{"resolved to the integer"}));
    s.put(kExactHigh.count, Field(Null{"resolved to the integer"}));
  } else {
    put_count(s, kExactLow, exact.low);
    put_count(s, kExactHigh, exact.high);
    s.put(kExactNote,
          Field(std::string("double precision cannot resolve E[T] between neighbouring N here: "
                            "every N in [nhalf_exact_low, nhalf_exact_high] has E[T] within the "
                            "integration error of 2w")));
  }
  if (full.found) {
    put_count(s, kFullTree, full.n);
    s.put(kFullTreeLevels, Field(static_cast<std::int64_t>(floor_log2(full.n + 1))));
  } else {
    s.put(kFullTree.count, Field(Null{full.reason}));
  }
  if (approx.value.has_value())
    s.put(kPaperRelativeError, Field(*approx.value.value / to_double(exact.n) - 1.0));
  else
    s.put(kPaperRelativeError, Field(Null{approx.value.reason}));

  // (c) simulated bracket.
  const RankCount half = exact.n / 2 >= 1 ? exact.n / 2 : 1;
  const RankCount twice = exact.n * 2;
  const Check below = simulate(settings_, chunk_size_, model, half, hash_combine(key_, 1), threads);
  if (progress) progress(settings_.check_samples);
  const Check above =
      simulate(settings_, chunk_size_, model, twice, hash_combine(key_, 2), threads);
  if (progress) progress(2 * settings_.check_samples);
  put_count(s, kCheckHalf, half);
  put_count(s, kCheckDouble, twice);
  s.put(kCheckConfidence, Field(settings_.check_confidence));
  s.put(kCheckSamples, Field(settings_.check_samples));
  s.put(kCheckCiMethod, Field(below.ci.method));
  s.put(kBelowMean, Field(below.acc.mean));
  s.put(kBelowCiLow, below.ci.ci_low);
  s.put(kBelowCiHigh, below.ci.ci_high);
  s.put(kAboveMean, Field(above.acc.mean));
  s.put(kAboveCiLow, above.ci.ci_low);
  s.put(kAboveCiHigh, above.ci.ci_high);
  s.put(kExactMeanAtHalf, Field(mean_at_n(model, half)));
  s.put(kExactMeanAtDouble, Field(mean_at_n(model, twice)));
  if (below.ci.ci_high.has_value() && above.ci.ci_low.has_value())
    s.put(kCheckPassed, Field(*below.ci.ci_high.value < target && target < *above.ci.ci_low.value));
  else
    s.put(kCheckPassed, Field(Null{"an interval is undefined: " + below.ci.ci_high.reason +
                                   above.ci.ci_low.reason}));
  return {std::move(s), below.ci.warnings};
}

double NHalfStudy::estimated_cost() const {
  // Two exact root searches (20 ms), then the simulated check at N_1/2 / 2 and 2 N_1/2, taking
  // trees of about 30 levels (bench/HISTORY.md, "Cost model").
  const double levels = 30.0;
  const double per_phase = levels * (3.0e-8 + model_.noise.eta->isf_seconds());
  return 2.0e-2 + 2.0 * static_cast<double>(settings_.check_samples) * per_phase;
}

double NHalfStudy::working_bytes(int threads) const {
  return 8.0 * static_cast<double>(chunk_size_) + 16384.0 * threads;
}

std::vector<TableColumn> NHalfStudy::columns() const {
  return {{"paper_approx", kPaperApprox.name, ""}, {kExact.count.name, kExact.count.name, ""},
          {"full_tree", kFullTree.count.name, ""}, {"E[T](N/2)_hi", kBelowCiHigh.name, ""},
          {"E[T](2N)_lo", kAboveCiLow.name, ""},   {"check", kCheckPassed.name, ""}};
}

PlotHints NHalfStudy::plot_hints() const {
  PlotHints hints;
  hints.figure = "nhalf";
  hints.x = "noise.f";
  hints.show(kExact.count);
  hints.y_label = "N_1/2";
  hints.add_reference(kPaperApprox);
  hints.add_reference(kFullTree.count);
  return hints;
}

namespace {

// What NHalfStudy::analyse writes, in its order.
FieldList nhalf_fields() {
  return {kTargetTime,       kPaperApprox,       kPaperFormula,       kExact.count,
          kExact.digits,     kExactResolved,     kExactLow.count,     kExactLow.digits,
          kExactHigh.count,  kExactHigh.digits,  kExactNote,          kFullTree.count,
          kFullTree.digits,  kFullTreeLevels,    kPaperRelativeError, kCheckHalf.count,
          kCheckHalf.digits, kCheckDouble.count, kCheckDouble.digits, kCheckConfidence,
          kCheckSamples,     kCheckCiMethod,     kBelowMean,          kBelowCiLow,
          kBelowCiHigh,      kAboveMean,         kAboveCiLow,         kAboveCiHigh,
          kExactMeanAtHalf,  kExactMeanAtDouble, kCheckPassed};
}

}  // namespace

ModelKind nhalf_model_kind() {
  static const KeySpec check_samples{.name = "nhalf.check_samples",
                                     .type = KeyType::kInteger,
                                     .meaning = "phases per simulated check point",
                                     .fallback = std::int64_t{20000},
                                     .bounds = {100.0, 1099511627776.0},
                                     .identity = false};
  static const KeySpec check_confidence{.name = "nhalf.check_confidence",
                                        .meaning = "confidence level of the simulated check",
                                        .fallback = 0.99,
                                        .bounds = {0.0, 1.0, true, true},
                                        .identity = false};
  return {
      .name = "nhalf",
      .meaning =
          "N_1/2, the N at which the expected phase time doubles: the paper's "
          "approximation, the exact value and a simulated check",
      .run_kind = "nhalf",
      .collectives = {"tree_barrier"},
      .keys = tree_keys(),
      .settings = {check_samples, check_confidence},
      .summary_fields = nhalf_fields(),
      .takes = [](const ParamReader&, const RunContext& run) { return run.run_kind == "nhalf"; },
      .prepare =
          [](PreparedPoint& point, ParamReader& reader, const RunContext& run) {
            const std::string kind = reader.text(collective_kind_key());
            if (kind != "tree_barrier")
              throw InputError(fmt::format(
                  "kind = \"nhalf\" needs collective.kind = \"tree_barrier\", got \"{}\"", kind));
            const TreeParams tree = read_tree_params(reader, false);
            if (names_time_noise(reader, "noise"))
              throw InputError(
                  fmt::format("noise.law = \"{}\": N_1/2 is defined for per-stage noise laws only",
                              *reader.peek_text("noise.law")));
            ParamReader settings(run.settings);
            NHalfSettings check;
            check.check_samples = static_cast<std::uint64_t>(settings.integer(check_samples));
            check.check_confidence = settings.number(check_confidence);
            settings.reject_unread("the [nhalf] table");
            point.kind = "nhalf";
            point.analysis =
                std::make_unique<NHalfStudy>(read_tree_model(reader, tree), check, run.chunk_size);
          }};
}

}  // namespace collnoise
