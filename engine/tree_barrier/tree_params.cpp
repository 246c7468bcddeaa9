#include "engine/tree_barrier/tree_params.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {

TreeParams read_tree_params(ParamReader& reader, bool n_required) {
  TreeParams p;
  const int given = reader.has("collective.N") + reader.has("collective.log2_N") +
                    reader.has("collective.levels");
  if (given > 1 || (given == 0 && n_required))
    throw InputError("give exactly one of collective.N, collective.log2_N, collective.levels");
  p.n_given = given == 1;
  if (reader.has("collective.N")) p.n = reader.rank_count("collective.N");
  if (reader.has("collective.log2_N")) {
    const auto k = reader.integer("collective.log2_N");
    if (k < 0 || k > 126)
      throw InputError(fmt::format("collective.log2_N = {} is invalid: 0 <= log2_N <= 126", k));
    p.n = pow2(static_cast<int>(k));
  }
  if (reader.has("collective.levels")) {
    const auto k = reader.integer("collective.levels");
    if (k < 1 || k > 127)
      throw InputError(fmt::format("collective.levels = {} is invalid: 1 <= levels <= 127", k));
    p.n = pow2(static_cast<int>(k)) - 1;
  }
  // Every point records its N under one name, whichever way the run file gave it.
  reader.forget("collective.log2_N");
  reader.forget("collective.levels");
  if (p.n_given) reader.derive("collective.N", p.n);
  p.w = reader.number_in("collective.w", std::nullopt, {0.0, kMaxSeconds, true},
                         "seconds (the work per phase)");
  p.tau =
      reader.number_in("collective.tau", 0.0, {0.0, kMaxSeconds}, "seconds (the latency per hop)");
  const std::string sampling =
      reader.choice("collective.sampling", "per_rank", {"per_rank", "per_level"});
  p.sampling = sampling == "per_level" ? TreeSampling::kPerLevel : TreeSampling::kPerRank;
  return p;
}

}  // namespace collnoise
