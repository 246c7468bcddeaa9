#include "engine/isoefficiency/isoefficiency_study.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/parallel_for.hpp"
#include "core/rng.hpp"
#include "core/stop_request.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

using Spec = IsoefficiencySpec;

// The summary's fields, each declared once (core/field_spec.hpp): W in work units, overheads in
// seconds; m counts nodes, E and the exponents are pure numbers.
const std::string kWorkUnits = "work units";
const std::string kSeconds = "seconds";
const std::string kWFree = "when the efficiency does not depend on W";
const FieldSpec kCurve{"curve", "",
                       "what the curve is: T_q, T_o and the target efficiency, in words"};
const FieldSpec kTarget{"efficiency_target", "", "the efficiency E the curve keeps"};
const FieldSpec kRate{"p", "work units per second", "the processing rate (isoefficiency.p)"};
const FieldSpec kM{"m", "", "the node counts m (a series, as every field below)"};
const FieldSpec kW{"W", kWorkUnits,
                   "the work that keeps the efficiency at each m (null where none does)"};
const FieldSpec kWLow{"W_ci_low", kWorkUnits, "lower ends of W's intervals"};
const FieldSpec kWHigh{"W_ci_high", kWorkUnits, "upper ends of W's intervals"};
const FieldSpec kWExact = exact_field(
    {"W_exact", kWorkUnits, "W from the exact overheads, where they have a closed form"});
const FieldSpec kWMethod{"W_ci_method", "", "how W's intervals were computed"};
const FieldSpec kTq{"T_q", kSeconds, "the imbalance overhead at W"};
const FieldSpec kTqLow{"T_q_ci_low", kSeconds, "lower ends of its intervals"};
const FieldSpec kTqHigh{"T_q_ci_high", kSeconds, "upper ends of its intervals"};
const FieldSpec kTo{"T_o", kSeconds, "the communication overhead at W"};
const FieldSpec kToLow{"T_o_ci_low", kSeconds, "lower ends of its intervals"};
const FieldSpec kToHigh{"T_o_ci_high", kSeconds, "upper ends of its intervals"};
const FieldSpec kSamplesPerM{"samples_per_m", "",
                             "samples of the imbalance at each m (0 for a family)"};
const FieldSpec kGrowth{"growth_exponent", "", "the fitted log-log slope of W(m)"};
const FieldSpec kGrowthLow{"growth_exponent_ci_low", "", "lower end of the slope's interval"};
const FieldSpec kGrowthHigh{"growth_exponent_ci_high", "", "upper end of the slope's interval"};
const FieldSpec kPredicted = exact_field(
    {"predicted_exponent", "", "the slope the theory predicts (null where W(m) is no power law)"});
const FieldSpec kScalable{"scalable", "", "whether a W keeps the efficiency at every m"};
const FieldSpec kScalableNote{"scalable_note", "", "why not",
                              "when at some m no W reaches the target efficiency"};
const FieldSpec kWNote{"W_note", "", "why W is null", kWFree};
const FieldSpec kEfficiencyAnyW{"efficiency_any_W", "", "the efficiency at each m, whatever W",
                                kWFree};
const FieldSpec kSurfaceW{"surface_W", kWorkUnits,
                          "the W of the efficiency surface E(W, m), m-major"};
const FieldSpec kSurfaceM{"surface_m", "", "the m of the efficiency surface"};
const FieldSpec kSurfaceE{"surface_E", "", "the efficiency at (surface_W, surface_m)"};

constexpr double kSmallestW = 1e-12;  // bottom of the root search, work units
constexpr double kLargestW = 1e300;   // top of the root search, work units
// Granularity T_q steps with the job count: W resolved to a relative 2^-24 (far below one job
// for any W a run can deal) costs half the evaluations of a full-precision root.
constexpr int kGranularityRootBits = 24;

// The stream of sample k at node count m.
Pcg32 sample_stream(std::uint64_t key, double m, std::uint64_t k) {
  return make_stream(
      hash_combine(stream_key(key, StreamPurpose::kImbalance, std::bit_cast<std::uint64_t>(m)), k));
}

