#include "runs/point_factory.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/stop_request.hpp"
#include "distributions/noise_params.hpp"
#include "engine/cycles/cycle_engine.hpp"
#include "engine/cycles/cycle_study.hpp"
#include "engine/isoefficiency/isoefficiency_study.hpp"
#include "engine/isoefficiency/simulated_overhead.hpp"
#include "engine/network/network_study.hpp"
#include "engine/tree_barrier/nhalf_study.hpp"
#include "engine/tree_barrier/timed_tree_study.hpp"
#include "engine/tree_barrier/tree_barrier_study.hpp"
#include "engine/tree_barrier/tree_params.hpp"

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
    point.analysis = std::make_unique<NHalfStudy>(tree_model(tree, *noise.stage, reader), run.nhalf,
                                                  run.chunk_size);
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
  setup.phases =
      static_cast<std::uint64_t>(reader.integer_in("collective.phases", 1, 1, 1'000'000'000));
  CpuNoiseSpec cpu;
  cpu.time = noise.time;
  const double depth = static_cast<double>(std::bit_width(setup.ranks) - 1);
  check_time_noise_horizon(
      *noise.time, static_cast<double>(setup.phases) * (setup.work + 2.0 * setup.tau * depth),
      static_cast<double>(setup.phases));
  point.sampled = std::make_unique<TimedTreeStudy>(setup, std::move(cpu));
}

LogGops read_loggops(ParamReader& reader) {
  LogGops net;  // the paper's values are the defaults (docs/run-files.md)
  net.L = reader.number_in("loggops.L", net.L, {0.0, 1.0e3}, "seconds");
  net.o = reader.number_in("loggops.o", net.o, {0.0, 1.0e3}, "seconds");
  net.g = reader.number_in("loggops.g", net.g, {0.0, 1.0e3}, "seconds");
  net.G = reader.number_in("loggops.G", net.G, {0.0, 1.0}, "seconds per byte");
  net.O = reader.number_in("loggops.O", net.O, {0.0, 1.0}, "seconds per byte");
  net.message_bytes = static_cast<std::uint64_t>(
      reader.integer_in("loggops.message_bytes", 8, 1, std::int64_t{1} << 40));
  return net;
}

void prepare_cycles(PreparedPoint& point, ParamReader& reader, const PointSpec& spec,
                    const std::string& kind) {
  CycleSetup setup;
  setup.algorithm =
      kind == "butterfly" ? CycleAlgorithm::kButterfly : CycleAlgorithm::kDissemination;
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
    throw InputError(
        fmt::format("collective.N = {} is too large: at most 2^36 ranks", to_string(n)));
  setup.ranks = static_cast<std::uint64_t>(n);
  if (setup.algorithm == CycleAlgorithm::kButterfly && (setup.ranks & (setup.ranks - 1)) != 0)
    throw InputError(fmt::format(
        "collective.N = {} is invalid: the butterfly needs a power of two (the dissemination "
        "barrier takes any N)",
        setup.ranks));
  setup.cycles =
      static_cast<std::uint64_t>(reader.integer_in("collective.cycles", 1, 1, 1'000'000'000));
  setup.work =
      reader.number_in("collective.W", 0.0, {0.0, kMaxSeconds}, "seconds (compute per cycle)");
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
    const double rounds = rounds_of(setup);
    check_time_noise_horizon(
        *noise.time,
        static_cast<double>(setup.cycles) * (setup.work + rounds * setup.net.noiseless_round()),
        static_cast<double>(setup.cycles) * (1.0 + 4.0 * rounds));
  }
  point.kind = kind;
  point.sampled = std::make_unique<CycleStudy>(setup, std::move(cpu), reference, tail_index);
}

void prepare_network(PreparedPoint& point, ParamReader& reader, const PointSpec& spec,
                     const std::string& kind) {
  const auto topology = parse_topology(reader.text("network.topology"));
  const double rho = reader.number_in("network.rho", std::nullopt, {0.0, 1.0, false, true},
                                      "(the fraction of endpoints with background traffic)");
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

void prepare_isoefficiency(PreparedPoint& point, ParamReader& reader, const PointSpec& spec,
                           const RunSpec& run) {
  IsoefficiencySpec s;
  s.target = reader.number_in("isoefficiency.efficiency", std::nullopt, {0.0, 1.0, true, true},
                              "(the target efficiency)");
  s.p = reader.number_in("isoefficiency.p", 1.0, {0.0, 1.0e18, true}, "work units per second");
  if (reader.has("isoefficiency.m") == reader.has("isoefficiency.log2_m"))
    throw InputError("give exactly one of isoefficiency.m and isoefficiency.log2_m");
  if (reader.has("isoefficiency.m")) {
    s.m = reader.numbers("isoefficiency.m");
  } else {
    for (double k : reader.numbers("isoefficiency.log2_m")) {
      if (!(k >= 0 && k <= 40 && k == std::floor(k)))
        throw InputError(fmt::format("isoefficiency.log2_m: {} is not an integer in [0, 40]", k));
      s.m.push_back(std::ldexp(1.0, static_cast<int>(k)));
    }
  }
  if (s.m.empty()) throw InputError("isoefficiency.m is empty");
  for (double m : s.m)
    if (!(m >= 1.0) || m != std::floor(m) || m > 1e12)
      throw InputError(fmt::format("isoefficiency.m: {} is not a node count (an integer >= 1)", m));
  if (reader.has("isoefficiency.surface_W")) {
    s.surface_w = reader.numbers("isoefficiency.surface_W");
    for (double w : s.surface_w)
      if (!(w > 0.0 && w <= 1.0e18))
        throw InputError(fmt::format(
            "isoefficiency.surface_W: {} is out of range: values must lie in (0, 1e18] work units",
            w));
  }
  // A curve may take fewer samples than the run (granularity costs O(W) a sample).
  const std::int64_t default_samples =
      run.samples > 0 ? static_cast<std::int64_t>(std::min<std::uint64_t>(run.samples, 1ULL << 62))
                      : 10000;
  s.samples = static_cast<std::uint64_t>(
      reader.integer_in("isoefficiency.samples", default_samples, 2, std::int64_t{1} << 40));
  s.confidence = run.confidence;

  const std::string imbalance = reader.text_or("isoefficiency.imbalance", "none");
  const auto family = overhead_family(imbalance);
  s.c1 = reader.number_in("isoefficiency.c1", 0.0, {0.0, 1.0e12}, "(the family's unit)");
  s.c2 = reader.number_in("isoefficiency.c2", 0.0, {0.0, 1.0e12}, "(the family's unit)");
  std::optional<NoiseSetup> noise;
  if (reader.has("noise.law") || !spec.components.empty())
    noise = read_noise(reader, spec.components);
  bool noise_used = false;
  if (family) {
    s.imbalance = IsoefficiencySpec::Imbalance::kFamily;
    s.imbalance_family = *family;
  } else if (imbalance == "granularity") {
    s.imbalance = IsoefficiencySpec::Imbalance::kGranularity;
    s.job_mean =
        reader.number_in("isoefficiency.job_mean", std::nullopt, {0.0, 1.0e12, true}, "work units");
    const std::string assignment =
        reader.choice("isoefficiency.assignment", "block", {"block", "cyclic", "random"});
    s.assignment = assignment == "block"    ? Assignment::kBlock
                   : assignment == "cyclic" ? Assignment::kCyclic
                                            : Assignment::kRandom;
    if (noise) {
      if (!noise->stage || noise->stage->numbers.contains("f"))
        throw InputError(
            "job sizes take a unit-mean law of distributions/ without noise.f "
            "(sizes are isoefficiency.job_mean times it)");
      s.law = make_law(*noise->stage);
      noise_used = true;
    }
  } else if (imbalance == "noise") {
    s.imbalance = IsoefficiencySpec::Imbalance::kNoise;
    if (!noise || !noise->stage)
      throw InputError("isoefficiency.imbalance = \"noise\" needs a per-stage law in [noise]");
    s.proportional = reader.choice("isoefficiency.delay", "absolute",
                                   {"absolute", "proportional"}) == "proportional";
    if (s.proportional) {
      const StageNoise stage = make_stage_noise(*noise->stage, 1.0);
      s.law = stage.eta;
      s.overhead = stage.overhead;
    } else {
      if (noise->stage->numbers.contains("f"))
        throw InputError(
            "noise.f scales delays proportional to the work: absolute delays take "
            "isoefficiency.scale (seconds) instead");
      s.scale = reader.number_in("isoefficiency.scale", std::nullopt, {0.0, kMaxSeconds, true},
                                 "seconds");
      s.law = make_law(*noise->stage);
    }
    noise_used = true;
  } else {
    throw InputError(fmt::format(
        "isoefficiency.imbalance = \"{}\" is invalid: use none, constant, linear_m, inverse_m, "
        "proportional_w, inverse_w, log2_m, granularity or noise",
        imbalance));
  }
  const auto needs = [&](bool used, const char* key, double value) {
    if (used && !(value > 0.0))
      throw InputError(
          fmt::format("{} = {} is invalid: this overhead needs a value > 0", key, value));
  };
  needs(family && *family != OverheadFamily::kNone && *family != OverheadFamily::kLinearM,
        "isoefficiency.c1", s.c1);
  needs(family == OverheadFamily::kLinearM, "isoefficiency.c2", s.c2);

  const std::string overhead = reader.text_or("isoefficiency.overhead", "none");
  s.comm_name = overhead;
  if (const auto comm = overhead_family(overhead)) {
    s.comm_family = *comm;
    s.comm_c1 =
        reader.number_in("isoefficiency.overhead_c1", 0.0, {0.0, 1.0e12}, "(the family's unit)");
    s.comm_c2 =
        reader.number_in("isoefficiency.overhead_c2", 0.0, {0.0, 1.0e12}, "(the family's unit)");
    needs(*comm != OverheadFamily::kNone && *comm != OverheadFamily::kLinearM,
          "isoefficiency.overhead_c1", s.comm_c1);
    needs(*comm == OverheadFamily::kLinearM, "isoefficiency.overhead_c2", s.comm_c2);
  } else if (overhead == "tree_barrier" || overhead == "butterfly") {
    // The collective sees the [noise] law unless the imbalance already uses it.
    const bool collective_noise = noise && !noise_used;
    noise_used = noise_used || collective_noise;
    const auto samples = static_cast<std::uint64_t>(
        reader.integer_in("isoefficiency.overhead_samples", overhead == "tree_barrier" ? 2000 : 20,
                          2, std::int64_t{1} << 40));
    if (overhead == "tree_barrier") {
      TreeBarrierModel base;
      base.w = reader.number_in("collective.w", std::nullopt, {0.0, kMaxSeconds, true}, "seconds");
      base.tau = reader.number_in("collective.tau", 0.0, {0.0, kMaxSeconds}, "seconds");
      if (collective_noise && !noise->stage)
        throw InputError("a tree-barrier overhead takes a per-stage [noise] law");
      base.noise = collective_noise
                       ? make_stage_noise(*noise->stage, base.w)
                       : make_stage_noise(LawSpec{"none", {}, "", {}, "noise"}, base.w);
      s.comm_simulated = tree_barrier_overhead(base, samples);
      // Per-level phases of log2(m) + 1 levels, and an exact mean (bench/RESULTS.md).
      s.comm_cost = [samples, transform = base.noise.eta->isf_seconds()](double m) {
        return static_cast<double>(samples) * (std::log2(m) + 1.0) * (3.0e-8 + transform) + 2.0e-3;
      };
    } else {
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
        if (noise->stage) {
          cpu.stage = make_stage_noise(*noise->stage, 0.0);
        } else {
          cpu.time = noise->time;
          const double rounds = std::log2(*std::max_element(s.m.begin(), s.m.end()));
          check_time_noise_horizon(*noise->time, rounds * base.net.noiseless_round(),
                                   1.0 + 4.0 * rounds);
        }
      }
      s.comm_simulated = butterfly_overhead(base, cpu, samples);
      // One cycle of the fast engine: about 10 ns a rank-round with noise.
      s.comm_cost = [samples](double m) {
        return static_cast<double>(samples) * 1.0e-8 * m * std::max(std::log2(m), 1.0);
      };
    }
  } else {
    throw InputError(fmt::format(
        "isoefficiency.overhead = \"{}\" is invalid: use none, constant, linear_m, log2_m, "
        "tree_barrier or butterfly",
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

const std::vector<std::string>& collective_kinds() {
  static const std::vector<std::string> kinds = {"tree_barrier", "butterfly", "dissemination",
                                                 "binomial_broadcast", "binomial_reduce"};
  return kinds;
}

PreparedPoint prepare_point(const RunSpec& run, const PointSpec& spec) {
  ParamReader reader(spec.params);
  if (run.kind == RunKind::kIsoefficiency) {
    PreparedPoint point;
    prepare_isoefficiency(point, reader, spec, run);
    reader.reject_unread("an isoefficiency curve");
    point.input_files = reader.input_files();
    point.params = params_record(reader.resolved());
    point.stream_key = point_stream_key(run.seed, reader.resolved());
    point.analysis->set_stream_key(point.stream_key);
    return point;
  }
  const std::string kind = reader.text_or("collective.kind", "tree_barrier");
  const auto& kinds = collective_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw InputError(fmt::format("collective.kind = \"{}\" is not a known collective (known: {})",
                                 kind, fmt::join(kinds, ", ")));
  PreparedPoint point;
  if (run.kind == RunKind::kNHalf && kind != "tree_barrier")
    throw InputError(
        fmt::format("kind = \"nhalf\" needs collective.kind = \"tree_barrier\", got \"{}\"", kind));
  // A [network] table puts the collective on a network with background traffic (MODELS.md §4);
  // the binomial patterns exist only there.
  const bool network = reader.has("network.topology") || reader.has("network.rho") ||
                       kind == "binomial_broadcast" || kind == "binomial_reduce";
  if (network && kind != "binomial_broadcast" && kind != "binomial_reduce" && kind != "butterfly")
    throw InputError(
        fmt::format("collective.kind = \"{}\" does not run on a [network]: use binomial_broadcast, "
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
    throw InputError(fmt::format("{}: samples = {} is invalid: at least 2 samples per point",
                                 run.path, run.samples));
  point.input_files = reader.input_files();
  point.params = params_record(reader.resolved());
  point.stream_key = point_stream_key(run.seed, reader.resolved());
  if (point.sampled) point.sampled->set_stream_key(point.stream_key);
  if (point.analysis) point.analysis->set_stream_key(point.stream_key);
  return point;
}

std::vector<PreparedPoint> prepare_points(const RunSpec& run) {
  std::vector<PreparedPoint> points;
  for (const auto& spec : run.points) {
    throw_if_stop_requested();  // large points, or very many, take long to prepare
    points.push_back(prepare_point(run, spec));
  }
  return points;
}

}  // namespace collnoise
