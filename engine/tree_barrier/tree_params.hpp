#pragma once
// The [collective] keys of a tree barrier (MODELS.md §2): N (or log2_N, or levels), the work w
// and hop latency tau in seconds, the sampling path, and for time-based noise the number of
// phases per replication.
#include "core/param_reader.hpp"
#include "engine/tree_barrier/sampler.hpp"

namespace collnoise {

struct TreeParams {
  RankCount n = 1;
  bool n_given = false;
  double w = 0.0;    ///< seconds of work per phase (> 0)
  double tau = 0.0;  ///< seconds per hop (>= 0)
  TreeSampling sampling = TreeSampling::kPerRank;
};

/// Reads the tree's keys; N is optional only for N_1/2 runs. InputError naming the key.
TreeParams read_tree_params(ParamReader& reader, bool n_required);

}  // namespace collnoise