struct Estimate {
  double mean = 0.0;
  std::optional<double> low, high;
  std::string method;
  std::string reason;  // when there is no interval
  std::vector<std::string> warnings;
};

Estimate estimate_of(const MeanInterval& ci, double mean) {
  Estimate e;
  e.mean = ci.corrected_mean.has_value() ? *ci.corrected_mean.value : mean;
  e.low = ci.ci_low.value;
  e.high = ci.ci_high.value;
  e.method = ci.method;
  e.reason = ci.ci_low.reason;
  e.warnings = ci.warnings;
  return e;
}

// E[max of m eta] by Monte Carlo (exact draws of the maximum), with its interval.
Estimate max_of_m(const Spec& spec, std::uint64_t key, double m) {
  Accumulator acc;
  TopValues top(4096);
  Pcg32 stream = sample_stream(key, m, 0);
  for (std::uint64_t k = 0; k < spec.samples; ++k) {
    if ((k & 0xfff) == 0) throw_if_stop_requested();
    const double y = max_of_iid(*spec.law, m, stream);
    acc.add(y);
    top.add(y);
  }
  const MeanInterval ci =
      mean_interval(acc, top, spec.law->support_min(), spec.law->tail_index(), spec.confidence);
  return estimate_of(ci, acc.mean);
}

// The mean granularity excess at W over the samples (common random numbers: the same streams for
// every W), with a Student t interval. Samples run in parallel into their own slots and are summed
// in sample order, so the estimate does not depend on the thread count.
Estimate granularity(const Spec& spec, std::uint64_t key, double m, double w, int threads) {
  std::vector<double> excess(spec.samples);
  const auto count = static_cast<std::int64_t>(spec.samples);
  parallel_for(
      count, threads,
      [&](std::int64_t k) {
        thread_local std::vector<double> loads;  // reused from sample to sample
        excess[static_cast<std::size_t>(k)] =
            granularity_excess(w, static_cast<std::uint64_t>(m), spec.job_mean, spec.law.get(),
                               spec.assignment,
                               sample_stream(key, m, static_cast<std::uint64_t>(k)), loads) /
            spec.p;
      },
      16);
  Accumulator acc;
  for (double x : excess) acc.add(x);
  return estimate_of(student_t_interval(acc, spec.confidence), acc.mean);
}

std::optional<double> combine_exponents(const PredictedGrowth& a, const PredictedGrowth& b) {
  if (!a.exponent || !b.exponent) return std::nullopt;
  return std::max(*a.exponent, *b.exponent);
}

using Curve = std::function<double(double)>;

// Curve returning `v` at every W.
Curve constant_curve(double v) {
  return [v](double) { return v; };
}

// What the analysis learns across node counts: how its intervals were made (the last m's
// method stands), its warnings (once each), and whether an exact curve exists.
struct AnalysisNotes {
  std::string ci_method = "exact (closed form, no sampling)";
  std::set<std::string> warnings;
  bool exact_exists = true;
  std::string exact_reason;
};

// T_o at one m: its estimate as a function of W, and the ends of its interval.
struct CommunicationAt {
  double mean = 0.0;
  std::optional<double> exact, low, high;  // a simulated collective's values
  Curve of, low_of, high_of;
};

// T_q at one m and the W it gives: the solved W with its interval and its exact value, T_q at
// any W, and the ends of T_q's interval where they do not depend on W.
struct ImbalanceSolution {
  std::optional<double> w, low, high, exact;
  Curve tq;
  std::optional<double> tq_low, tq_high;
};

// One node count's row of the curve.
struct CurveRow {
  double m = 0.0;
  std::optional<double> w, w_low, w_high, w_exact;
  std::optional<double> tq, tq_low, tq_high, to, to_low, to_high;
  double efficiency_any_w = 0.0;
  Curve overheads;     // T_q + T_o at any W, for the efficiency surface
  bool any_w = false;  // the efficiency does not depend on W at this m
};

