#pragma once
// A tree-barrier model for tests: N ranks, work w and hop latency tau in seconds.
#include "distributions/law_spec.hpp"
#include "engine/tree_barrier/sampler.hpp"

inline collnoise::TreeBarrierModel test_model(collnoise::RankCount n,
                                              const collnoise::LawSpec& spec, double w = 1e-3,
                                              double tau = 2e-6) {
  collnoise::TreeBarrierModel m;
  m.shape = collnoise::TreeShape(n);
  m.w = w;
  m.tau = tau;
  m.noise = collnoise::make_stage_noise(spec, w);
  return m;
}
