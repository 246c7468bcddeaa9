// The cycles model as a run file declares it: its keys, and how a point's keys become a
// CycleStudy (the sampling and its summary are in cycle_study.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/cycles/cycle_study.hpp"
#include "engine/loggops/loggops_keys.hpp"

namespace collnoise {

namespace {

// collective.cases: a non-empty list of distinct case names of the algorithm, in any order;
// absent: every case (recorded in the point's parameters as the list run).
std::vector<std::string> read_cases(ParamReader& reader, const KeySpec& key,
                                    CycleAlgorithm algorithm) {
  const std::vector<std::string> valid = CycleStudy::available_cases(algorithm);
  if (!reader.has(key.name)) {
    reader.derive(key.name, TextList(valid));
    return valid;
  }
  const TextList chosen = reader.texts(key);
  const std::string names = fmt::format("\"{}\"", fmt::join(valid, "\", \""));
  if (chosen.empty())
    throw InputError(fmt::format("{} is empty: give at least one of {}", key.name, names));
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const std::string& c = chosen[i];
    if (std::find(valid.begin(), valid.end(), c) == valid.end())
      throw InputError(fmt::format(
          "{} holds \"{}\", which is not a case{}: use {}", key.name, c,
          c == "redundant" ? " of the dissemination barrier (it has no redundant variant)" : "",
          names));
    if (std::find(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(i), c) !=
        chosen.begin() + static_cast<std::ptrdiff_t>(i))
      throw InputError(
          fmt::format("{} names \"{}\" twice: use each of {} at most once", key.name, c, names));
  }
  return chosen;
}

}  // namespace

ModelKind cycle_model_kind() {
  static const KeySpec n{.name = "collective.N",
                         .type = KeyType::kRankCount,
                         .meaning = "ranks (a power of two for the butterfly)",
                         .optional = true,
                         .alternatives = "ranks",
                         .short_form = true};
  static const KeySpec log2_n{.name = "collective.log2_N",
                              .type = KeyType::kInteger,
                              .meaning = "N = 2^log2_N",
                              .bounds = {0.0, 36.0},
                              .optional = true,
                              .alternatives = "ranks",
                              .short_form = true};
  static const KeySpec cycles{.name = "collective.cycles",
                              .type = KeyType::kInteger,
                              .meaning = "cycles M of compute, then the collective",
                              .fallback = std::int64_t{1},
                              .bounds = {1.0, 1.0e9}};
  static const KeySpec work{.name = "collective.W",
                            .meaning = "compute per cycle",
                            .unit = "seconds",
                            .fallback = 0.0,
                            .bounds = {0.0, kMaxSeconds}};
  static const KeySpec engine{
      .name = "collective.engine",
      .type = KeyType::kChoice,
      .meaning = "fast (the engine) or reference (the discrete-event simulator): the same bits",
      .fallback = std::string("fast"),
      .choices = {"fast", "reference"},
      .identity = false};
  // Not an identity key: each case gives the same bits whichever other cases run, so leaving
  // cases out moves no stream (docs/models/streams.md).
  static const KeySpec cases{
      .name = "collective.cases",
      .type = KeyType::kTextList,
      .meaning =
          "the cases simulated, tallied and summarised: any of \"conventional\", "
          "\"redundant\" (butterfly only), \"quiet\" (default: all of them)",
      .optional = true,
      .identity = false};
  std::vector<KeySpec> keys = {n, log2_n, cycles, work, engine, cases};
  for (const auto& k : loggops_keys()) keys.push_back(k);
  return {
      .name = "cycles",
      .meaning =
          "M cycles of compute and a butterfly allreduce (conventional and redundant) or "
          "a dissemination barrier under LogGOPS",
      .collectives = {"butterfly", "dissemination"},
      .keys = keys,
      .summary_fields = cycle_summary_fields(),
      .takes =
          [](const ParamReader& reader, const RunContext& run) {
            const auto kind = reader.peek_text(collective_kind_key().name);
            return run.run_kind == "sample" && (kind == "butterfly" || kind == "dissemination");
          },
      .prepare =
          [](PreparedPoint& point, ParamReader& reader, const RunContext&) {
            const std::string kind = reader.text(collective_kind_key());
            CycleSetup setup;
            setup.algorithm =
                kind == "butterfly" ? CycleAlgorithm::kButterfly : CycleAlgorithm::kDissemination;
            if (reader.has(n.name) == reader.has(log2_n.name))
              throw InputError("give exactly one of collective.N and collective.log2_N");
            RankCount ranks = 0;
            if (reader.has(log2_n.name)) {
              ranks = pow2(static_cast<int>(reader.integer(log2_n)));
              reader.forget(log2_n.name);
              reader.derive(n.name, ranks, true);
            } else {
              ranks = reader.rank_count(n);
            }
            if (ranks > pow2(36))
              throw InputError(fmt::format("collective.N = {} is too large: at most 2^36 ranks",
                                           to_string(ranks)));
            setup.ranks = static_cast<std::uint64_t>(ranks);
            if (setup.algorithm == CycleAlgorithm::kButterfly &&
                (setup.ranks & (setup.ranks - 1)) != 0)
              throw InputError(fmt::format(
                  "collective.N = {} is invalid: the butterfly needs a power of two (the "
                  "dissemination barrier takes any N)",
                  setup.ranks));
            setup.cycles = static_cast<std::uint64_t>(reader.integer(cycles));
            setup.work = reader.number(work);
            setup.net = read_loggops(reader);
            const std::vector<std::string> chosen = read_cases(reader, cases, setup.algorithm);
            const bool reference = reader.text(engine) == "reference";
            if (reference && setup.ranks > (1u << 16))
              throw InputError(
                  "collective.engine = \"reference\" is meant for small N: at most 2^16 ranks");
            CpuNoiseSpec cpu;
            double tail_index = std::numeric_limits<double>::infinity();
            if (!names_time_noise(reader, "noise")) {
              cpu.stage = read_stage_noise(reader, "noise", setup.work);
              if (cpu.stage->scale > 0.0) tail_index = cpu.stage->eta->tail_index();
            } else {
              cpu.time = read_time_noise(reader, "noise");
              tail_index = collnoise::tail_index(*cpu.time);
              const double rounds = rounds_of(setup);
              check_time_noise_horizon(*cpu.time,
                                       static_cast<double>(setup.cycles) *
                                           (setup.work + rounds * setup.net.noiseless_round()),
                                       static_cast<double>(setup.cycles) * (1.0 + 4.0 * rounds));
            }
            point.kind = kind;
            point.sampled =
                std::make_unique<CycleStudy>(setup, std::move(cpu), reference, tail_index, chosen);
          }};
}

}  // namespace collnoise
