#include "engine/tree_barrier/tree_params.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {
namespace {

const KeySpec kN{.name = "collective.N",
                 .type = KeyType::kRankCount,
                 .meaning = "ranks (an integer, or a string of digits beyond 2^63)",
                 .optional = true,
                 .alternatives = "ranks",
                 .short_form = true};
const KeySpec kLog2N{.name = "collective.log2_N",
                     .type = KeyType::kInteger,
                     .meaning = "N = 2^log2_N",
                     .bounds = {0.0, 126.0},
                     .optional = true,
                     .alternatives = "ranks",
                     .short_form = true};
const KeySpec kLevels{.name = "collective.levels",
                      .type = KeyType::kInteger,
                      .meaning = "N = 2^levels - 1, a full tree",
                      .bounds = {1.0, 127.0},
                      .optional = true,
                      .alternatives = "ranks",
                      .short_form = true};
const KeySpec kW{.name = "collective.w",
                 .meaning = "work per phase",
                 .unit = "seconds",
                 .bounds = {0.0, kMaxSeconds, true, false}};
const KeySpec kTau{.name = "collective.tau",
                   .meaning = "latency per tree hop",
                   .unit = "seconds",
                   .fallback = 0.0,
                   .bounds = {0.0, kMaxSeconds}};
const KeySpec kSampling{.name = "collective.sampling",
                        .type = KeyType::kChoice,
                        .meaning = "per_rank (every rank drawn) or per_level (level maxima drawn)",
                        .fallback = std::string("per_rank"),
                        .choices = {"per_rank", "per_level"}};

}  // namespace

std::vector<KeySpec> tree_keys() {
  return {kN, kLog2N, kLevels, kW, kTau, kSampling};
}

TreeParams read_tree_params(ParamReader& reader, bool n_required) {
  TreeParams p;
  const int given = reader.has(kN.name) + reader.has(kLog2N.name) + reader.has(kLevels.name);
  if (given > 1 || (given == 0 && n_required))
    throw InputError("give exactly one of collective.N, collective.log2_N, collective.levels");
  p.n_given = given == 1;
  if (reader.has(kN.name)) p.n = reader.rank_count(kN);
  if (reader.has(kLog2N.name)) p.n = pow2(static_cast<int>(reader.integer(kLog2N)));
  if (reader.has(kLevels.name)) p.n = pow2(static_cast<int>(reader.integer(kLevels))) - 1;
  // Every point records its N under one name, whichever way the run file gave it.
  reader.forget(kLog2N.name);
  reader.forget(kLevels.name);
  if (p.n_given) reader.derive(kN.name, p.n, true);
  p.w = reader.number(kW);
  p.tau = reader.number(kTau);
  p.sampling =
      reader.text(kSampling) == "per_level" ? TreeSampling::kPerLevel : TreeSampling::kPerRank;
  return p;
}

}  // namespace collnoise