// The curve's columns, one row per node count.
struct CurveColumns {
  Series w, w_low, w_high, w_exact, tq, tq_low, tq_high, to, to_low, to_high, efficiency_any_w;
  std::vector<Curve> overheads;
  std::vector<double> fit_m, fit_w;  // where a W was found
  bool every_m_reachable = true;
  bool w_dependent = true;  // false once E turned out not to depend on W

  void add(CurveRow row) {
    if (row.any_w) w_dependent = false;
    if (!row.w && !row.any_w) every_m_reachable = false;
    if (row.w) fit_m.push_back(row.m), fit_w.push_back(*row.w);
    w.push_back(row.w);
    w_low.push_back(row.w_low);
    w_high.push_back(row.w_high);
    w_exact.push_back(row.w_exact);
    tq.push_back(row.tq);
    tq_low.push_back(row.tq_low);
    tq_high.push_back(row.tq_high);
    to.push_back(row.to);
    to_low.push_back(row.to_low);
    to_high.push_back(row.to_high);
    efficiency_any_w.push_back(row.efficiency_any_w);
    overheads.push_back(std::move(row.overheads));
  }
};

// Solves the curve one node count at a time.
class CurveSolver {
 public:
  CurveSolver(const Spec& spec, std::uint64_t key, int threads)
      : s_(spec),
        key_(key),
        threads_(threads),
        family_(overhead_of(spec.imbalance_family, spec.c1, spec.c2)),
        comm_(overhead_of(spec.comm_family, spec.comm_c1, spec.comm_c2)),
        root_bits_(spec.imbalance == Spec::Imbalance::kGranularity ? kGranularityRootBits : 50) {}

  CurveRow row(double m);
  const AnalysisNotes& notes() const { return notes_; }

 private:
  CommunicationAt communication(double m);
  ImbalanceSolution solve_imbalance(double m, const CommunicationAt& to, bool& any_w);
  ImbalanceSolution family_solution(double m, const CommunicationAt& to, bool& any_w) const;
  ImbalanceSolution noise_solution(double m, const CommunicationAt& to, bool& any_w);
  ImbalanceSolution granularity_solution(double m, const CommunicationAt& to, bool& any_w);
  std::optional<double> solve(double m, const Curve& tq, const Curve& to, bool& any_w) const;
  std::optional<double> solve_exact(double m, const Curve& tq, const CommunicationAt& to,
                                    bool& any_w) const;

  const Spec& s_;
  std::uint64_t key_;
  int threads_;
  Overhead family_;
  Overhead comm_;
  int root_bits_;
  AnalysisNotes notes_;
};

// A W at the bottom of the search range means the efficiency does not need any work: it does
// not depend on W (proportional delays, no communication). There is no curve then.
std::optional<double> meaningful(std::optional<double> w, bool& any_w) {
  if (w && *w <= kSmallestW) {
    any_w = true;
    return std::nullopt;
  }
  return w;
}

std::optional<double> CurveSolver::solve(double m, const Curve& tq, const Curve& to,
                                         bool& any_w) const {
  return meaningful(isoefficiency_w([&](double w) { return tq(w) + to(w); }, m, s_.p, s_.target,
                                    kSmallestW, kLargestW, root_bits_),
                    any_w);
}

// The exact W: T_o at its exact value where the simulated collective has one, to full precision.
std::optional<double> CurveSolver::solve_exact(double m, const Curve& tq, const CommunicationAt& to,
                                               bool& any_w) const {
  const Curve t = to.exact ? constant_curve(*to.exact) : to.of;
  return meaningful(
      isoefficiency_w([&](double w) { return tq(w) + t(w); }, m, s_.p, s_.target, kSmallestW),
      any_w);
}

