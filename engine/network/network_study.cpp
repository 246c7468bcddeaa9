#include "engine/network/network_study.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <iterator>
#include <limits>
#include <regex>

#include "core/errors.hpp"
#include "core/parallel_for.hpp"
#include "core/rng.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/network/topology_keys.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

// The summary's fields, each declared once (core/field_spec.hpp).
const FieldSpec kProcesses{"processes", "", "processes of the collective"};
const FieldSpec kActive{"active_processes", "", "processes taking part in the collective"};
const FieldSpec kIdle{"idle_processes", "", "processes - active_processes"};
const FieldSpec kRounds{"rounds", "", "rounds of the collective"};
const FieldSpec kSamples{"samples", "", "samples of the point"};

// A metric the study tallies, and the fields of its mean, named after it (<metric>_mean, ...):
// the tally's unit of the metric and the fields' unit are the one declared here.
struct NetworkMetric {
  NetworkMetric(const std::string& metric, const std::string& unit_of_metric,
                const std::string& what)
      : name(metric), unit(unit_of_metric), mean(metric + "_", unit_of_metric, what) {}
  std::string name;
  std::string unit;
  MeanFields mean;
};

const std::string kCost = "message-times";
const NetworkMetric kSlowdown{"slowdown", "1", "the slowdown: cost_perturbed / cost_quiet"};
const NetworkMetric kCostPerturbed{"cost_perturbed", kCost,
                                   "the collective's cost with background traffic and OS delays"};
const NetworkMetric kCostQuiet{"cost_quiet", kCost, "the collective's cost with OS delays only"};
const NetworkMetric kCostClean{"cost_clean", kCost,
                               "the collective's cost without OS delays or background traffic"};
const NetworkMetric kSlowdownTotal{"slowdown_total", "1",
                                   "cost_perturbed / cost_clean: network and OS noise together"};
// The metrics in tally order: one sample's row (NetworkStudy::simulate) holds them so.
const NetworkMetric* const kMetrics[] = {&kSlowdown, &kCostPerturbed, &kCostQuiet, &kCostClean,
                                         &kSlowdownTotal};
constexpr std::size_t kWidth = std::size(kMetrics);
// The slowdown's quantiles, from its histogram (in the slowdown's unit).
const QuantileFields kSlowdownQuantiles{kSlowdown.name + "_", kSlowdown.unit, "the slowdown"};

}  // namespace

NetworkStudy::NetworkStudy(CongestionModel model) : model_(std::move(model)) {}

double NetworkStudy::primary_tail_index() const {
  // A ratio of congestion costs, bounded without OS noise; heavy OS delays make it heavy-tailed.
  return model_.os_tail_index();
}

TallyLayout NetworkStudy::layout(std::size_t histogram_bins, const std::string&) const {
  TallyLayout layout;
  for (const NetworkMetric* metric : kMetrics) {
    layout.metrics.push_back(metric->name);
    layout.metric_units.push_back(metric->unit);
  }
  layout.top_capacity.assign(layout.metrics.size(), 0);
  // Slowdowns are >= 1; a message can wait for at most every other message.
  const double hi = 2.0 + static_cast<double>(model_.endpoints());
  layout.histograms.push_back(
      {kSlowdown.name, 0, Histogram(1.0, hi, histogram_bins, BinSpacing::kLog), kSlowdown.unit});
  return layout;
}

void NetworkStudy::simulate(std::uint64_t first, std::span<double> rows,
                            std::span<Histogram* const>, int threads) const {
  const auto count = static_cast<std::int64_t>(rows.size() / kWidth);
  parallel_for(count, threads, [&](std::int64_t k) {
    const auto index = first + static_cast<std::uint64_t>(k);
    const NetworkSample s = model_.sample(stream_key(key_, StreamPurpose::kNetworkSample, index));
    double* row = rows.data() + static_cast<std::size_t>(k) * kWidth;  // in kMetrics' order
    row[0] = s.perturbed / s.quiet;
    row[1] = s.perturbed;
    row[2] = s.quiet;
    row[3] = s.clean;
    row[4] = s.perturbed / s.clean;
  });
}

PointSummary NetworkStudy::summarize(const Tally& tally, const SummaryContext& context) const {
  const double level = context.confidence;
  Record s;
  const Topology& t = model_.topology();
  topology_fields::put(s, t);
  s.put(topology_fields::kBackground, Field(model_.perturbing()));
  s.put(kProcesses, Field(model_.processes()));
  s.put(kActive, Field(model_.active_processes()));
  s.put(kIdle, Field(model_.processes() - model_.active_processes()));
  s.put(kRounds, Field(static_cast<std::int64_t>(model_.rounds())));
  // OS noise with a heavy tail makes the costs (and their ratios) heavy-tailed too: their t
  // intervals are then unreliable, and the point says so.
  std::vector<std::string> warnings;
  const double os_tail = model_.os_tail_index();
  const auto put = [&](const NetworkMetric& metric) {
    const Accumulator acc = tally.total(metric.name);
    put_mean(s, metric.mean, acc, student_t_interval(acc, level));
  };
  if (os_tail <= 4.0)
    warnings.push_back(fmt::format(
        "OS noise of tail index {} <= 4: the costs are heavy-tailed and their t intervals' "
        "coverage converges slowly{}",
        os_tail, os_tail <= 2.0 ? " (infinite variance: the intervals are not valid)" : ""));
  put(kSlowdown);
  s.put(kSamples, Field(tally.total(0).count));
  for (const NetworkMetric* metric : {&kCostPerturbed, &kCostQuiet, &kCostClean, &kSlowdownTotal})
    put(*metric);
  put_quantiles(s, kSlowdownQuantiles, *tally.histogram_of(0), tally.raw(), level);
  return {std::move(s), std::move(warnings)};
}

