#include "engine/tree_barrier/tree_theory.hpp"

#include <fmt/format.h>
#include <cmath>

namespace collnoise {
namespace {

std::vector<MaxGroup> level_groups(const TreeBarrierModel& m) {
  std::vector<MaxGroup> groups;
  const auto counts = m.shape.level_counts();
  for (std::size_t d = 0; d < counts.size(); ++d)
    groups.push_back({m.w + 2.0 * m.tau * static_cast<double>(d), counts[d]});
  return groups;
}

}  // namespace

MaxDistribution phase_time_distribution(const TreeBarrierModel& model) {
  return MaxDistribution(*model.noise.eta, model.noise.scale, level_groups(model));
}

double exact_mean_phase_time(const TreeBarrierModel& model) {
  return phase_time_distribution(model).mean();
}

TreeTheory tree_theory(const TreeBarrierModel& m, const std::vector<double>& probabilities) {
  TreeTheory th;
  const auto dist = phase_time_distribution(m);
  const NoiseLaw& law = *m.noise.eta;
  const double s = m.noise.scale;
  const double alpha = law.tail_index();
  th.support_lower = dist.lower();

  if (s > 0.0 && alpha <= 1.0)
    th.exact_mean = Nullable::null("the noise law's tail index is <= 1: infinite mean");
  else
    th.exact_mean = Nullable::of(dist.mean());
  const auto sd = dist.sd();
  th.exact_sd = sd ? Nullable::of(*sd)
                   : Nullable::null(fmt::format("tail index {} <= 2: infinite variance", alpha));
  th.quantile_probabilities = probabilities;
  for (double p : probabilities) th.exact_quantiles.push_back(dist.quantile(p));

  const double n = to_double(m.shape.ranks());
  const int D = m.shape.depth();
  const double last = to_double(m.shape.level_count(D));
  const double latency = 2.0 * m.tau * D;
  th.bound_lower = Nullable::of(m.w + s * law.expected_max(last) + latency);
  th.bound_upper = Nullable::of(m.w + s * law.expected_max(n) + latency);

  if (!m.shape.is_full()) {
    const std::string why = "N is not a full tree (2^k - 1): see bound_lower/bound_upper";
    th.theorem1_lower = th.theorem1_lower_corrected = th.theorem1_upper = Nullable::null(why);
    th.theorem2_lower = th.theorem3_lower = th.theorem4_lower = Nullable::null(why);
    return th;
  }
  const double log2_n1 = static_cast<double>(D + 1);  // log2(N+1), exact for full trees
  const double leaves = last;                         // (N+1)/2
  const double noise_leaves = s * law.expected_max(leaves);
  th.theorem1_lower = Nullable::of(m.w + noise_leaves + 2.0 * m.tau * (log2_n1 - 2.0));
  th.theorem1_lower_corrected = Nullable::of(m.w + noise_leaves + 2.0 * m.tau * (log2_n1 - 1.0));
  th.theorem1_upper = Nullable::of(m.w + s * law.expected_max(n) + 2.0 * m.tau * (log2_n1 - 1.0));

  // Theorems 2-4 hold for one law each (exponential, Pareto, Bernoulli): the law says which
  // one is its own and gives the theorem's noise term.
  const std::string wrong_law = fmt::format("not defined for {} noise", law.name());
  const double printed_latency = 2.0 * m.tau * (log2_n1 - 2.0);
  const auto bound = law.tree_barrier_bound(leaves, s);
  const auto theorem_lower = [&](int theorem) {
    return bound && bound->theorem == theorem
               ? Nullable::of(m.w + bound->noise_term + printed_latency)
               : Nullable::null(wrong_law);
  };
  th.theorem2_lower = theorem_lower(2);
  th.theorem3_lower = theorem_lower(3);
  th.theorem4_lower = theorem_lower(4);
  return th;
}

}  // namespace collnoise

namespace collnoise {
double mean_at_n(TreeBarrierModel model, RankCount n) {
  model.shape = TreeShape(n);
  return exact_mean_phase_time(model);
}
}  // namespace collnoise
