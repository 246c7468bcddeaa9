#include "engine/cycles/cycle_model.hpp"

#include <algorithm>
#include <bit>

namespace collnoise {

int rounds_of(const CycleSetup& setup) {
  if (setup.ranks <= 1) return 0;
  return static_cast<int>(std::bit_width(setup.ranks - 1));  // ceil(log2 N)
}

std::optional<double> noiseless_closed_form(const CycleSetup& setup) {
  const auto& net = setup.net;
  const double round = net.noiseless_round();
  const double c = net.cpu_overhead();
  const double n = net.nic_gap();
  const int k = rounds_of(setup);
  const auto m = static_cast<double>(setup.cycles);
  if (n > round) return std::nullopt;
  const double plain = m * (setup.work + static_cast<double>(k) * round);
  if (setup.algorithm != CycleAlgorithm::kRedundantButterfly || k < 2) return plain;
  const double busy = std::max(c, n);
  if (busy + c > net.wire_time() || busy + n > round) return std::nullopt;
  const double trail = (n <= c && k >= 3) ? 2.0 * c : c;
  return plain + (m - 1.0) * (std::max(trail + setup.work, n) - setup.work);
}

}  // namespace collnoise
