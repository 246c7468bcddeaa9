#include "runs/work_estimate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/machine_memory.hpp"
#include "core/stop_request.hpp"
#include "runs/sampling_driver.hpp"

namespace collnoise {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Start-up (HDF5, the run file, writing the result) and a point's own bookkeeping (its summary,
// its part of the file), core-seconds (bench/HISTORY.md, "Cost model").
constexpr double kRunOverhead = 0.01;
constexpr double kPointOverhead = 2.0e-3;

// A sampled point's tally: per chunk an accumulator per metric and a co-moment per pair (and a
// map node), kept raw samples, histograms (edges and counts) and top values.
double tally_bytes(const RunSpec& run, const SampledStudy& study, double samples) {
  const TallyLayout shape = study.shape(1, run.output.histogram_spacing);
  const double chunk_size = static_cast<double>(chunk_plan(run, study).chunk_size);
  const double chunks = std::ceil(samples / chunk_size);
  double bytes = chunks * (48.0 * static_cast<double>(shape.metrics.size()) +
                           32.0 * static_cast<double>(shape.pairs.size()) + 96.0);
  if (run.output.raw_samples) bytes += 8.0 * samples;
  bytes += 16.0 * static_cast<double>(shape.histograms.size()) *
           static_cast<double>(run.output.histogram_bins + 1);
  for (const std::size_t capacity : shape.top_capacity)
    bytes += 8.0 * static_cast<double>(capacity);
  return bytes;
}

// The rows of the chunk being simulated.
double rows_bytes(const RunSpec& run, const SampledStudy& study) {
  const TallyLayout shape = study.shape(1, run.output.histogram_spacing);
  return 8.0 * static_cast<double>(chunk_plan(run, study).chunk_size) *
         static_cast<double>(shape.metrics.size());
}

std::string describe_point(const PreparedPoint& point, std::size_t index) {
  std::string params;
  for (const auto& [key, value] : point.params.fields()) {
    if (key.ends_with("_string")) continue;
    const Field* exact = point.params.find(key + "_string");
    std::string text = std::visit(
        [](const auto& v) -> std::string {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::string>)
            return v;
          else if constexpr (std::is_same_v<T, double>)
            return fmt::format("{:g}", v);
          else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t> ||
                             std::is_same_v<T, std::uint64_t>)
            return fmt::format("{}", v);
          else
            return "...";
        },
        exact ? *exact : value);
    params += fmt::format("{}{} = {}", params.empty() ? "" : ", ", key, text);
  }
  if (params.size() > 240) params = params.substr(0, 237) + "...";
  return fmt::format("point {} ({})", index, params);
}

}  // namespace

std::string describe_core_seconds(double seconds) {
  if (!std::isfinite(seconds)) return "an unbounded number of core-seconds";
  if (seconds < 120.0) return fmt::format("{:.3g} core-seconds", seconds);
  if (seconds < 7200.0) return fmt::format("{:.3g} core-minutes", seconds / 60.0);
  if (seconds < 48.0 * 3600.0) return fmt::format("{:.3g} core-hours", seconds / 3600.0);
  if (seconds < 3.15e9) return fmt::format("{:.3g} core-days", seconds / 86400.0);
  return fmt::format("{:.3g} core-years", seconds / 3.156e7);
}

std::string describe_duration(double seconds) {
  if (!std::isfinite(seconds)) return "for ever";
  if (seconds < 120.0) return fmt::format("{:.3g} s", seconds);
  if (seconds < 7200.0) return fmt::format("{:.3g} min", seconds / 60.0);
  if (seconds < 48.0 * 3600.0) return fmt::format("{:.3g} h", seconds / 3600.0);
  if (seconds < 3.15e9) return fmt::format("{:.3g} days", seconds / 86400.0);
  return fmt::format("{:.3g} years", seconds / 3.156e7);
}

