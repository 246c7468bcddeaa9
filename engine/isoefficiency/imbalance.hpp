#pragma once
// Load imbalance measured by Monte Carlo (docs/models/isoefficiency.md): the extra time of the node
// that finishes last, T_q = max_i (w_i - W/m) / p, for two sources of imbalance.
//  - Granularity: W work units come in J = max(1, round(W / g)) jobs whose sizes are g eta_k
//    (eta iid, unit mean, from a law of distributions/), rescaled to sum exactly W, and dealt as
//    whole jobs: in blocks (node i gets jobs [iJ/m, (i+1)J/m)), cyclically (job k to node k mod m)
//    or at random (each job to a uniform node). The stream draws, for job k, its size and then its
//    node, so two W of one sample share their first jobs (common random numbers).
//  - Noise: each node is delayed by s eta_i; the largest of m iid delays is drawn exactly as
//    s ISF(-expm1(log U / m)) (the per-level draw of the tree barrier), O(1) for any m.
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

enum class Assignment { kBlock, kCyclic, kRandom };

/// max_i w_i - W/m, in work units, for one sample; `sizes` null means jobs of equal size.
/// Preconditions: W > 0, m >= 1, g > 0.
/// `loads` is scratch space (resized to m).
double granularity_excess(double work, std::uint64_t m, double job_mean, const NoiseLaw* sizes,
                          Assignment assignment, Pcg32 stream, std::vector<double>& loads);

/// The largest of m iid draws of eta (unit-mean law), drawn exactly from one uniform.
double max_of_iid(const NoiseLaw& eta, double m, Pcg32& stream);

}  // namespace collnoise