double NetworkStudy::cost_per_sample() const {
  // Every message's route is walked link by link (about 4 ns a hop, half the diameter on
  // average), for the background traffic and the collective's messages; the allocation
  // shuffles every endpoint (bench/HISTORY.md, "Cost model").
  const Topology& t = model_.topology();
  const double endpoints = static_cast<double>(t.endpoints());
  const double processes = static_cast<double>(model_.active_processes());
  // The butterfly's messages also load every link both ways: about twice a broadcast's cost
  // per message.
  const double messages = model_.pattern() == NetworkPattern::kButterfly
                              ? 2.0 * processes * model_.rounds()
                              : processes;
  return 4.0e-9 * 0.5 * t.diameter() * (endpoints + messages) + 2.0e-8 * endpoints + 1.0e-6;
}

double NetworkStudy::working_bytes(int threads) const {
  const Topology& t = model_.topology();
  const double per_thread = 8.0 * static_cast<double>(t.link_id_bound()) +
                            48.0 * static_cast<double>(t.endpoints()) * (1.0 + t.diameter());
  return threads * per_thread;
}

std::vector<TableColumn> NetworkStudy::columns() const {
  return {{kSamples.name, kSamples.name, ""},
          {topology_fields::kEndpoints.name, topology_fields::kEndpoints.name, ""},
          {kSlowdown.name, kSlowdown.mean.mean().name, ""},
          {"ci_low", kSlowdown.mean.ci_low().name, ""},
          {"ci_high", kSlowdown.mean.ci_high().name, ""},
          {"quiet_cost", kCostQuiet.mean.mean().name, ""}};
}

PlotHints NetworkStudy::plot_hints() const {
  PlotHints hints;
  hints.figure = "network";
  hints.x = topology_fields::kEndpoints.name;
  hints.show(kSlowdown.mean);
  hints.y_label = "slowdown";
  return hints;
}

namespace {

bool on_network(const ParamReader& reader) {
  // A schedule point on a topology is the schedule model's (its messages contend there).
  const auto kind = reader.peek_text(collective_kind_key().name);
  if (kind == "schedule") return false;
  return reader.has(topology_key().name) || reader.has(background_key().name) ||
         kind == "binomial_broadcast" || kind == "binomial_reduce";
}

// What NetworkStudy::summarize writes, in its order.
std::vector<FieldSpec> network_fields() {
  FieldList fields = topology_fields::all();
  append_fields(fields, {topology_fields::kBackground, kProcesses, kActive, kIdle, kRounds});
  append_fields(fields, kSlowdown.mean.specs());
  fields.push_back(kSamples);
  for (const NetworkMetric* metric : {&kCostPerturbed, &kCostQuiet, &kCostClean, &kSlowdownTotal})
    append_fields(fields, metric->mean.specs());
  append_fields(fields, kSlowdownQuantiles.specs());
  return fields;
}

}  // namespace

ModelKind network_model_kind() {
  return {
      .name = "network",
      .meaning =
          "binomial broadcast and reduce, and the butterfly, on a fat tree or torus with "
          "background traffic and optional OS noise",
      .collectives = {"binomial_broadcast", "binomial_reduce", "butterfly"},
      .keys = {topology_key(), background_key()},
      .summary_fields = network_fields(),
      .takes = [](const ParamReader& reader,
                  const RunContext& run) { return run.run_kind == "sample" && on_network(reader); },
      .prepare =
          [](PreparedPoint& point, ParamReader& reader, const RunContext&) {
            const std::string kind = reader.text(collective_kind_key());
            if (kind != "binomial_broadcast" && kind != "binomial_reduce" && kind != "butterfly")
              throw InputError(fmt::format(
                  "collective.kind = \"{}\" does not run on a [network]: use binomial_broadcast, "
                  "binomial_reduce or butterfly",
                  kind));
            const auto shape = parse_topology(reader.text(topology_key()));
            const double fraction = reader.number(background_key());
            const NetworkPattern pattern =
                kind == "binomial_broadcast" ? NetworkPattern::kBinomialBroadcast
                : kind == "binomial_reduce"  ? NetworkPattern::kBinomialReduce
                                             : NetworkPattern::kButterfly;
            // Optional OS noise on each process's step, one message-time long.
            std::optional<StageNoise> os;
            if (reader.has("noise.law")) {
              if (names_time_noise(reader, "noise"))
                throw InputError(fmt::format(
                    "noise.law = \"{}\" is time-based; the network model takes a per-stage law, "
                    "applied to each step of one message-time",
                    *reader.peek_text("noise.law")));
              os = read_stage_noise(reader, "noise", 1.0);
            }
            point.kind = "network";
            point.sampled =
                std::make_unique<NetworkStudy>(CongestionModel(shape, pattern, fraction, os));
          }};
}

}  // namespace collnoise
