#include "engine/network/contention_spec.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "engine/network/flow_network.hpp"
#include "engine/network/simple_network.hpp"

namespace collnoise {

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

std::unique_ptr<MessageNetwork> ContentionSpec::start_run(std::uint32_t ranks) const {
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
  if (model == ContentionModel::kFlows)
    return std::make_unique<FlowNetwork>(*topology, endpoint_of, bytes_per_ns);
  return std::make_unique<SimpleNetwork>(*topology, endpoint_of);
}

}  // namespace collnoise
