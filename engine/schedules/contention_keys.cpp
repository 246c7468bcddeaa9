#include "engine/schedules/contention_keys.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/network/topology_keys.hpp"

namespace collnoise {
namespace {

const KeySpec kContention{
    .name = "network.contention",
    .type = KeyType::kChoice,
    .meaning =
        "with network.topology: how messages share its links; \"simple\": LogGOPSim's "
        "model (1 byte per ns divided by the most messages on a link of the route)",
    .choices = contention_model_names(),
    .optional = true};

}  // namespace

std::vector<KeySpec> contention_keys() {
  return {topology_key(), kContention};
}

void read_contention(ParamReader& reader, ScheduleNet& net) {
  const bool topology = reader.has(topology_key().name);
  const bool contention = reader.has(kContention.name);
  if (!topology && !contention) return;
  if (!topology)
    throw InputError(fmt::format("{} applies with {}, and none is given", kContention.name,
                                 topology_key().name));
  if (!contention)
    throw InputError(fmt::format("{} on a schedule point needs {}: \"simple\" (LogGOPSim's model)",
                                 topology_key().name, kContention.name));
  auto spec = std::make_shared<ContentionSpec>();
  spec->topology = parse_topology(reader.text(topology_key()));
  spec->model = contention_model_named(reader.text(kContention));
  net.contention = std::move(spec);
}

void check_contention(const ScheduleNet& net, const ScheduleNoiseSpec& noise, bool critical_path) {
  if (!net.contention) return;
  if (noise.delays && noise.delays->depend_on_net())
    throw InputError(fmt::format(
        "{} with latency.use = \"whole\" or \"wire\" or latency.draw = \"loggp\": the drawn "
        "latencies would be the whole wire, and the network's time would count twice; use "
        "latency.use = \"excess\"",
        kContention.name));
  if (critical_path)
    throw InputError(fmt::format(
        "output.critical_path = true with {}: the path's categories do not hold a message's "
        "time in the network in this version",
        kContention.name));
}

}  // namespace collnoise
