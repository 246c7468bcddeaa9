#pragma once
// The [collective] keys of a tree barrier (docs/models/tree-barrier.md): N (or log2_N, or
// levels), the work w and hop latency tau in seconds, and the sampling path. Shared by the
// per-stage model, the time-based one and N_1/2.
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "engine/study.hpp"
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

/// The keys read_tree_params reads.
std::vector<KeySpec> tree_keys();

/// The model kinds of the tree barrier's room: per-stage noise (sampled per rank or per level),
/// time-based noise (phases in absolute time), and the N_1/2 analysis.
ModelKind tree_barrier_model_kind();
ModelKind timed_tree_model_kind();
ModelKind nhalf_model_kind();

}  // namespace collnoise
