#include "engine/network/contention_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"
#include "engine/network/allocation.hpp"
#include "engine/network/flow_network.hpp"
#include "engine/network/simple_network.hpp"

namespace collnoise {
namespace {

// The endpoints a placement's ranks occupy, each counted once.
std::uint64_t distinct_endpoints(std::vector<std::uint32_t> endpoint_of) {
  std::sort(endpoint_of.begin(), endpoint_of.end());
  return static_cast<std::uint64_t>(std::unique(endpoint_of.begin(), endpoint_of.end()) -
                                    endpoint_of.begin());
}

}  // namespace

std::vector<std::string> contention_model_names() {
  return {"simple", "flows"};
}

ContentionModel contention_model_named(const std::string& name) {
  const auto names = contention_model_names();
  const auto at = std::find(names.begin(), names.end(), name);
  return static_cast<ContentionModel>(at - names.begin());
}

std::string ContentionSpec::model_name() const {
  return contention_model_names()[static_cast<std::size_t>(model)];
}

std::shared_ptr<const ContentionSpec> ContentionSpec::for_sample(std::uint64_t key,
                                                                 std::uint32_t ranks) const {
  const std::uint64_t endpoints = topology->endpoints();
  // The application's endpoints when they stay put (the background avoids them); none to
  // avoid when the draw places the ranks after the background.
  std::vector<std::uint32_t> occupied;
  std::uint64_t placed = ranks;
  if (random_placement) {
    if (ranks > endpoints)
      throw InputError(fmt::format("network.topology = \"{}\" has {} endpoints for {} ranks",
                                   topology->describe(), endpoints, ranks));
  } else {
    check_fits(ranks);
    occupied = endpoint_of;
    if (occupied.empty()) {
      occupied.resize(ranks);
      std::iota(occupied.begin(), occupied.end(), 0u);
    }
    occupied.resize(ranks);
    placed = distinct_endpoints(occupied);
  }
  if (placed + background > endpoints)
    throw InputError(fmt::format(
        "network.rho = {} gives {} background endpoints, and {} ranks on {} endpoints leave {}: "
        "network.topology = \"{}\" has too few endpoints",
        rho, background, ranks, placed, endpoints - placed, topology->describe()));
  NetworkAllocation a = draw_network_allocation(endpoints, background, key, occupied);
  auto sample = std::make_shared<ContentionSpec>(*this);
  if (random_placement) {
    a.process_endpoint.resize(ranks);
    sample->endpoint_of = std::move(a.process_endpoint);
  }
  sample->background_load = std::make_shared<const std::vector<std::uint32_t>>(
      background_link_load(*topology, a.background));
  return sample;
}

void ContentionSpec::check_fits(std::uint32_t ranks) const {
  if (endpoint_of.empty()) {
    if (topology->endpoints() < ranks)
      throw InputError(fmt::format("network.topology = \"{}\" has {} endpoints for {} ranks",
                                   topology->describe(), topology->endpoints(), ranks));
  } else {
    if (endpoint_of.size() < ranks)
      throw InputError(fmt::format("{} places {} ranks, and the schedule has {}", placement,
                                   endpoint_of.size(), ranks));
    const auto most = *std::max_element(endpoint_of.begin(), endpoint_of.end());
    if (most >= topology->endpoints())
      throw InputError(fmt::format("{} names endpoint {}, and network.topology = \"{}\" has {}",
                                   placement, most, topology->describe(), topology->endpoints()));
  }
}

std::unique_ptr<MessageNetwork> ContentionSpec::start_run(std::uint32_t ranks) const {
  check_fits(ranks);
  const std::span<const std::uint32_t> load = background_load
                                                  ? std::span<const std::uint32_t>(*background_load)
                                                  : std::span<const std::uint32_t>();
  if (model == ContentionModel::kFlows) {
    auto flows = std::make_unique<FlowNetwork>(*topology, endpoint_of, bytes_per_ns, load);
    flows->set_listener(listener);
    return flows;
  }
  auto simple = std::make_unique<SimpleNetwork>(*topology, endpoint_of, load);
  simple->set_listener(listener);
  return simple;
}

}  // namespace collnoise