CommunicationAt CurveSolver::communication(double m) {
  CommunicationAt c;
  if (!s_.comm_simulated) {
    c.of = [comm = comm_, m](double w) { return comm(w, m); };
    c.low_of = c.high_of = c.of;
    return c;
  }
  const SimulatedOverhead o = s_.comm_simulated(m, threads_, key_, s_.confidence);
  c.mean = o.mean;
  c.exact = o.exact;
  c.low = o.low;
  c.high = o.high;
  c.of = constant_curve(o.mean);
  c.low_of = constant_curve(o.low.value_or(0.0));
  c.high_of = constant_curve(o.high.value_or(o.mean));
  notes_.ci_method = fmt::format("Monte Carlo T_o ({})", o.method);
  notes_.warnings.insert(o.warnings.begin(), o.warnings.end());
  if (!o.exact) {
    notes_.exact_exists = false;
    notes_.exact_reason = "the simulated collective has no closed form under this noise";
  }
  return c;
}

ImbalanceSolution CurveSolver::family_solution(double m, const CommunicationAt& to,
                                               bool& any_w) const {
  ImbalanceSolution r;
  r.tq = [family = family_, m](double x) { return family(x, m); };
  r.w = solve(m, r.tq, to.of, any_w);
  // The interval of W: both overheads at the low (high) ends of their intervals.
  r.low = solve(m, r.tq, to.low_of, any_w);
  r.high = solve(m, r.tq, to.high_of, any_w);
  r.exact = solve_exact(m, r.tq, to, any_w);
  return r;
}

ImbalanceSolution CurveSolver::noise_solution(double m, const CommunicationAt& to, bool& any_w) {
  const Estimate y = max_of_m(s_, key_, m);
  notes_.warnings.insert(y.warnings.begin(), y.warnings.end());
  notes_.ci_method = "Monte Carlo T_q (" + y.method + ")" +
                     (s_.comm_simulated ? ", " + notes_.ci_method : std::string());
  // T_q for a maximum of m delays `ymax`: absolute, or in proportion to each node's work.
  const auto tq_for = [&](double ymax) -> Curve {
    if (s_.proportional)
      return [p = s_.p, overhead = s_.overhead, m, ymax](double x) {
        return x / (p * m) * overhead * ymax;
      };
    return constant_curve(s_.scale * ymax);
  };
  ImbalanceSolution r;
  r.tq = tq_for(y.mean);
  r.w = solve(m, r.tq, to.of, any_w);
  if (y.low) r.low = solve(m, tq_for(*y.low), to.low_of, any_w);
  if (y.high) r.high = solve(m, tq_for(*y.high), to.high_of, any_w);
  r.exact = solve_exact(m, tq_for(s_.law->expected_max(m)), to, any_w);
  if (!s_.proportional) {
    r.tq_low = y.low ? std::optional<double>(s_.scale * *y.low) : std::nullopt;
    r.tq_high = y.high ? std::optional<double>(s_.scale * *y.high) : std::nullopt;
  }
  return r;
}

ImbalanceSolution CurveSolver::granularity_solution(double m, const CommunicationAt& to,
                                                    bool& any_w) {
  notes_.ci_method = "Monte Carlo T_q (student_t, common random numbers across W)" +
                     (s_.comm_simulated ? ", " + notes_.ci_method : std::string());
  notes_.exact_exists = false;
  notes_.exact_reason = "granularity imbalance has no closed form";
  const auto at = [this, m](double x) { return granularity(s_, key_, m, x, threads_); };
  ImbalanceSolution r;
  r.tq = [at](double x) { return at(x).mean; };
  r.w = solve(m, r.tq, to.of, any_w);
  r.low = solve(
      m, [at](double x) { return at(x).low.value_or(0.0); }, to.low_of, any_w);
  r.high = solve(
      m,
      [at](double x) {
        const Estimate e = at(x);
        return e.high.value_or(e.mean);
      },
      to.high_of, any_w);
  return r;
}

ImbalanceSolution CurveSolver::solve_imbalance(double m, const CommunicationAt& to, bool& any_w) {
  switch (s_.imbalance) {
    case Spec::Imbalance::kFamily:
      return family_solution(m, to, any_w);
    case Spec::Imbalance::kNoise:
      return noise_solution(m, to, any_w);
    case Spec::Imbalance::kGranularity:
      return granularity_solution(m, to, any_w);
  }
  throw std::logic_error("unknown imbalance kind");
}

