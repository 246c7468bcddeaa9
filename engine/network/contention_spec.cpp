#include "engine/network/contention_spec.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "engine/network/simple_network.hpp"

namespace collnoise {

std::vector<std::string> contention_model_names() {
  return {"simple"};
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
  if (topology->endpoints() < ranks)
    throw InputError(fmt::format("network.topology = \"{}\" has {} endpoints for {} ranks",
                                 topology->describe(), topology->endpoints(), ranks));
  return std::make_unique<SimpleNetwork>(*topology);
}

}  // namespace collnoise
