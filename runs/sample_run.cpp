#include "runs/sample_run.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "estimators/mean_interval.hpp"
#include "estimators/quantile_interval.hpp"
#include "estimators/tree_theory.hpp"

namespace collnoise {
namespace {

constexpr std::size_t kTopCapacity = 8192;

const char* quantile_name(double p) {
  if (p == 0.5) return "median";
  if (p == 0.9) return "p90";
  if (p == 0.99) return "p99";
  return "p999";
}

Histogram make_histogram(const RunSpec& run, const TreeTheory& theory, const MaxDistribution& dist,
                         double tail_index) {
  double lo = theory.support_lower;
  double hi = dist.quantile(tail_index <= 4.0 ? 1.0 - 1e-7 : 1.0 - 1e-9);
  if (!(hi > lo)) hi = lo * (1.0 + 1e-9) + 1e-15;  // a degenerate (noiseless) phase time
  lo = std::nextafter(lo, 0.0);
  std::string spacing = run.output.histogram_spacing;
  if (spacing == "auto") spacing = (tail_index <= 4.0 && hi / lo > 4.0) ? "log" : "linear";
  return Histogram(lo, hi, run.output.histogram_bins,
                   spacing == "log" ? BinSpacing::kLog : BinSpacing::kLinear);
}

Field verdict(bool value) {
  return Field(value);
}

}  // namespace

const std::vector<double>& reported_probabilities() {
  static const std::vector<double> p = {0.5, 0.9, 0.99, 0.999};
  return p;
}

Record params_record(const TreePoint& point) {
  Record r;
  for (const auto& [key, value] : point.params) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, RankCount>) {
            r.set(key, Field(to_double(v)));
            r.set(key + "_string", Field(to_string(v)));
          } else {
            r.set(key, Field(v));
          }
        },
        value);
  }
  return r;
}