CurveRow CurveSolver::row(double m) {
  CurveRow row;
  row.m = m;
  const CommunicationAt to = communication(m);
  const ImbalanceSolution tq = solve_imbalance(m, to, row.any_w);
  row.overheads = [tq = tq.tq, to = to.of](double x) { return tq(x) + to(x); };
  // Where E does not depend on W, its value (the same at every W).
  row.efficiency_any_w = efficiency(1.0, m, s_.p, tq.tq(1.0) + to.of(1.0));
  row.w = tq.w;
  row.w_low = tq.low;
  row.w_high = tq.high;
  row.w_exact = tq.exact;
  if (!tq.w) {
    row.to = to.mean;
    row.to_low = to.low;
    row.to_high = to.high;
    return row;
  }
  const double w = *tq.w;
  const bool family = s_.imbalance == Spec::Imbalance::kFamily;
  const Estimate g = s_.imbalance == Spec::Imbalance::kGranularity
                         ? granularity(s_, key_, m, w, threads_)
                         : Estimate{tq.tq(w), tq.tq_low, tq.tq_high, "", "", {}};
  row.tq = g.mean;
  row.tq_low = family ? std::optional(g.mean) : g.low;
  row.tq_high = family ? std::optional(g.mean) : g.high;
  row.to = to.of(w);
  row.to_low = s_.comm_simulated ? to.low : std::optional(to.low_of(w));
  row.to_high = s_.comm_simulated ? to.high : std::optional(to.high_of(w));
  return row;
}

// How W grows with m under the imbalance alone, as the theory predicts.
PredictedGrowth imbalance_growth_of(const Spec& s) {
  switch (s.imbalance) {
    case Spec::Imbalance::kFamily:
      return predicted_growth(s.imbalance_family);
    case Spec::Imbalance::kGranularity:
      return {std::nullopt, "granularity imbalance: no closed-form growth", true};
    case Spec::Imbalance::kNoise:
      break;
  }
  const double a = s.law->tail_index();
  if (s.proportional)
    return {std::nullopt,
            "delays proportional to each node's work: E = 1/(1 + f/(1-f) "
            "E[Y^m]) does not depend on W, so no W keeps it as m grows",
            false};
  if (std::isfinite(a)) return {1.0 + 1.0 / a, "", true};  // E[Y^m] ~ m^(1/a)
  // A light tail whose law has a closed form of E[max] may say how it grows (H_m ~ ln m).
  if (const auto note = s.law->max_growth_note()) return {std::nullopt, *note, true};
  if (std::isfinite(s.law->support_max()))
    return {1.0, "", true};  // a bounded delay: E[Y^m] tends to its maximum
  return {std::nullopt,
          "W = K m s E[Y^m]: a light but unbounded tail grows slower than any power of m, not a "
          "power law",
          true};
}

std::string imbalance_name(const Spec& s) {
  switch (s.imbalance) {
    case Spec::Imbalance::kFamily:
      return to_string(s.imbalance_family);
    case Spec::Imbalance::kNoise:
      return fmt::format("{} noise ({})", s.proportional ? "proportional" : "absolute",
                         s.law->describe());
    case Spec::Imbalance::kGranularity:
      break;
  }
  return fmt::format("granularity ({} jobs of mean {}, {})",
                     s.law ? s.law->describe() : std::string("equal"), s.job_mean,
                     s.assignment == Assignment::kBlock    ? "block"
                     : s.assignment == Assignment::kCyclic ? "cyclic"
                                                           : "random");
}

bool without_overhead(const Spec& s) {
  return s.imbalance == Spec::Imbalance::kFamily && s.imbalance_family == OverheadFamily::kNone &&
         !s.comm_simulated && s.comm_family == OverheadFamily::kNone;
}

