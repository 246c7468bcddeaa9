#include "engine/isoefficiency/isoefficiency_study.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "core/parallel_for.hpp"
#include "core/rng.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/none.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/cycles/loggops_keys.hpp"
#include "engine/isoefficiency/simulated_overhead.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

using Spec = IsoefficiencySpec;

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

}  // namespace

IsoefficiencyStudy::IsoefficiencyStudy(IsoefficiencySpec spec) : spec_(std::move(spec)) {}

Record IsoefficiencyStudy::analyse(int threads, const SampleProgress& progress) const {
  const Spec& s = spec_;
  const Overhead family = overhead_of(s.imbalance_family, s.c1, s.c2);
  const Overhead comm = overhead_of(s.comm_family, s.comm_c1, s.comm_c2);
  Series w_est, w_low, w_high, w_exact, tq_est, tq_low, tq_high, to_est, to_low, to_high,
      efficiency_any_w;
  std::vector<double> fit_m, fit_w;
  bool exact_exists = true;
  std::string exact_reason;
  bool every_m_reachable = true;
  bool w_dependent = true;  // false once E turned out not to depend on W
  std::vector<std::function<double(double)>> point_overheads;  // for the surface
  std::string ci_method = "exact (closed form, no sampling)";
  std::set<std::string> warnings;  // once each, whichever m raised them

  const int root_bits = s.imbalance == Spec::Imbalance::kGranularity ? kGranularityRootBits : 50;
  for (std::size_t i = 0; i < s.m.size(); ++i) {
    const double m = s.m[i];
    bool any_w = false;
    // T_o at W: its estimate and the ends of its interval (all three equal for a family).
    double to_mean = 0.0;
    std::optional<double> to_exact, to_lo_value, to_hi_value;
    std::function<double(double)> to_of, to_low_of, to_high_of;
    if (s.comm_simulated) {
      const SimulatedOverhead o = s.comm_simulated(m, threads, key_, s.confidence);
      to_mean = o.mean;
      to_exact = o.exact;
      to_lo_value = o.low;
      to_hi_value = o.high;
      to_of = [v = o.mean](double) { return v; };
      to_low_of = [v = o.low.value_or(0.0)](double) { return v; };
      to_high_of = [v = o.high.value_or(o.mean)](double) { return v; };
      ci_method = fmt::format("Monte Carlo T_o ({})", o.method);
      warnings.insert(o.warnings.begin(), o.warnings.end());
      if (!o.exact) {
        exact_exists = false;
        exact_reason = "the simulated collective has no closed form under this noise";
      }
    } else {
      to_of = [&comm, m](double w) { return comm(w, m); };
      to_low_of = to_high_of = to_of;
    }
    // A W at the bottom of the search range means the efficiency does not need any work: it
    // does not depend on W (proportional delays, no communication). There is no curve then.
    const auto meaningful = [&](std::optional<double> w) -> std::optional<double> {
      if (w && *w <= kSmallestW) {
        any_w = true;
        return std::nullopt;
      }
      return w;
    };
    using Curve = std::function<double(double)>;
    const auto solve_with = [&](const Curve& tq, const Curve& to) {
      return meaningful(isoefficiency_w([&](double w) { return tq(w) + to(w); }, m, s.p, s.target,
                                        kSmallestW, kLargestW, root_bits));
    };
    const auto solve = [&](const Curve& tq) { return solve_with(tq, to_of); };
    // The interval of W: both overheads at the low (high) ends of their intervals.
    const auto solve_low = [&](const Curve& tq) { return solve_with(tq, to_low_of); };
    const auto solve_high = [&](const Curve& tq) { return solve_with(tq, to_high_of); };
    const auto solve_exact = [&](const std::function<double(double)>& tq) {
      const auto to =
          to_exact ? std::function<double(double)>([v = *to_exact](double) { return v; }) : to_of;
      return meaningful(
          isoefficiency_w([&](double w) { return tq(w) + to(w); }, m, s.p, s.target, kSmallestW));
    };
    std::optional<double> w, lo, hi, exact;
    std::function<double(double)> tq_point;
    std::optional<double> tq_lo_at, tq_hi_at;
    switch (s.imbalance) {
      case Spec::Imbalance::kFamily: {
        tq_point = [&family, m](double x) { return family(x, m); };
        w = solve(tq_point);
        lo = solve_low(tq_point);
        hi = solve_high(tq_point);
        exact = solve_exact(tq_point);
        break;
      }
      case Spec::Imbalance::kNoise: {
        const Estimate y = max_of_m(s, key_, m);
        warnings.insert(y.warnings.begin(), y.warnings.end());
        ci_method = "Monte Carlo T_q (" + y.method + ")" +
                    (s.comm_simulated ? ", " + ci_method : std::string());
        const double exact_y = s.law->expected_max(m);
        const auto tq_for = [&](double ymax) -> std::function<double(double)> {
          if (s.proportional)
            return [&, ymax](double x) { return x / (s.p * m) * s.overhead * ymax; };
          return [&, ymax](double) { return s.scale * ymax; };
        };
        tq_point = tq_for(y.mean);
        w = solve(tq_point);
        if (y.low) lo = solve_low(tq_for(*y.low));
        if (y.high) hi = solve_high(tq_for(*y.high));
        exact = solve_exact(tq_for(exact_y));
        if (!s.proportional) {
          tq_lo_at = y.low ? std::optional<double>(s.scale * *y.low) : std::nullopt;
          tq_hi_at = y.high ? std::optional<double>(s.scale * *y.high) : std::nullopt;
        }
        break;
      }
      case Spec::Imbalance::kGranularity: {
        ci_method = "Monte Carlo T_q (student_t, common random numbers across W)" +
                    (s.comm_simulated ? ", " + ci_method : std::string());
        exact_exists = false;
        exact_reason = "granularity imbalance has no closed form";
        tq_point = [&, m](double x) { return granularity(s, key_, m, x, threads).mean; };
        w = solve(tq_point);
        lo = solve_low(
            [&, m](double x) { return granularity(s, key_, m, x, threads).low.value_or(0.0); });
        hi = solve_high([&, m](double x) {
          const Estimate e = granularity(s, key_, m, x, threads);
          return e.high.value_or(e.mean);
        });
        break;
      }
    }
    point_overheads.push_back([tq_point, to_of](double x) { return tq_point(x) + to_of(x); });
    // Where E does not depend on W, its value (the same at every W).
    efficiency_any_w.push_back(efficiency(1.0, m, s.p, tq_point(1.0) + to_of(1.0)));
    if (any_w) w_dependent = false;
    w_est.push_back(w);
    w_low.push_back(lo);
    w_high.push_back(hi);
    w_exact.push_back(exact);
    if (w) {
      const Estimate g = s.imbalance == Spec::Imbalance::kGranularity
                             ? granularity(s, key_, m, *w, threads)
                             : Estimate{tq_point(*w), tq_lo_at, tq_hi_at, "", "", {}};
      tq_est.push_back(g.mean);
      tq_low.push_back(s.imbalance == Spec::Imbalance::kFamily ? std::optional(g.mean) : g.low);
      tq_high.push_back(s.imbalance == Spec::Imbalance::kFamily ? std::optional(g.mean) : g.high);
      to_est.push_back(to_of(*w));
      to_low.push_back(s.comm_simulated ? to_lo_value : std::optional(to_low_of(*w)));
      to_high.push_back(s.comm_simulated ? to_hi_value : std::optional(to_high_of(*w)));
      fit_m.push_back(m);
      fit_w.push_back(*w);
    } else {
      if (!any_w) every_m_reachable = false;
      tq_est.push_back(std::nullopt);
      tq_low.push_back(std::nullopt);
      tq_high.push_back(std::nullopt);
      to_est.push_back(to_mean);
      to_low.push_back(to_lo_value);
      to_high.push_back(to_hi_value);
    }
    if (progress) progress(i + 1);
  }

  Record r;
  const std::string imbalance_name =
      s.imbalance == Spec::Imbalance::kFamily ? to_string(s.imbalance_family)
      : s.imbalance == Spec::Imbalance::kNoise
          ? fmt::format("{} noise ({})", s.proportional ? "proportional" : "absolute",
                        s.law->describe())
          : fmt::format("granularity ({} jobs of mean {}, {})",
                        s.law ? s.law->describe() : std::string("equal"), s.job_mean,
                        s.assignment == Assignment::kBlock    ? "block"
                        : s.assignment == Assignment::kCyclic ? "cyclic"
                                                              : "random");
  r.set("curve",
        Field(fmt::format("T_q: {}; T_o: {}; E = {}", imbalance_name, s.comm_name, s.target)));
  r.set("efficiency_target", Field(s.target));
  r.set("p", Field(s.p));
  r.set("m", Field(series_of(s.m)));
  const bool no_overhead = s.imbalance == Spec::Imbalance::kFamily &&
                           s.imbalance_family == OverheadFamily::kNone && !s.comm_simulated &&
                           s.comm_family == OverheadFamily::kNone;
  if (no_overhead) {
    const Null why{"no overhead: every W keeps the efficiency at 1"};
    for (const char* k : {"W", "W_ci_low", "W_ci_high", "W_exact"}) r.set(k, Field(why));
  } else {
    r.set("W", Field(w_est));
    r.set("W_ci_low", Field(w_low));
    r.set("W_ci_high", Field(w_high));
    if (exact_exists)
      r.set("W_exact", Field(w_exact));
    else
      r.set("W_exact", Field(Null{exact_reason}));
  }
  r.set("W_ci_method", Field(ci_method));
  r.set("confidence", Field(s.confidence));
  r.set("T_q", Field(tq_est));
  r.set("T_q_ci_low", Field(tq_low));
  r.set("T_q_ci_high", Field(tq_high));
  r.set("T_o", Field(to_est));
  r.set("T_o_ci_low", Field(to_low));
  r.set("T_o_ci_high", Field(to_high));
  r.set("samples_per_m",
        Field(s.imbalance == Spec::Imbalance::kFamily ? std::uint64_t{0} : s.samples));

  // Growth: the fitted exponent, and the theory's.
  if (fit_m.size() >= 2 && !no_overhead) {
    const SlopeFit fit = log_log_slope(fit_m, fit_w, s.confidence);
    r.set("growth_exponent", Field(fit.slope));
    r.set("growth_exponent_ci_low", fit.ci_low ? Field(*fit.ci_low) : Field(Null{fit.reason}));
    r.set("growth_exponent_ci_high", fit.ci_high ? Field(*fit.ci_high) : Field(Null{fit.reason}));
  } else {
    const Null why{no_overhead ? "no overhead: no W to fit"
                               : "fewer than two node counts where the efficiency is reachable"};
    for (const char* k : {"growth_exponent", "growth_exponent_ci_low", "growth_exponent_ci_high"})
      r.set(k, Field(why));
  }
  PredictedGrowth imbalance_growth;
  switch (s.imbalance) {
    case Spec::Imbalance::kFamily:
      imbalance_growth = predicted_growth(s.imbalance_family);
      break;
    case Spec::Imbalance::kGranularity:
      imbalance_growth = {std::nullopt, "granularity imbalance: no closed-form growth", true};
      break;
    case Spec::Imbalance::kNoise: {
      const double a = s.law->tail_index();
      if (s.proportional)
        imbalance_growth = {std::nullopt,
                            "delays proportional to each node's work: E = 1/(1 + f/(1-f) "
                            "E[Y^m]) does not depend on W, so no W keeps it as m grows",
                            false};
      else if (std::isfinite(a))
        imbalance_growth = {1.0 + 1.0 / a, "", true};  // E[Y^m] ~ m^(1/a)
      else if (s.law->name() == "exponential")
        imbalance_growth = {std::nullopt,
                            "m H_m is not a power law (its log-log slope is 1 + 1/H_m)", true};
      else if (std::isfinite(s.law->support_max()))
        imbalance_growth = {1.0, "", true};  // a bounded delay: E[Y^m] tends to its maximum
      else
        imbalance_growth = {std::nullopt,
                            "W = K m s E[Y^m]: a light but unbounded tail grows slower than any "
                            "power of m, not a power law",
                            true};
      break;
    }
  }
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
  r.set("predicted_exponent", predicted ? Field(*predicted) : Field(Null{predicted_reason}));
  r.set("scalable", Field(imbalance_growth.scalable && every_m_reachable));
  if (!every_m_reachable)
    r.set("scalable_note",
          Field(std::string("at some m no W reaches the target efficiency: W is null there")));
  if (!w_dependent) {
    r.set("W_note",
          Field(std::string("the efficiency does not depend on W here: where it reaches the target "
                            "any W keeps it (W is null there), elsewhere none does")));
    r.set("efficiency_any_W", Field(efficiency_any_w));
  }

  // Efficiency surface E(W, m) from the point estimates, m-major.
  Series surface_w, surface_m, surface_e;
  for (std::size_t i = 0; i < s.m.size(); ++i)
    for (double x : s.surface_w) {
      surface_m.push_back(s.m[i]);
      surface_w.push_back(x);
      surface_e.push_back(efficiency(x, s.m[i], s.p, point_overheads[i](x)));
    }
  r.set("surface_W", Field(surface_w));
  r.set("surface_m", Field(surface_m));
  r.set("surface_E", Field(surface_e));
  r.set("warnings", Field(join_warnings({warnings.begin(), warnings.end()})));
  // W in work units, overheads in seconds; m counts nodes, E and the exponents are pure numbers.
  r.set_unit({"W", "W_ci_low", "W_ci_high", "W_exact", "surface_W"}, "work units");
  r.set_unit({"T_q", "T_q_ci_low", "T_q_ci_high", "T_o", "T_o_ci_low", "T_o_ci_high"}, "seconds");
  r.set_unit("p", "work units per second");
  return r;
}

