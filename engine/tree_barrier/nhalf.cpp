#include "engine/tree_barrier/nhalf.hpp"

#include <fmt/format.h>
#include <cmath>

#include "engine/tree_barrier/tree_theory.hpp"

namespace collnoise {
namespace {

// Smallest n in (lo, hi] with pred(n), given !pred(lo) and pred(hi).
template <class Pred>
RankCount first_true_count(RankCount lo, RankCount hi, Pred pred) {
  while (hi - lo > 1) {
    const RankCount mid = lo + (hi - lo) / 2;
    if (pred(mid))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

// E[T] sees a tree through its level counts as doubles: beyond 2^53 a partial last level may
// round, and then E[T] is that of a neighbouring N.
bool level_counts_exact(RankCount n) {
  const TreeShape shape(n);
  for (int d = 0; d <= shape.depth(); ++d) {
    const RankCount count = shape.level_count(d);
    if (static_cast<RankCount>(to_double(count)) != count) return false;
  }
  return true;
}

}  // namespace

PaperApprox nhalf_paper_approx(const TreeBarrierModel& m) {
  const NoiseLaw& law = *m.noise.eta;
  if (const auto approx = law.nhalf_approximation(m.noise.overhead, m.w, m.tau))
    return {Nullable::of(approx->value), approx->formula};
  return {Nullable::null(fmt::format("the paper gives no N_1/2 formula for {} noise", law.name())),
          ""};
}

ExactNHalf exact_nhalf(const TreeBarrierModel& model, bool full_trees_only) {
  ExactNHalf r;
  const double target = 2.0 * model.w;
  const auto n_of = [&](RankCount k) {
    return full_trees_only ? pow2(static_cast<int>(k)) - 1 : k;
  };
  // Each step integrates an exact mean; the integration polls for stop requests.
  const auto reaches = [&](RankCount k) { return mean_at_n(model, n_of(k)) >= target; };
  // For full trees the search variable is the level count k (N = 2^k - 1), else N itself.
  RankCount lo = 0;
  RankCount hi = 1;
  const RankCount limit = full_trees_only ? 126 : pow2(126);
  while (!reaches(hi)) {
    lo = hi;
    hi = full_trees_only ? hi + 1 : hi * 2;
    if (hi > limit) {
      r.reason = "E[T] stays below 2w up to N = 2^126";
      return r;
    }
  }
  const RankCount k = (hi == 1 || hi - lo == 1) ? hi : first_true_count(lo, hi, reaches);
  r.found = true;
  r.n = n_of(k);
  const double tol = kExactMeanRelativeError * target;
  const RankCount prev = full_trees_only ? (k > 1 ? n_of(k - 1) : 0) : r.n - 1;
  const double above = mean_at_n(model, r.n);
  const double below = prev >= 1 ? mean_at_n(model, prev) : -1.0;
  r.resolved = (above - target > tol || r.n == 1) && (target - below > tol) &&
               level_counts_exact(r.n) && (prev == 0 || level_counts_exact(prev));
  if (!r.resolved && !full_trees_only) {
    r.low =
        first_true_count(0, r.n, [&](RankCount n) { return mean_at_n(model, n) >= target - tol; });
    RankCount top = r.n;
    while (top < pow2(126) && mean_at_n(model, top) < target + tol) top *= 2;
    r.high = first_true_count(r.n - 1, top,
                              [&](RankCount n) { return mean_at_n(model, n) >= target + tol; });
  } else {
    r.low = r.high = r.n;
  }
  return r;
}

}  // namespace collnoise