// W with its interval and exact value, T_q and T_o with theirs.
void set_curve_fields(Record& r, const Spec& s, const CurveColumns& c, const AnalysisNotes& notes) {
  if (without_overhead(s)) {
    const Null why{"no overhead: every W keeps the efficiency at 1"};
    for (const FieldSpec* k : {&kW, &kWLow, &kWHigh, &kWExact}) r.put(*k, Field(why));
  } else {
    r.put(kW, Field(c.w));
    r.put(kWLow, Field(c.w_low));
    r.put(kWHigh, Field(c.w_high));
    r.put(kWExact, notes.exact_exists ? Field(c.w_exact) : Field(Null{notes.exact_reason}));
  }
  r.put(kWMethod, Field(notes.ci_method));
  r.put(kTq, Field(c.tq));
  r.put(kTqLow, Field(c.tq_low));
  r.put(kTqHigh, Field(c.tq_high));
  r.put(kTo, Field(c.to));
  r.put(kToLow, Field(c.to_low));
  r.put(kToHigh, Field(c.to_high));
  r.put(kSamplesPerM,
        Field(s.imbalance == Spec::Imbalance::kFamily ? std::uint64_t{0} : s.samples));
}

// The fitted growth exponent and the theory's, whether the curve scales.
void set_growth_fields(Record& r, const Spec& s, const CurveColumns& c) {
  const bool no_overhead = without_overhead(s);
  if (c.fit_m.size() >= 2 && !no_overhead) {
    const SlopeFit fit = log_log_slope(c.fit_m, c.fit_w, s.confidence);
    r.put(kGrowth, Field(fit.slope));
    r.put(kGrowthLow, fit.ci_low ? Field(*fit.ci_low) : Field(Null{fit.reason}));
    r.put(kGrowthHigh, fit.ci_high ? Field(*fit.ci_high) : Field(Null{fit.reason}));
  } else {
    const Null why{no_overhead ? "no overhead: no W to fit"
                               : "fewer than two node counts where the efficiency is reachable"};
    for (const FieldSpec* k : {&kGrowth, &kGrowthLow, &kGrowthHigh}) r.put(*k, Field(why));
  }
  const PredictedGrowth imbalance_growth = imbalance_growth_of(s);
  const PredictedGrowth comm_growth =
      s.comm_simulated ? PredictedGrowth{std::nullopt, "simulated collective", true}
                       : predicted_growth(s.comm_family);
  std::optional<double> predicted;
  std::string predicted_reason = imbalance_growth.reason;
  if (s.comm_family == OverheadFamily::kNone && !s.comm_simulated)
    predicted = imbalance_growth.exponent;
  else if (s.imbalance == Spec::Imbalance::kFamily && s.imbalance_family == OverheadFamily::kNone)
    predicted = comm_growth.exponent, predicted_reason = comm_growth.reason;
  else
    predicted = combine_exponents(imbalance_growth, comm_growth),
    predicted_reason = imbalance_growth.exponent ? comm_growth.reason : imbalance_growth.reason;
  if (!imbalance_growth.scalable)
    predicted = std::nullopt, predicted_reason = imbalance_growth.reason;
  r.put(kPredicted, predicted ? Field(*predicted) : Field(Null{predicted_reason}));
  r.put(kScalable, Field(imbalance_growth.scalable && c.every_m_reachable));
  if (!c.every_m_reachable)
    r.put(kScalableNote,
          Field(std::string("at some m no W reaches the target efficiency: W is null there")));
  if (!c.w_dependent) {
    r.put(kWNote,
          Field(std::string("the efficiency does not depend on W here: where it reaches the target "
                            "any W keeps it (W is null there), elsewhere none does")));
    r.put(kEfficiencyAnyW, Field(c.efficiency_any_w));
  }
}

// The efficiency surface E(W, m) from the point estimates, m-major.
void set_surface_fields(Record& r, const Spec& s, const CurveColumns& c) {
  Series surface_w, surface_m, surface_e;
  for (std::size_t i = 0; i < s.m.size(); ++i)
    for (double x : s.surface_w) {
      surface_m.push_back(s.m[i]);
      surface_w.push_back(x);
      surface_e.push_back(efficiency(x, s.m[i], s.p, c.overheads[i](x)));
    }
  r.put(kSurfaceW, Field(surface_w));
  r.put(kSurfaceM, Field(surface_m));
  r.put(kSurfaceE, Field(surface_e));
}

}  // namespace