PointOutcome run_tree_point(const RunSpec& run, const TreePoint& point, int threads,
                            std::size_t points_in_run, const ChunkProgress& progress) {
  PointOutcome out;
  out.params = params_record(point);
  const TreeBarrierModel model = tree_model(point);
  const TreeTheory theory = tree_theory(model, reported_probabilities());
  const MaxDistribution dist = phase_time_distribution(model);
  const double tail_index = model.noise.scale > 0.0 ? model.noise.eta->tail_index()
                                                    : std::numeric_limits<double>::infinity();

  out.histogram = make_histogram(run, theory, dist, tail_index);
  out.top = TopValues(kTopCapacity);
  const TreeBarrierSampler sampler(model, point.sampling, point.stream_key);
  std::vector<double> buffer(run.chunk_size);
  for (std::uint64_t first = 0; first < run.samples; first += run.chunk_size) {
    const auto count =
        static_cast<std::size_t>(std::min<std::uint64_t>(run.chunk_size, run.samples - first));
    const std::span<double> phases(buffer.data(), count);
    sampler.sample(first, phases, threads);
    Accumulator chunk;
    for (double t : phases) {
      chunk.add(t);
      out.histogram.add(t);
      out.top.add(t);
    }
    if (run.output.raw_phase_times) out.raw.insert(out.raw.end(), phases.begin(), phases.end());
    out.chunks.push_back(chunk);
    out.total.merge(chunk);
    if (progress) progress(first + count);
  }

  const double level = run.confidence;
  const double shift = theory.support_lower;
  const MeanInterval ci = mean_interval(out.total, out.top, shift, tail_index, level);
  const double adjusted_level =
      1.0 - (1.0 - level) / static_cast<double>(std::max<std::size_t>(points_in_run, 1));
  const MeanInterval ci_adjusted =
      mean_interval(out.total, out.top, shift, tail_index, adjusted_level);

  Record& s = out.summary;
  s.set("samples", Field(out.total.count));
  s.set("mean", Field(out.total.mean));
  s.set("ci_low", ci.ci_low);
  s.set("ci_high", ci.ci_high);
  s.set("confidence", Field(level));
  s.set("ci_method", Field(ci.method));
  s.set("standard_error", ci.standard_error);
  s.set("mean_tail_corrected", ci.corrected_mean);
  if (tail_index > 2.0)
    s.set("sd", Nullable::of(out.total.sd()));
  else
    s.set("sd", Nullable::null("tail index <= 2: the variance is infinite"));
  s.set("min", Field(out.total.min));
  s.set("max", Field(out.total.max));
  if (std::isfinite(tail_index))
    s.set("tail_index", Nullable::of(tail_index));
  else
    s.set("tail_index", Nullable::null("light tail (all moments finite)"));
  const auto top_values = out.top.descending();
  s.set("tail_index_hill",
        hill_tail_index(top_values, tail_order_count(out.total.count, top_values.size()), shift));
  s.set("exact_mean", theory.exact_mean);
  s.set("exact_sd", theory.exact_sd);

  // Verdicts against the exact mean.
  const auto& exact = theory.exact_mean;
  const auto in_interval = [&](const MeanInterval& interval) -> Field {
    if (!exact.has_value()) return Null{exact.reason};
    if (!interval.ci_low.has_value()) return Null{interval.ci_low.reason};
    return verdict(*interval.ci_low.value <= *exact.value &&
                   *exact.value <= *interval.ci_high.value);
  };
  s.set("exact_in_ci", in_interval(ci));
  s.set("exact_in_ci_adjusted", in_interval(ci_adjusted));
  s.set("adjusted_confidence", Field(adjusted_level));
  if (exact.has_value() && ci.standard_error.has_value() && *ci.standard_error.value > 0.0) {
    const double center = ci.corrected_mean.has_value() ? *ci.corrected_mean.value : out.total.mean;
    s.set("z_score", Field((center - *exact.value) / *ci.standard_error.value));
  } else {
    s.set("z_score", Field(Null{exact.has_value() ? "no standard error" : exact.reason}));
  }
  const auto overlaps = [&](const Nullable& lo, const Nullable& hi) -> Field {
    if (!lo.has_value()) return Null{lo.reason};
    if (!ci.ci_low.has_value()) return Null{ci.ci_low.reason};
    return verdict(*ci.ci_high.value >= *lo.value && *ci.ci_low.value <= *hi.value);
  };
  s.set("within_theorem1", overlaps(theory.theorem1_lower, theory.theorem1_upper));
  s.set("within_bounds", overlaps(theory.bound_lower, theory.bound_upper));
  s.set("theorem1_lower", theory.theorem1_lower);
  s.set("theorem1_lower_corrected", theory.theorem1_lower_corrected);
  s.set("theorem1_upper", theory.theorem1_upper);
  s.set("bound_lower", theory.bound_lower);
  s.set("bound_upper", theory.bound_upper);
  s.set("theorem2_lower", theory.theorem2_lower);
  s.set("theorem3_lower", theory.theorem3_lower);
  s.set("theorem4_lower", theory.theorem4_lower);
  s.set("noiseless_time", Field(model.w + 2.0 * model.tau * model.shape.depth()));

  for (std::size_t i = 0; i < theory.quantile_probabilities.size(); ++i) {
    const double p = theory.quantile_probabilities[i];
    const std::string name = quantile_name(p);
    const QuantileEstimate q = quantile_from_histogram(out.histogram, p, level);
    s.set(name, q.estimate);
    s.set(name + "_ci_low", q.ci_low);
    s.set(name + "_ci_high", q.ci_high);
    s.set(name + "_exact", Nullable::of(theory.exact_quantiles[i]));
    s.set(name + "_resolution", q.resolution);
  }
  std::string warnings;
  for (const auto& w : ci.warnings) warnings += (warnings.empty() ? "" : "; ") + w;
  s.set("warnings", Field(warnings));
  return out;
}

}  // namespace collnoise
