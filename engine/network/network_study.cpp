#include "engine/network/network_study.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <limits>
#include <regex>

#include "core/errors.hpp"
#include "core/parallel_for.hpp"
#include "core/rng.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/network/torus.hpp"
#include "engine/network/xgft.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

constexpr const char* kKey = "network.topology";

std::vector<std::uint32_t> numbers_of(const std::string& list, const std::string& text) {
  std::vector<std::uint32_t> out;
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t comma = list.find(',', at);
    const std::string item =
        list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    try {
      std::size_t used = 0;
      const unsigned long v = std::stoul(item, &used);
      if (item.find_first_not_of(" \t", used) != std::string::npos || v > 1u << 30)
        throw std::invalid_argument(item);
      out.push_back(static_cast<std::uint32_t>(v));
    } catch (const std::exception&) {
      throw InputError(fmt::format("{} = \"{}\": '{}' is not a count", kKey, text, item));
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

}  // namespace

std::shared_ptr<const Topology> parse_topology(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::smatch m;
  static const std::regex xgft(R"(^\s*xgft\s*\(\s*(\d+)\s*;([^;]*);([^;]*)\)\s*$)");
  static const std::regex torus(R"(^\s*torus\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$)");
  static const std::regex cube(R"(^\s*(\d+)\s*-\s*ary\s+(\d+)\s*-\s*cube\s*$)");
  if (std::regex_match(lower, m, xgft)) {
    const auto h = std::stoul(m[1]);
    auto mm = numbers_of(m[2], text);
    auto ww = numbers_of(m[3], text);
    if (mm.size() != h || ww.size() != h)
      throw InputError(
          fmt::format("{} = \"{}\": XGFT(h; m_1..m_h; w_1..w_h) needs h = {} values "
                      "of m and of w",
                      kKey, text, h));
    return std::make_shared<const Xgft>(std::move(mm), std::move(ww), kKey);
  }
  if (std::regex_match(lower, m, torus) || std::regex_match(lower, m, cube))
    return std::make_shared<const Torus>(static_cast<std::uint32_t>(std::stoul(m[1])),
                                         static_cast<std::uint32_t>(std::stoul(m[2])), kKey);
  throw InputError(
      fmt::format("{} = \"{}\" is not a topology: use \"xgft(h; m_1,...,m_h; w_1,...,w_h)\", "
                  "\"torus(k, n)\" or \"k-ary n-cube\"",
                  kKey, text));
}

NetworkStudy::NetworkStudy(CongestionModel model) : model_(std::move(model)) {}

double NetworkStudy::primary_tail_index() const {
  // A ratio of congestion costs, bounded without OS noise; heavy OS delays make it heavy-tailed.
  return model_.os_tail_index();
}

TallyLayout NetworkStudy::layout(std::size_t histogram_bins, const std::string&) const {
  TallyLayout layout;
  layout.metrics = {"slowdown", "cost_perturbed", "cost_quiet", "cost_clean", "slowdown_total"};
  layout.metric_units = {"1", "message-times", "message-times", "message-times", "1"};
  layout.top_capacity.assign(layout.metrics.size(), 0);
  // Slowdowns are >= 1; a message can wait for at most every other message.
  const double hi = 2.0 + static_cast<double>(model_.endpoints());
  layout.histograms.push_back(
      {"slowdown", 0, Histogram(1.0, hi, histogram_bins, BinSpacing::kLog), std::string(1, '1')});
  return layout;
}

void NetworkStudy::simulate(std::uint64_t first, std::span<double> rows,
                            std::span<Histogram* const>, int threads) const {
  constexpr std::size_t kWidth = 5;
  const auto count = static_cast<std::int64_t>(rows.size() / kWidth);
  parallel_for(count, threads, [&](std::int64_t k) {
    const auto index = first + static_cast<std::uint64_t>(k);
    const NetworkSample s = model_.sample(stream_key(key_, StreamPurpose::kNetworkSample, index));
    double* row = rows.data() + static_cast<std::size_t>(k) * kWidth;
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
  s.set("topology", Field(t.describe()));
  s.set("topology_family", Field(t.family()));
  s.set("endpoints", Field(t.endpoints()));
  s.set("switches", Field(t.switches()));
  s.set("links", Field(t.links()));
  s.set("diameter", Field(static_cast<std::int64_t>(t.diameter())));
  s.set("background_endpoints", Field(model_.perturbing()));
  s.set("processes", Field(model_.processes()));
  s.set("active_processes", Field(model_.active_processes()));
  s.set("idle_processes", Field(model_.processes() - model_.active_processes()));
  s.set("rounds", Field(static_cast<std::int64_t>(model_.rounds())));
  // OS noise with a heavy tail makes the costs (and their ratios) heavy-tailed too: their t
  // intervals are then unreliable, and the point says so.
  std::vector<std::string> warnings;
  const double os_tail = model_.os_tail_index();
  const auto put = [&](const std::string& name, const std::string& metric) {
    const Accumulator acc = tally.total(metric);
    put_mean(s, name + "_", acc, student_t_interval(acc, level),
             tally.layout().unit_of(tally.metric_index(metric)));
  };
  if (os_tail <= 4.0)
    warnings.push_back(fmt::format(
        "OS noise of tail index {} <= 4: the costs are heavy-tailed and their t intervals' "
        "coverage converges slowly{}",
        os_tail, os_tail <= 2.0 ? " (infinite variance: the intervals are not valid)" : ""));
  put("slowdown", "slowdown");
  s.set("samples", Field(tally.total(0).count));
  put("cost_perturbed", "cost_perturbed");
  put("cost_quiet", "cost_quiet");
  put("cost_clean", "cost_clean");
  put("slowdown_total", "slowdown_total");
  put_quantiles(s, "slowdown_", *tally.histogram_of(0), level, tally.layout().unit_of(0));
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
  return {{"samples", "samples", ""},          {"endpoints", "endpoints", ""},
          {"slowdown", "slowdown_mean", ""},   {"ci_low", "slowdown_ci_low", ""},
          {"ci_high", "slowdown_ci_high", ""}, {"quiet_cost", "cost_quiet_mean", ""}};
}

PlotHints NetworkStudy::plot_hints() const {
  PlotHints hints;
  hints.figure = "network";
  hints.x = "endpoints";
  hints.y = "slowdown_mean";
  hints.y_low = "slowdown_ci_low";
  hints.y_high = "slowdown_ci_high";
  hints.y_label = "slowdown";
  return hints;
}

namespace {

bool on_network(const ParamReader& reader) {
  const auto kind = reader.peek_text(collective_kind_key().name);
  return reader.has("network.topology") || reader.has("network.rho") ||
         kind == "binomial_broadcast" || kind == "binomial_reduce";
}

// What NetworkStudy::summarize writes, in its order; the units are the tally's (layout).
std::vector<FieldSpec> network_fields() {
  const std::string cost = "message-times";
  std::vector<FieldSpec> fields = {
      {"topology", "", "the topology, described"},
      {"topology_family", "", "\"xgft\" or \"torus\""},
      {"endpoints", "", "endpoints of the topology"},
      {"switches", "", "switches of the topology"},
      {"links", "", "links of the topology"},
      {"diameter", "", "the longest shortest route, in hops"},
      {"background_endpoints", "", "endpoints sending background traffic"},
      {"processes", "", "processes of the collective"},
      {"active_processes", "", "processes taking part in the collective"},
      {"idle_processes", "", "processes - active_processes"},
      {"rounds", "", "rounds of the collective"},
  };
  append_fields(fields,
                mean_field_specs("slowdown_", "1", "the slowdown: cost_perturbed / cost_quiet"));
  fields.push_back({"samples", "", "samples of the point"});
  append_fields(fields,
                mean_field_specs("cost_perturbed_", cost,
                                 "the collective's cost with background traffic and OS delays"));
  append_fields(fields,
                mean_field_specs("cost_quiet_", cost, "the collective's cost with OS delays only"));
  append_fields(fields,
                mean_field_specs("cost_clean_", cost,
                                 "the collective's cost without OS delays or background traffic"));
  append_fields(fields,
                mean_field_specs("slowdown_total_", "1",
                                 "cost_perturbed / cost_clean: network and OS noise together"));
  append_fields(fields, quantile_field_specs("slowdown_", "1", "the slowdown"));
  return fields;
}

}  // namespace

ModelKind network_model_kind() {
  static const KeySpec topology{.name = "network.topology",
                                .type = KeyType::kText,
                                .meaning =
                                    "\"xgft(h; m_1,...,m_h; w_1,...,w_h)\", \"torus(k, n)\" "
                                    "or \"k-ary n-cube\""};
  static const KeySpec rho{.name = "network.rho",
                           .meaning = "the fraction of endpoints with background traffic",
                           .bounds = {0.0, 1.0, false, true}};
  return {
      .name = "network",
      .meaning =
          "binomial broadcast and reduce, and the butterfly, on a fat tree or torus with "
          "background traffic and optional OS noise",
      .collectives = {"binomial_broadcast", "binomial_reduce", "butterfly"},
      .keys = {topology, rho},
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
            const auto shape = parse_topology(reader.text(topology));
            const double fraction = reader.number(rho);
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