std::vector<FieldSpec> isoefficiency_summary_fields() {
  return {kCurve,    kTarget,       kRate,       kM,
          kW,        kWLow,         kWHigh,      kWExact,
          kWMethod,  kTq,           kTqLow,      kTqHigh,
          kTo,       kToLow,        kToHigh,     kSamplesPerM,
          kGrowth,   kGrowthLow,    kGrowthHigh, kPredicted,
          kScalable, kScalableNote, kWNote,      kEfficiencyAnyW,
          kSurfaceW, kSurfaceM,     kSurfaceE};
}

IsoefficiencyStudy::IsoefficiencyStudy(IsoefficiencySpec spec) : spec_(std::move(spec)) {}

PointSummary IsoefficiencyStudy::analyse(int threads, const SampleProgress& progress) const {
  const Spec& s = spec_;
  CurveSolver solver(s, key_, threads);
  CurveColumns columns;
  for (std::size_t i = 0; i < s.m.size(); ++i) {
    columns.add(solver.row(s.m[i]));
    if (progress) progress(i + 1);
  }
  Record r;
  r.put(kCurve,
        Field(fmt::format("T_q: {}; T_o: {}; E = {}", imbalance_name(s), s.comm_name, s.target)));
  r.put(kTarget, Field(s.target));
  r.put(kRate, Field(s.p));
  r.put(kM, Field(series_of(s.m)));
  set_curve_fields(r, s, columns, solver.notes());
  set_growth_fields(r, s, columns);
  set_surface_fields(r, s, columns);
  const AnalysisNotes& notes = solver.notes();
  return {std::move(r), {notes.warnings.begin(), notes.warnings.end()}};
}

double IsoefficiencyStudy::estimated_cost() const {
  // Per m: the Monte Carlo imbalance (one maximum of m draws per sample, or for granularity
  // about 30 root-search evaluations of samples x jobs, taking W near 100 jobs a node), the
  // simulated collective, and the surface (bench/HISTORY.md, "Cost model").
  const Spec& s = spec_;
  double total = 1.0e-3;
  for (double m : s.m) {
    const double samples = static_cast<double>(s.samples);
    const double transform = s.law ? s.law->isf_seconds() : 0.0;
    if (s.imbalance == Spec::Imbalance::kNoise) total += samples * (transform + 5.0e-8);
    if (s.imbalance == Spec::Imbalance::kGranularity)
      total += 30.0 * samples * 101.0 * m * (5.0e-9 + transform);
    if (s.comm_cost) total += s.comm_cost(m);
  }
  if (s.imbalance == Spec::Imbalance::kGranularity)
    for (double m : s.m)
      total += static_cast<double>(s.surface_w.size()) * static_cast<double>(s.samples) *
               (1.0 + 100.0 * m) * 5.0e-9;
  return total;
}

double IsoefficiencyStudy::working_bytes(int threads) const {
  // The samples of one m, and per thread the loads of the granularity's nodes.
  const double largest_m =
      spec_.m.empty() ? 1.0 : *std::max_element(spec_.m.begin(), spec_.m.end());
  return 8.0 * static_cast<double>(spec_.samples) + threads * 8.0 * largest_m;
}

std::vector<TableColumn> IsoefficiencyStudy::columns() const {
  return {{kScalable.name, kScalable.name, ""},
          {"exponent", kGrowth.name, ""},
          {"ci_low", kGrowthLow.name, ""},
          {"ci_high", kGrowthHigh.name, ""},
          {"predicted", kPredicted.name, ""}};
}

PlotHints IsoefficiencyStudy::plot_hints() const {
  PlotHints hints;
  hints.figure = "isoefficiency";
  hints.x = kM.name;
  hints.show(kW, kWLow, kWHigh);
  hints.y_label = "W (work units)";
  hints.add_reference(kWExact);
  return hints;
}

}  // namespace collnoise
