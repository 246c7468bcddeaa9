#include "engine/isoefficiency/imbalance.hpp"

#include <algorithm>
#include <cmath>

namespace collnoise {

double granularity_excess(double work, std::uint64_t m, double job_mean, const NoiseLaw* sizes,
                          Assignment assignment, Pcg32 stream, std::vector<double>& loads) {
  const auto jobs = static_cast<std::uint64_t>(std::max(1.0, std::round(work / job_mean)));
  loads.assign(m, 0.0);
  double total = 0.0;
  for (std::uint64_t k = 0; k < jobs; ++k) {
    const double size = sizes ? sizes->isf(stream.next_uniform()) : 1.0;
    std::uint64_t node = 0;
    switch (assignment) {
      case Assignment::kBlock:
        // Node i holds jobs [floor(i J / m), floor((i+1) J / m)): job k's node is the largest i
        // with floor(i J / m) <= k.
        node = ((k + 1) * m - 1) / jobs;
        break;
      case Assignment::kCyclic:
        node = k % m;
        break;
      case Assignment::kRandom:
        node = stream.next_below(m);
        break;
    }
    loads[node] += size;
    total += size;
  }
  if (!(total > 0.0)) return 0.0;  // every job empty: perfectly balanced (all zero)
  const double largest = *std::max_element(loads.begin(), loads.end());
  return work * (largest / total) - work / static_cast<double>(m);
}

double max_of_iid(const NoiseLaw& eta, double m, Pcg32& stream) {
  return eta.isf(-std::expm1(std::log(stream.next_uniform()) / m));
}

}  // namespace collnoise