double IsoefficiencyStudy::estimated_cost() const {
  // Per m: the Monte Carlo imbalance (one maximum of m draws per sample, or for granularity
  // about 30 root-search evaluations of samples x jobs, taking W near 100 jobs a node), the
  // simulated collective, and the surface (bench/RESULTS.md, "Cost model").
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
  return {{"scalable", "scalable", ""},
          {"exponent", "growth_exponent", ""},
          {"ci_low", "growth_exponent_ci_low", ""},
          {"ci_high", "growth_exponent_ci_high", ""},
          {"predicted", "predicted_exponent", ""}};
}

PlotHints IsoefficiencyStudy::plot_hints() const {
  PlotHints hints;
  hints.figure = "isoefficiency";
  hints.x = "m";
  hints.y = "W";
  hints.y_low = "W_ci_low";
  hints.y_high = "W_ci_high";
  hints.y_label = "W (work units)";
  hints.references = {"W_exact"};
  return hints;
}

namespace {

const KeySpec kEfficiency{.name = "isoefficiency.efficiency",
                          .meaning = "the target efficiency",
                          .bounds = {0.0, 1.0, true, true}};
const KeySpec kP{.name = "isoefficiency.p",
                 .meaning = "work units per second per node",
                 .unit = "work units per second",
                 .fallback = 1.0,
                 .bounds = {0.0, 1.0e18, true, false}};
const KeySpec kM{.name = "isoefficiency.m",
                 .type = KeyType::kNumberList,
                 .meaning = "node counts (integers >= 1)",
                 .bounds = {1.0, 1.0e12},
                 .optional = true};
const KeySpec kLog2M{.name = "isoefficiency.log2_m",
                     .type = KeyType::kNumberList,
                     .meaning = "node counts as powers of two (integers in [0, 40])",
                     .bounds = {0.0, 40.0},
                     .optional = true};
const KeySpec kSurfaceW{.name = "isoefficiency.surface_W",
                        .type = KeyType::kNumberList,
                        .meaning = "W values of the efficiency surface",
                        .unit = "work units",
                        .bounds = {0.0, 1.0e18, true, false},
                        .optional = true};
const KeySpec kSamples{.name = "isoefficiency.samples",
                       .type = KeyType::kInteger,
                       .meaning =
                           "Monte Carlo samples per m (default: the run's samples, else "
                           "10000)",
                       .bounds = {2.0, 1099511627776.0},
                       .identity = false};
const KeySpec kImbalance{.name = "isoefficiency.imbalance",
                         .type = KeyType::kText,
                         .meaning =
                             "a family (none, constant, linear_m, inverse_m, "
                             "proportional_w, inverse_w, log2_m), granularity or noise",
                         .fallback = std::string("none")};
const KeySpec kC1{.name = "isoefficiency.c1",
                  .meaning = "the imbalance family's first constant",
                  .unit =
                      "seconds (s x nodes for inverse_m, s per work unit for proportional_w, s x "
                      "work units for inverse_w)",
                  .fallback = 0.0,
                  .bounds = {0.0, 1.0e12}};
const KeySpec kC2{.name = "isoefficiency.c2",
                  .meaning = "the imbalance family's second constant (linear_m)",
                  .unit = "seconds per node",
                  .fallback = 0.0,
                  .bounds = {0.0, 1.0e12}};
const KeySpec kJobMean{.name = "isoefficiency.job_mean",
                       .meaning = "mean job size (granularity)",
                       .unit = "work units",
                       .bounds = {0.0, 1.0e12, true, false}};
const KeySpec kAssignment{.name = "isoefficiency.assignment",
                          .type = KeyType::kChoice,
                          .meaning = "how jobs go to nodes (granularity)",
                          .fallback = std::string("block"),
                          .choices = {"block", "cyclic", "random"}};
const KeySpec kDelay{.name = "isoefficiency.delay",
                     .type = KeyType::kChoice,
                     .meaning = "noise delays absolute (seconds) or proportional to the work",
                     .fallback = std::string("absolute"),
                     .choices = {"absolute", "proportional"}};
const KeySpec kScale{.name = "isoefficiency.scale",
                     .meaning = "the mean absolute delay",
                     .unit = "seconds",
                     .bounds = {0.0, kMaxSeconds, true, false}};
const KeySpec kOverhead{.name = "isoefficiency.overhead",
                        .type = KeyType::kText,
                        .meaning = "communication overhead: a family, tree_barrier or butterfly",
                        .fallback = std::string("none")};
const KeySpec kOverheadC1{.name = "isoefficiency.overhead_c1",
                          .meaning = "the overhead family's first constant",
                          .unit =
                              "seconds (s x nodes for inverse_m, s per work unit for "
                              "proportional_w, s x work units for inverse_w)",
                          .fallback = 0.0,
                          .bounds = {0.0, 1.0e12}};
const KeySpec kOverheadC2{.name = "isoefficiency.overhead_c2",
                          .meaning = "the overhead family's second constant (linear_m)",
                          .unit = "seconds per node",
                          .fallback = 0.0,
                          .bounds = {0.0, 1.0e12}};
const KeySpec kOverheadSamples{.name = "isoefficiency.overhead_samples",
                               .type = KeyType::kInteger,
                               .meaning =
                                   "samples of the simulated collective per m (default "
                                   "2000 for the tree barrier, 20 for the butterfly)",
                               .bounds = {2.0, 1099511627776.0},
                               .identity = false};
const KeySpec kTreeW{.name = "collective.w",
                     .meaning = "work per phase of the simulated tree barrier",
                     .unit = "seconds",
                     .bounds = {0.0, kMaxSeconds, true, false}};
const KeySpec kTreeTau{.name = "collective.tau",
                       .meaning = "latency per hop of the simulated tree barrier",
                       .unit = "seconds",
                       .fallback = 0.0,
                       .bounds = {0.0, kMaxSeconds}};

KeySpec with_default(KeySpec spec, ParamValue fallback) {
  spec.fallback = std::move(fallback);
  return spec;
}

void needs_positive(bool used, const KeySpec& key, double value) {
  if (used && !(value > 0.0))
    throw InputError(
        fmt::format("{} = {} is invalid: this overhead needs a value > 0", key.name, value));
}

std::vector<double> read_node_counts(ParamReader& reader) {
  if (reader.has(kM.name) == reader.has(kLog2M.name))
    throw InputError("give exactly one of isoefficiency.m and isoefficiency.log2_m");
  std::vector<double> m;
  if (reader.has(kM.name)) {
    m = reader.numbers(kM);
  } else {
    for (double k : reader.numbers(kLog2M)) {
      if (k != std::floor(k))
        throw InputError(fmt::format("isoefficiency.log2_m: {} is not an integer in [0, 40]", k));
      m.push_back(std::ldexp(1.0, static_cast<int>(k)));
    }
  }
  if (m.empty()) throw InputError("isoefficiency.m is empty");
  for (double x : m)
    if (x != std::floor(x))
      throw InputError(fmt::format("isoefficiency.m: {} is not a node count (an integer >= 1)", x));
  return m;
}

// A per-stage law of [noise] read as a unit-mean shape, for job sizes or absolute delays: f has
// no meaning there.
std::shared_ptr<const NoiseLaw> read_unit_shape(ParamReader& reader, const char* refusal) {
  if (names_time_noise(reader, "noise") || reader.has("noise.f")) throw InputError(refusal);
  return read_unit_law(reader, "noise");
}

// T_o(m) by simulating a tree barrier (per-level phases) or one butterfly allreduce.
void read_simulated_overhead(IsoefficiencySpec& s, ParamReader& reader, const std::string& kind,
                             bool collective_noise) {
  const auto samples = static_cast<std::uint64_t>(reader.integer(
      with_default(kOverheadSamples, std::int64_t{kind == "tree_barrier" ? 2000 : 20})));
  if (kind == "tree_barrier") {
    TreeBarrierModel base;
    base.w = reader.number(kTreeW);
    base.tau = reader.number(kTreeTau);
    if (collective_noise && names_time_noise(reader, "noise"))
      throw InputError("a tree-barrier overhead takes a per-stage [noise] law");
    base.noise = collective_noise ? read_stage_noise(reader, "noise", base.w)
                                  : StageNoise{std::make_shared<const NoneLaw>(), 0.0, 0.0};
    s.comm_simulated = tree_barrier_overhead(base, samples);
    // Per-level phases of log2(m) + 1 levels, and an exact mean (bench/RESULTS.md).
    s.comm_cost = [samples, transform = base.noise.eta->isf_seconds()](double m) {
      return static_cast<double>(samples) * (std::log2(m) + 1.0) * (3.0e-8 + transform) + 2.0e-3;
    };
    return;
  }
  CycleSetup base;
  base.algorithm = CycleAlgorithm::kButterfly;
  base.cycles = 1;
  base.work = 0.0;
  base.net = read_loggops(reader);
  for (double m : s.m)
    if (std::bit_floor(static_cast<std::uint64_t>(m)) != static_cast<std::uint64_t>(m) ||
        m > 1 << 24)
      throw InputError(fmt::format(
          "isoefficiency.m: {} is not a power of two up to 2^24, as a butterfly overhead needs",
          m));
  CpuNoiseSpec cpu;
  if (collective_noise) {
    if (!names_time_noise(reader, "noise")) {
      cpu.stage = read_stage_noise(reader, "noise", 0.0);
    } else {
      cpu.time = read_time_noise(reader, "noise");
      const double rounds = std::log2(*std::max_element(s.m.begin(), s.m.end()));
      check_time_noise_horizon(*cpu.time, rounds * base.net.noiseless_round(), 1.0 + 4.0 * rounds);
    }
  }
  s.comm_simulated = butterfly_overhead(base, cpu, samples);
  // One cycle of the fast engine: about 10 ns a rank-round with noise.
  s.comm_cost = [samples](double m) {
    return static_cast<double>(samples) * 1.0e-8 * m * std::max(std::log2(m), 1.0);
  };
}

void prepare_isoefficiency(PreparedPoint& point, ParamReader& reader, const RunContext& run) {
  IsoefficiencySpec s;
  s.target = reader.number(kEfficiency);
  s.p = reader.number(kP);
  s.m = read_node_counts(reader);
  if (reader.has(kSurfaceW.name)) s.surface_w = reader.numbers(kSurfaceW);
  // A curve may take fewer samples than the run (granularity costs O(W) a sample).
  const std::int64_t default_samples =
      run.samples > 0 ? static_cast<std::int64_t>(std::min<std::uint64_t>(run.samples, 1ULL << 40))
                      : 10000;
  s.samples = static_cast<std::uint64_t>(reader.integer(with_default(kSamples, default_samples)));
  s.confidence = run.confidence;

  const std::string imbalance = reader.text(kImbalance);
  const auto family = overhead_family(imbalance);
  s.c1 = reader.number(kC1);
  s.c2 = reader.number(kC2);
  const bool noise = reader.has("noise.law");
  bool noise_used = false;
  if (family) {
    s.imbalance = IsoefficiencySpec::Imbalance::kFamily;
    s.imbalance_family = *family;
  } else if (imbalance == "granularity") {
    s.imbalance = IsoefficiencySpec::Imbalance::kGranularity;
    s.job_mean = reader.number(kJobMean);
    const std::string assignment = reader.text(kAssignment);
    s.assignment = assignment == "block"    ? Assignment::kBlock
                   : assignment == "cyclic" ? Assignment::kCyclic
                                            : Assignment::kRandom;
    if (noise) {
      s.law = read_unit_shape(reader,
                              "job sizes take a unit-mean law of distributions/ without noise.f "
                              "(sizes are isoefficiency.job_mean times it)");
      noise_used = true;
    }
  } else if (imbalance == "noise") {
    s.imbalance = IsoefficiencySpec::Imbalance::kNoise;
    if (!noise || names_time_noise(reader, "noise"))
      throw InputError("isoefficiency.imbalance = \"noise\" needs a per-stage law in [noise]");
    s.proportional = reader.text(kDelay) == "proportional";
    if (s.proportional) {
      const StageNoise stage = read_stage_noise(reader, "noise", 1.0);
      s.law = stage.eta;
      s.overhead = stage.overhead;
    } else {
      if (reader.has("noise.f"))
        throw InputError(
            "noise.f scales delays proportional to the work: absolute delays take "
            "isoefficiency.scale (seconds) instead");
      s.scale = reader.number(kScale);
      s.law = read_unit_law(reader, "noise");
    }
    noise_used = true;
  } else {
    throw InputError(fmt::format(
        "isoefficiency.imbalance = \"{}\" is invalid: use none, constant, linear_m, inverse_m, "
        "proportional_w, inverse_w, log2_m, granularity or noise",
        imbalance));
  }
  needs_positive(family && *family != OverheadFamily::kNone && *family != OverheadFamily::kLinearM,
                 kC1, s.c1);
  needs_positive(family == OverheadFamily::kLinearM, kC2, s.c2);

  const std::string overhead = reader.text(kOverhead);
  s.comm_name = overhead;
  if (const auto comm = overhead_family(overhead)) {
    s.comm_family = *comm;
    s.comm_c1 = reader.number(kOverheadC1);
    s.comm_c2 = reader.number(kOverheadC2);
    needs_positive(*comm != OverheadFamily::kNone && *comm != OverheadFamily::kLinearM, kOverheadC1,
                   s.comm_c1);
    needs_positive(*comm == OverheadFamily::kLinearM, kOverheadC2, s.comm_c2);
  } else if (overhead == "tree_barrier" || overhead == "butterfly") {
    // The collective sees the [noise] law unless the imbalance already uses it.
    const bool collective_noise = noise && !noise_used;
    noise_used = noise_used || collective_noise;
    read_simulated_overhead(s, reader, overhead, collective_noise);
  } else {
    throw InputError(fmt::format(
        "isoefficiency.overhead = \"{}\" is invalid: use a family (none, constant, linear_m, "
        "inverse_m, proportional_w, inverse_w, log2_m) or a simulated collective (tree_barrier, "
        "butterfly)",
        overhead));
  }
  if (noise && !noise_used)
    throw InputError(
        "[noise] is not used by this isoefficiency curve (give it for imbalance = "
        "noise or granularity, or a simulated overhead)");
  point.kind = "isoefficiency";
  point.analysis = std::make_unique<IsoefficiencyStudy>(std::move(s));
}

}  // namespace

ModelKind isoefficiency_model_kind() {
  return {.name = "isoefficiency",
          .meaning = "isoefficiency curves W(m) under load imbalance and communication overhead",
          .keys = {kEfficiency, kP, kM, kLog2M, kSurfaceW, kSamples, kImbalance, kC1, kC2, kJobMean,
                   kAssignment, kDelay, kScale, kOverhead, kOverheadC1, kOverheadC2,
                   kOverheadSamples, kTreeW, kTreeTau},
          .takes = [](const ParamReader&,
                      const RunContext& run) { return run.run_kind == "isoefficiency"; },
          .prepare = prepare_isoefficiency};
}

}  // namespace collnoise
