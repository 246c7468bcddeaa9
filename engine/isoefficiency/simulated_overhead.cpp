#include "engine/isoefficiency/simulated_overhead.hpp"

#include <vector>

#include "core/stop_request.hpp"
#include "engine/cycles/cycle_engine.hpp"
#include "engine/tree_barrier/tree_theory.hpp"
#include "estimators/mean_interval.hpp"

namespace collnoise {
namespace {

// The overhead's mean and interval: tail-aware where the noise has infinite variance.
SimulatedOverhead summarize(std::span<const double> overheads, double tail_index,
                            double confidence) {
  Accumulator acc;
  TopValues top(4096);
  for (double x : overheads) {
    acc.add(x);
    top.add(x);
  }
  const MeanInterval ci = mean_interval(acc, top, 0.0, tail_index, confidence);
  SimulatedOverhead o;
  o.mean = ci.corrected_mean.has_value() ? *ci.corrected_mean.value : acc.mean;
  o.low = ci.ci_low.value;
  o.high = ci.ci_high.value;
  o.method = ci.method;
  o.warnings = ci.warnings;
  return o;
}

}  // namespace

OverheadSimulator tree_barrier_overhead(TreeBarrierModel base, std::uint64_t samples) {
  return [base, samples](double m, int threads, std::uint64_t key, double confidence) {
    TreeBarrierModel model = base;
    model.shape = TreeShape(static_cast<RankCount>(m));
    std::vector<double> phases(samples);
    TreeBarrierSampler(model, TreeSampling::kPerLevel,
                       hash_combine(key, static_cast<std::uint64_t>(m)))
        .sample(0, phases, threads);
    for (double& t : phases) t -= model.w;
    SimulatedOverhead o = summarize(phases, model.noise.eta->tail_index(), confidence);
    o.exact = exact_mean_phase_time(model) - model.w;
    return o;
  };
}

OverheadSimulator butterfly_overhead(CycleSetup base, CpuNoiseSpec noise, std::uint64_t samples) {
  return [base, noise, samples](double m, int threads, std::uint64_t key, double confidence) {
    CycleSetup setup = base;
    setup.ranks = static_cast<std::uint64_t>(m);
    std::vector<double> times(samples);
    for (std::uint64_t k = 0; k < samples; ++k) {
      throw_if_stop_requested();
      ReplicationCpu cpu = make_replication_cpu(
          noise, stream_key(hash_combine(key, setup.ranks), StreamPurpose::kReplication, k),
          setup.ranks);
      times[k] = with_cpu(cpu, false, [&](auto& c) {
                   return simulate_cycles(setup, c, threads, CycleRecording{false, nullptr});
                 }).cycle_end.back();
    }
    SimulatedOverhead o = summarize(times,
                                    noise.time ? tail_index(*noise.time)
                                    : noise.stage && noise.stage->scale > 0.0
                                        ? noise.stage->eta->tail_index()
                                        : std::numeric_limits<double>::infinity(),
                                    confidence);
    // Per-stage noise scaled by f delays compute stages only, and there are none here (W = 0);
    // a law with a delay of its own (Bernoulli's T) does delay them: no closed form then.
    const bool quiet = !noise.time && !(noise.stage && noise.stage->scale > 0.0);
    if (quiet) o.exact = noiseless_closed_form(setup);
    return o;
  };
}

}  // namespace collnoise
