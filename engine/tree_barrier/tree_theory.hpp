#pragma once
// Exact and theoretical values of the tree barrier's phase time (docs/models/tree-barrier.md;
// Agarwal, Garg, Vishnoi, Theorems 1-4), all in seconds. Y^n denotes the maximum of n iid eta.
#include <vector>

#include "core/nullable.hpp"
#include "distributions/max_distribution.hpp"
#include "engine/tree_barrier/sampler.hpp"

namespace collnoise {

struct TreeTheory {
  Nullable exact_mean;
  Nullable exact_sd;
  std::vector<double> quantile_probabilities;
  std::vector<double> exact_quantiles;
  double support_lower = 0.0;         ///< w + 2 tau D + scale * min(eta): no phase is shorter
  Nullable theorem1_lower;            ///< as printed (full trees only)
  Nullable theorem1_lower_corrected;  ///< leaves at depth log2(N+1) - 1 (full trees only)
  Nullable theorem1_upper;            ///< full trees only
  Nullable bound_lower;               ///< any N: w + s E[Y^(n_D)] + 2 tau D
  Nullable bound_upper;               ///< any N: w + s E[Y^N] + 2 tau D
  Nullable theorem2_lower;            ///< exponential noise, full trees
  Nullable theorem3_lower;            ///< Pareto noise, full trees
  Nullable theorem4_lower;            ///< Bernoulli noise, full trees
};

/// The exact distribution of one phase's time.
MaxDistribution phase_time_distribution(const TreeBarrierModel& model);

/// Everything above for one model (Theorems 2-4 where its law is theirs).
TreeTheory tree_theory(const TreeBarrierModel& model, const std::vector<double>& probabilities);

/// Exact E[T] alone (the N_1/2 root search calls this many times).
double exact_mean_phase_time(const TreeBarrierModel& model);

}  // namespace collnoise

namespace collnoise {
/// Exact E[T] of the model with its N replaced by n.
double mean_at_n(TreeBarrierModel model, RankCount n);
}  // namespace collnoise
