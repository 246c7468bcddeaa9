// Uses collnoise's installed library: samples the phase time of a tree barrier (1023 ranks,
// w = 1 ms of work, tau = 2 us per hop, exponential stage noise with f = 0.1) and checks the
// sample mean against the exact mean E[T] (docs/models/tree-barrier.md). The seed is fixed, so
// the sample mean is too; it must lie within 4 standard errors of the exact mean (a correct
// library misses that with probability 6e-5 over seeds; a wrong law, shape or sampler misses it
// by far). Exit code 0 when it does, 1 otherwise.
#include <cmath>
#include <cstdio>
#include <vector>

#include "collnoise_version.hpp"
#include "distributions/law_spec.hpp"
#include "engine/tree_barrier/sampler.hpp"
#include "engine/tree_barrier/tree_theory.hpp"
#include "estimators/accumulator.hpp"

int main() {
  using namespace collnoise;
  TreeBarrierModel model;
  model.shape = TreeShape(1023);
  model.w = 1e-3;
  model.tau = 2e-6;
  model.noise = make_stage_noise(LawSpec{"exponential", {{"f", 0.1}}, "", {}, "noise"}, model.w);

  constexpr std::size_t kPhases = 20000;
  std::vector<double> phase_times(kPhases);
  TreeBarrierSampler(model, TreeSampling::kPerRank, 17).sample(0, phase_times, 2);
  Accumulator acc;
  for (const double t : phase_times) acc.add(t);

  const double exact = exact_mean_phase_time(model);
  const double standard_error = acc.sd() / std::sqrt(static_cast<double>(kPhases));
  const double z = (acc.mean - exact) / standard_error;
  std::printf(
      "collnoise %s: tree barrier, N = 1023, %zu phases: mean %.9g s, exact %.9g s, z = %.2f\n",
      kEngineVersion, kPhases, acc.mean, exact, z);
  if (!(std::abs(z) < 4.0)) {
    std::printf("FAILED: the sample mean is more than 4 standard errors from the exact mean\n");
    return 1;
  }
  return 0;
}
