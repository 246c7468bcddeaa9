#include "engine/network/allocation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"

namespace collnoise {
namespace {

void shuffle(std::vector<std::uint32_t>& v, Pcg32& stream) {
  for (std::size_t i = v.size(); i > 1; --i)
    std::swap(v[i - 1], v[static_cast<std::size_t>(stream.next_below(i))]);
}

// A uniform derangement of 0..n-1: uniform permutations until one has no fixed point (about e
// tries).
std::vector<std::uint32_t> derangement(std::size_t n, Pcg32& stream) {
  std::vector<std::uint32_t> target(n);
  for (bool fixed = true; fixed;) {
    std::iota(target.begin(), target.end(), 0u);
    shuffle(target, stream);
    fixed = false;
    for (std::size_t j = 0; j < target.size() && !fixed; ++j) fixed = target[j] == j;
  }
  return target;
}

}  // namespace

std::uint64_t background_endpoints(double rho, std::uint64_t endpoints) {
  if (!(rho >= 0.0 && rho < 1.0))
    throw InputError(
        fmt::format("network.rho = {} is invalid: the background fraction must lie "
                    "in [0, 1)",
                    rho));
  const auto perturbing =
      static_cast<std::uint64_t>(std::llround(rho * static_cast<double>(endpoints)));
  if (perturbing == 1)
    throw InputError(fmt::format(
        "network.rho = {} leaves a single background endpoint on {} endpoints: a derangement "
        "needs none or at least two",
        rho, endpoints));
  return perturbing;
}

NetworkAllocation draw_network_allocation(std::uint64_t endpoints, std::uint64_t perturbing,
                                          std::uint64_t key,
                                          std::span<const std::uint32_t> occupied) {
  Pcg32 stream = make_stream(hash_combine(key, 1));
  std::vector<std::uint32_t> endpoint(endpoints);
  std::iota(endpoint.begin(), endpoint.end(), 0u);
  shuffle(endpoint, stream);
  NetworkAllocation a;
  if (occupied.empty()) {
    a.process_endpoint.assign(endpoint.begin() + static_cast<std::ptrdiff_t>(perturbing),
                              endpoint.end());
  } else {
    // The application's endpoints are taken: the background is the first free ones in order.
    std::vector<bool> taken(endpoints, false);
    for (const std::uint32_t e : occupied) taken[e] = true;
    std::erase_if(endpoint, [&](std::uint32_t e) { return taken[e]; });
  }
  if (perturbing > 0) {
    const std::vector<std::uint32_t> target = derangement(perturbing, stream);
    for (std::size_t j = 0; j < target.size(); ++j)
      a.background.emplace_back(endpoint[j], endpoint[target[j]]);
  }
  return a;
}

std::vector<std::uint32_t> background_link_load(
    const Topology& topology, std::span<const std::pair<std::uint32_t, std::uint32_t>> background) {
  std::vector<std::uint32_t> load(topology.link_id_bound(), 0);
  std::vector<LinkId> path(static_cast<std::size_t>(std::max(topology.diameter(), 1)));
  for (const auto& [src, dst] : background) {
    const std::size_t n = topology.route(src, dst, path);
    for (std::size_t k = 0; k < n; ++k) ++load[path[k]];
  }
  return load;
}

}  // namespace collnoise
