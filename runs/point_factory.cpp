#include "runs/point_factory.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "engine/errors.hpp"
#include "engine/rng.hpp"
#include "runs/cycle_study.hpp"
#include "runs/network_study.hpp"
#include "runs/nhalf_study.hpp"
#include "runs/noise_params.hpp"
#include "runs/timed_tree_study.hpp"
#include "runs/tree_barrier_study.hpp"
#include "runs/tree_params.hpp"

namespace collnoise {
namespace {

std::uint64_t point_stream_key(std::uint64_t seed, const ParamMap& resolved) {
  std::uint64_t key = hash_combine(seed, 0x636f6c6c6e6f6973ULL);  // "collnois"
  for (const auto& [k, v] : resolved)
    for (char c : k + "=" + to_text(v) + ";")
      key = hash_combine(key, static_cast<unsigned char>(c));
  return key;
}

Record params_record(const ParamMap& resolved) {
  Record r;
  for (const auto& [key, value] : resolved) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, RankCount>) {
            r.set(key, Field(to_double(v)));
            r.set(key + "_string", Field(to_string(v)));
          } else if constexpr (std::is_same_v<T, NumberList>) {
            r.set(key, Field(series_of(v)));
          } else {
            r.set(key, Field(v));
          }
        },
        value);
  }
  return r;
}

// Bernoulli noise given by f records the p it implies, and the f of a given p, so that points
// are comparable whichever way the run file put them.
void record_bernoulli(ParamReader& reader, const StageNoise& noise, const LawSpec& spec) {
  if (spec.law != "bernoulli") return;
  reader.derive("noise.p", noise.scale > 0.0 ? noise.scale / spec.numbers.at("T") : 0.0);
  reader.derive("noise.f", noise.overhead / (1.0 + noise.overhead));
}

TreeBarrierModel tree_model(const TreeParams& tree, const LawSpec& law, ParamReader& reader) {
  TreeBarrierModel m;
  m.shape = TreeShape(tree.n);
  m.w = tree.w;
  m.tau = tree.tau;
  m.noise = make_stage_noise(law, tree.w);
  record_bernoulli(reader, m.noise, law);
  return m;
}

void prepare_tree_barrier(PreparedPoint& point, ParamReader& reader, const PointSpec& spec,
                          const RunSpec& run) {
  const bool nhalf = run.kind == RunKind::kNHalf;
  const TreeParams tree = read_tree_params(reader, !nhalf);
  const NoiseSetup noise = read_noise(reader, spec.components);
  if (nhalf) {
    if (!noise.stage)
      throw InputError(fmt::format(
          "noise.law = \"{}\": N_1/2 is defined for per-stage noise laws only", noise.law));
    point.kind = "nhalf";
    point.analysis = std::make_unique<NHalfStudy>(tree_model(tree, *noise.stage, reader), run);
    return;
  }
  point.kind = "tree_barrier";
  if (noise.stage) {
    point.sampled =
        std::make_unique<TreeBarrierStudy>(tree_model(tree, *noise.stage, reader), tree.sampling);
    return;
  }
  // Time-based noise: phases interact, every rank is simulated in absolute time.
  if (tree.sampling != TreeSampling::kPerRank)
    throw InputError(fmt::format(
        "collective.sampling = \"per_level\" draws level maxima of iid per-stage noise; "
        "noise.law = \"{}\" is time-based and needs \"per_rank\"",
        noise.law));
  if (tree.n > RankCount{1} << 40)
    throw InputError("collective.N is too large for time-based noise: at most 2^40 ranks");
  TimedTreeSetup setup;
  setup.ranks = static_cast<std::uint64_t>(tree.n);
  setup.work = tree.w;
  setup.tau = tree.tau;
  const auto phases = reader.integer_or("collective.phases", 1);
  if (phases < 1)
    throw InputError(fmt::format("collective.phases = {} is invalid: at least 1", phases));
  setup.phases = static_cast<std::uint64_t>(phases);
  CpuNoiseSpec cpu;
  cpu.time = noise.time;
  point.sampled = std::make_unique<TimedTreeStudy>(setup, std::move(cpu));
}

LogGops read_loggops(ParamReader& reader) {
  LogGops net;  // the paper's values are the defaults (docs/run-files.md)
  net.L = reader.nonnegative("loggops.L", net.L, "seconds");
  net.o = reader.nonnegative("loggops.o", net.o, "seconds");
  net.g = reader.nonnegative("loggops.g", net.g, "seconds");
  net.G = reader.nonnegative("loggops.G", net.G, "seconds per byte");
  net.O = reader.nonnegative("loggops.O", net.O, "seconds per byte");
  const auto bytes = reader.integer_or("loggops.message_bytes", 8);
  if (bytes < 1)
    throw InputError(fmt::format("loggops.message_bytes = {} is invalid: at least 1 byte", bytes));
  net.message_bytes = static_cast<std::uint64_t>(bytes);
  return net;
}

