#pragma once
// N_1/2 (docs/models/tree-barrier.md; Agarwal et al., Section 4): the smallest N whose expected
// phase time is at least twice the noiseless single-processor time, E[T](N) >= 2w.
#include <string>

#include "core/nullable.hpp"
#include "engine/tree_barrier/sampler.hpp"

namespace collnoise {

/// The paper's approximate formula for the model's law, where the law gives one
/// (NoiseLaw::nhalf_approximation: exponential, Pareto, Bernoulli); null with a reason for
/// other laws.
struct PaperApprox {
  Nullable value;
  std::string formula;
};
PaperApprox nhalf_paper_approx(const TreeBarrierModel& model);

struct ExactNHalf {
  bool found = false;
  std::string reason;           ///< when not found
  RankCount n = 0;              ///< the smallest N with computed E[T](N) >= 2w
  bool resolved = false;        ///< E[T](n-1) < 2w <= E[T](n) beyond the integration error
  RankCount low = 0, high = 0;  ///< when unresolved: the N whose E[T] is within error of 2w
};

/// Root search over N (any N, or full trees 2^k - 1 only) on the exact E[T]; the model's own N
/// is ignored. Searches up to 2^126.
ExactNHalf exact_nhalf(const TreeBarrierModel& model, bool full_trees_only);

/// Relative accuracy of the exact E[T] (quadrature tolerance), used to decide resolution.
inline constexpr double kExactMeanRelativeError = 1e-11;

}  // namespace collnoise
