// The isoefficiency run kind as a run file declares it: its keys, and how a point's keys become
// an IsoefficiencySpec (the analysis itself is in isoefficiency_study.cpp).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/none.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/isoefficiency/isoefficiency_study.hpp"
#include "engine/isoefficiency/simulated_overhead.hpp"
#include "engine/loggops/loggops_keys.hpp"

namespace collnoise {

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
          .run_kind = "isoefficiency",
          .point_label = "an isoefficiency curve",
          .keys = {kEfficiency, kP, kM, kLog2M, kSurfaceW, kSamples, kImbalance, kC1, kC2, kJobMean,
                   kAssignment, kDelay, kScale, kOverhead, kOverheadC1, kOverheadC2,
                   kOverheadSamples, kTreeW, kTreeTau},
          .summary_fields = isoefficiency_summary_fields(),
          .takes = [](const ParamReader&,
                      const RunContext& run) { return run.run_kind == "isoefficiency"; },
          .prepare = prepare_isoefficiency};
}

}  // namespace collnoise