std::string describe_bytes(double bytes) {
  if (bytes < 1024.0 * 1024.0) return fmt::format("{:.3g} KiB", bytes / 1024.0);
  if (bytes < kGiB) return fmt::format("{:.3g} MiB", bytes / (1024.0 * 1024.0));
  return fmt::format("{:.3g} GiB", bytes / kGiB);
}

RunEstimate estimate_run(const RunSpec& run, const std::vector<PreparedPoint>& points, int threads,
                         double samples_share) {
  RunEstimate e;
  double tallies = 0.0;
  double largest_working = 0.0;
  for (const auto& p : points) {
    throw_if_stop_requested();
    PointEstimate pe;
    if (p.sampled) {
      const double samples = static_cast<double>(run.samples) * samples_share;
      pe.core_seconds = samples * p.sampled->cost_per_sample() + p.sampled->fixed_cost();
      const double tally = tally_bytes(run, *p.sampled, samples);
      tallies += tally;
      const double working = p.sampled->working_bytes(threads) + rows_bytes(run, *p.sampled);
      largest_working = std::max(largest_working, working);
      pe.bytes = tally + working;
    } else {
      pe.core_seconds = p.analysis->estimated_cost();
      pe.bytes = p.analysis->working_bytes(threads);
      largest_working = std::max(largest_working, pe.bytes);
    }
    pe.core_seconds += kPointOverhead;
    e.core_seconds += pe.core_seconds;
    e.points.push_back(pe);
  }
  e.core_seconds += kRunOverhead;
  // Every point's tally is held until the result is written, and the result's image in memory
  // holds them once more.
  e.peak_bytes = 2.0 * tallies + largest_working + 64.0 * 1024 * 1024;
  return e;
}

WorkLimits work_limits(const RunSpec& run, double cli_core_hours, double cli_memory_gib,
                       int cores_in_use) {
  WorkLimits limits;
  const double core_hours = cli_core_hours > 0.0        ? cli_core_hours
                            : run.limits.max_core_hours ? *run.limits.max_core_hours
                                                        : 30.0 * 24.0 * cores_in_use;
  limits.max_core_seconds = 3600.0 * core_hours;
  limits.max_bytes = cli_memory_gib > 0.0        ? cli_memory_gib * kGiB
                     : run.limits.max_memory_gib ? *run.limits.max_memory_gib * kGiB
                                                 : 0.8 * machine_memory_bytes();
  return limits;
}

void check_work_limits(const RunSpec& run, const std::vector<PreparedPoint>& points,
                       const RunEstimate& estimate, const WorkLimits& limits) {
  const auto largest = [&](auto member) {
    std::size_t at = 0;
    for (std::size_t i = 1; i < estimate.points.size(); ++i)
      if (estimate.points[i].*member > estimate.points[at].*member) at = i;
    return at;
  };
  if (!(estimate.core_seconds <= limits.max_core_seconds)) {
    const std::size_t i = largest(&PointEstimate::core_seconds);
    throw InputError(fmt::format(
        "{}: the run would take about {} (limit {}); the largest is {}: {}; reduce it, or raise "
        "the limit with --max-core-hours or [limits] max_core_hours",
        run.path, describe_core_seconds(estimate.core_seconds),
        describe_core_seconds(limits.max_core_seconds), describe_point(points[i], i),
        describe_core_seconds(estimate.points[i].core_seconds)));
  }
  if (!(estimate.peak_bytes <= limits.max_bytes)) {
    const std::size_t i = largest(&PointEstimate::bytes);
    throw InputError(fmt::format(
        "{}: the run would need about {} of memory (limit {}); the largest is {}: {} (samples, "
        "output.histogram_bins, output.raw_samples and N drive it); reduce it, or raise the "
        "limit with --max-memory-gib or [limits] max_memory_gib",
        run.path, describe_bytes(estimate.peak_bytes), describe_bytes(limits.max_bytes),
        describe_point(points[i], i), describe_bytes(estimate.points[i].bytes)));
  }
}

}  // namespace collnoise