void prepare_cycles(PreparedPoint& point, ParamReader& reader, const PointSpec& spec,
                    const std::string& kind) {
  CycleSetup setup;
  setup.algorithm = kind == "butterfly" ? CycleAlgorithm::kButterfly : CycleAlgorithm::kDissemination;
  if (reader.has("collective.N") == reader.has("collective.log2_N"))
    throw InputError("give exactly one of collective.N and collective.log2_N");
  RankCount n = 0;
  if (reader.has("collective.log2_N")) {
    const auto k = reader.integer("collective.log2_N");
    if (k < 0 || k > 36)
      throw InputError(fmt::format("collective.log2_N = {} is invalid: 0 <= log2_N <= 36", k));
    n = pow2(static_cast<int>(k));
    reader.forget("collective.log2_N");
    reader.derive("collective.N", n);
  } else {
    n = reader.rank_count("collective.N");
  }
  if (n > pow2(36))
    throw InputError(fmt::format("collective.N = {} is too large: at most 2^36 ranks", to_string(n)));
  setup.ranks = static_cast<std::uint64_t>(n);
  if (setup.algorithm == CycleAlgorithm::kButterfly && (setup.ranks & (setup.ranks - 1)) != 0)
    throw InputError(fmt::format(
        "collective.N = {} is invalid: the butterfly needs a power of two (the dissemination "
        "barrier takes any N)",
        setup.ranks));
  const auto cycles = reader.integer_or("collective.cycles", 1);
  if (cycles < 1)
    throw InputError(fmt::format("collective.cycles = {} is invalid: at least 1", cycles));
  setup.cycles = static_cast<std::uint64_t>(cycles);
  setup.work = reader.nonnegative("collective.W", 0.0, "seconds (compute per cycle)");
  setup.net = read_loggops(reader);
  const bool reference =
      reader.choice("collective.engine", "fast", {"fast", "reference"}) == "reference";
  if (reference && setup.ranks > (1u << 16))
    throw InputError("collective.engine = \"reference\" is meant for small N: at most 2^16 ranks");

  const NoiseSetup noise = read_noise(reader, spec.components);
  CpuNoiseSpec cpu;
  double tail_index = std::numeric_limits<double>::infinity();
  if (noise.stage) {
    cpu.stage = make_stage_noise(*noise.stage, setup.work);
    record_bernoulli(reader, *cpu.stage, *noise.stage);
    if (cpu.stage->scale > 0.0) tail_index = cpu.stage->eta->tail_index();
  } else {
    cpu.time = noise.time;
  }
  point.kind = kind;
  point.sampled = std::make_unique<CycleStudy>(setup, std::move(cpu), reference, tail_index);
}

void prepare_network(PreparedPoint& point, ParamReader& reader, const PointSpec& spec,
                     const std::string& kind) {
  const auto topology = parse_topology(reader.text("network.topology"));
  const double rho = reader.number("network.rho");
  const NetworkPattern pattern = kind == "binomial_broadcast" ? NetworkPattern::kBinomialBroadcast
                                 : kind == "binomial_reduce"  ? NetworkPattern::kBinomialReduce
                                                              : NetworkPattern::kButterfly;
  // Optional OS noise on each process's step, one message-time long (docs/run-files.md).
  std::optional<StageNoise> os;
  if (reader.has("noise.law") || !spec.components.empty()) {
    const NoiseSetup noise = read_noise(reader, spec.components);
    if (!noise.stage)
      throw InputError(fmt::format(
          "noise.law = \"{}\" is time-based; the network model takes a per-stage law, applied "
          "to each step of one message-time",
          noise.law));
    os = make_stage_noise(*noise.stage, 1.0);
    record_bernoulli(reader, *os, *noise.stage);
  }
  point.kind = "network";
  point.sampled = std::make_unique<NetworkStudy>(CongestionModel(topology, pattern, rho, os));
}

}  // namespace

const std::vector<std::string>& collective_kinds() {
  static const std::vector<std::string> kinds = {"tree_barrier", "butterfly", "dissemination",
                                                 "binomial_broadcast", "binomial_reduce"};
  return kinds;
}

PreparedPoint prepare_point(const RunSpec& run, const PointSpec& spec) {
  ParamReader reader(spec.params);
  const std::string kind = reader.text_or("collective.kind", "tree_barrier");
  const auto& kinds = collective_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw InputError(fmt::format("collective.kind = \"{}\" is not a known collective (known: {})",
                                 kind, fmt::join(kinds, ", ")));
  PreparedPoint point;
  if (run.kind == RunKind::kNHalf && kind != "tree_barrier")
    throw InputError(fmt::format(
        "kind = \"nhalf\" needs collective.kind = \"tree_barrier\", got \"{}\"", kind));
  // A [network] table puts the collective on a network with background traffic (MODELS.md §4);
  // the binomial patterns exist only there.
  const bool network = reader.has("network.topology") || reader.has("network.rho") ||
                       kind == "binomial_broadcast" || kind == "binomial_reduce";
  if (network && kind != "binomial_broadcast" && kind != "binomial_reduce" && kind != "butterfly")
    throw InputError(fmt::format(
        "collective.kind = \"{}\" does not run on a [network]: use binomial_broadcast, "
        "binomial_reduce or butterfly",
        kind));
  if (network)
    prepare_network(point, reader, spec, kind);
  else if (kind == "tree_barrier")
    prepare_tree_barrier(point, reader, spec, run);
  else
    prepare_cycles(point, reader, spec, kind);
  reader.reject_unread(fmt::format("a {} run", kind));
  if (run.kind == RunKind::kSample && point.sampled && run.samples < 2 && !run.precision.enabled)
    throw InputError(fmt::format(
        "{}: samples = {} is invalid: at least 2 samples per point", run.path, run.samples));
  point.params = params_record(reader.resolved());
  point.stream_key = point_stream_key(run.seed, reader.resolved());
  if (point.sampled) point.sampled->set_stream_key(point.stream_key);
  if (point.analysis) point.analysis->set_stream_key(point.stream_key);
  return point;
}

std::vector<PreparedPoint> prepare_points(const RunSpec& run) {
  std::vector<PreparedPoint> points;
  for (const auto& spec : run.points) points.push_back(prepare_point(run, spec));
  return points;
}

}  // namespace collnoise
