#pragma once
// Who sends background traffic, and where the application's ranks sit, in one sample of a
// network with background traffic (docs/models/network.md, docs/models/contention.md): the seed
// study's draw, declared once for the round model (engine/network/congestion.hpp) and for the
// schedule engine's contention (engine/network/contention_spec.hpp), so that a sample of either
// on the same key places every rank and background message alike.
//
// The draw: the endpoints in a uniformly shuffled order; the first round(rho E) of them not
// occupied by the application send background traffic, each to another of them along a uniform
// derangement; with a random placement, the application's processes take the next endpoints in
// that order (the seed study's allocation: background first, then the processes).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "engine/network/topology.hpp"

namespace collnoise {

/// One sample's allocation, drawn from its stream: who perturbs, where each process runs.
struct NetworkAllocation {
  std::vector<std::uint32_t> process_endpoint;                      ///< process -> endpoint
  std::vector<std::pair<std::uint32_t, std::uint32_t>> background;  ///< (src, dst) endpoints
};

/// round(rho E) background endpoints of `endpoints` E. InputError naming network.rho when rho is
/// outside [0, 1) or leaves a single one (a derangement needs none or at least two).
std::uint64_t background_endpoints(double rho, std::uint64_t endpoints);

/// The allocation of the sample keyed `key`: `perturbing` background endpoints among
/// `endpoints` and, when `occupied` is empty, every other endpoint as a process (process p on
/// process_endpoint[p]); else the background avoids the endpoints of `occupied` (the
/// application's, placed otherwise) and process_endpoint is empty. Precondition: `perturbing`
/// endpoints are free (perturbing + distinct occupied <= endpoints).
NetworkAllocation draw_network_allocation(std::uint64_t endpoints, std::uint64_t perturbing,
                                          std::uint64_t key,
                                          std::span<const std::uint32_t> occupied = {});

/// How many background messages cross each link (indexed by LinkId, link_id_bound() entries).
std::vector<std::uint32_t> background_link_load(
    const Topology& topology, std::span<const std::pair<std::uint32_t, std::uint32_t>> background);

}  // namespace collnoise
