#include "engine/schedules/contention_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/errors.hpp"
#include "engine/network/allocation.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/network/dot_topology.hpp"
#include "engine/network/topology_keys.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/pair_class_keys.hpp"
#include "engine/schedules/rank_mapping.hpp"

namespace collnoise {
namespace {

const KeySpec kContention{
    .name = "network.contention",
    .type = KeyType::kChoice,
    .meaning =
        "with network.topology: how messages share its links; \"simple\": LogGOPSim's "
        "model (1 byte per ns divided by the most messages on a link of the route); "
        "\"flows\": each link's bandwidth shared max-min fairly by the flows on it",
    .choices = contention_model_names(),
    .optional = true};

const KeySpec kTopologyFile{
    .name = "network.topology_file",
    .type = KeyType::kFile,
    .meaning =
        "the topology from a file in LogGOPSim's annotated dot format (hosts H..., "
        "routes in each edge's comment; docs/models/topology-files.md); exclusive with "
        "network.topology",
    .optional = true};

const KeySpec kPlacement{
    .name = "network.placement",
    .type = KeyType::kChoice,
    .meaning =
        "with network.topology: where ranks sit; \"linear\": rank r on endpoint r; "
        "\"mapping\": each rank on its node's endpoint, the fourth column of "
        "network.mapping; \"random\": each sample places the ranks anew, on endpoints "
        "drawn uniformly (with the background's, network.rho)",
    .fallback = std::string("linear"),
    .choices = {"linear", "mapping", "random"}};

const KeySpec kBackgroundSchedule{
    .name = "network.background_schedule",
    .type = KeyType::kFile,
    .meaning =
        "with network.contention: a background job beside the collective, a GOAL schedule "
        "(relative to the run file) whose ranks sit on the endpoints after the collective's "
        "and whose messages share the links",
    .optional = true};

const KeySpec kLinkBandwidth{
    .name = "network.link_bandwidth",
    .meaning = "with network.contention = \"flows\": every link's bandwidth, bytes per second",
    .bounds = {0.0, std::numeric_limits<double>::infinity(), true, false},
    .optional = true};

// Each rank's endpoint from the mapping file's fourth column, and how it was placed.
void place_by_mapping(ParamReader& reader, ContentionSpec& spec) {
  if (!reader.has(mapping_key().name))
    throw InputError(
        fmt::format("{} = \"mapping\" needs {}, a file of `rank node switch "
                    "endpoint` lines",
                    kPlacement.name, mapping_key().name));
  const RankMapping mapping = read_rank_mapping(reader.text(mapping_key()));
  if (mapping.endpoint_of.empty())
    throw InputError(
        fmt::format("{} = \"mapping\": '{}' has no endpoint column (its lines are "
                    "`rank node switch`; write `rank node switch endpoint`)",
                    kPlacement.name, mapping.path));
  spec.endpoint_of = mapping.endpoint_of;
  spec.placement = mapping_named(reader, mapping);
}

// The flows' link bandwidth: network.link_bandwidth, else the NIC's 1/G.
void read_link_bandwidth(ParamReader& reader, const ScheduleNet& net, ContentionSpec& spec) {
  const bool given = reader.has(kLinkBandwidth.name);
  if (spec.model != ContentionModel::kFlows) {
    if (given)
      throw InputError(
          fmt::format("{} applies with network.contention = \"flows\"", kLinkBandwidth.name));
    return;
  }
  if (given) {
    spec.bytes_per_ns = reader.number(kLinkBandwidth) * 1e-9;
  } else if (net.G > 0.0) {
    spec.bytes_per_ns = 1.0 / net.G;
  } else {
    throw InputError(fmt::format(
        "network.contention = \"flows\" with loggops.G = 0: give {} (the links' bandwidth, "
        "bytes per second), or G > 0 (the links then carry 1/G)",
        kLinkBandwidth.name));
  }
}

}  // namespace

std::vector<KeySpec> contention_keys() {
  return {topology_key(),   kTopologyFile,  kContention,        kPlacement,
          background_key(), kLinkBandwidth, kBackgroundSchedule};
}

void read_contention(ParamReader& reader, ScheduleNet& net) {
  const bool from_file = reader.has(kTopologyFile.name);
  if (from_file && reader.has(topology_key().name))
    throw InputError(
        fmt::format("give one of {} and {}, not both", topology_key().name, kTopologyFile.name));
  const bool topology = from_file || reader.has(topology_key().name);
  const bool contention = reader.has(kContention.name);
  if (!topology && !contention) {
    for (const KeySpec* key : {&kPlacement, &background_key(), &kBackgroundSchedule})
      if (reader.has(key->name))
        throw InputError(
            fmt::format("{} applies with {}, and none is given", key->name, topology_key().name));
    return;
  }
  if (!topology)
    throw InputError(fmt::format("{} applies with {}, and none is given", kContention.name,
                                 topology_key().name));
  if (!contention)
    throw InputError(
        fmt::format("{} on a schedule point needs {}: \"flows\" (bandwidth shared "
                    "max-min) or \"simple\" (LogGOPSim's model)",
                    topology_key().name, kContention.name));
  auto spec = std::make_shared<ContentionSpec>();
  if (from_file)
    spec->topology =
        std::make_shared<const DotTopology>(DotTopology::read(reader.text(kTopologyFile)));
  else
    spec->topology = parse_topology(reader.text(topology_key()));
  spec->model = contention_model_named(reader.text(kContention));
  const std::string placement = reader.text(kPlacement);
  if (placement == "mapping") place_by_mapping(reader, *spec);
  if (placement == "random") {
    spec->random_placement = true;
    spec->placement = placement;
  }
  if (reader.has(background_key().name)) {
    spec->rho = reader.number(background_key());
    spec->background = background_endpoints(spec->rho, spec->topology->endpoints());
  }
  read_link_bandwidth(reader, net, *spec);
  net.contention = std::move(spec);
}

std::shared_ptr<const BackgroundJob> read_background_job(ParamReader& reader,
                                                         const ScheduleNet& net) {
  if (!reader.has(kBackgroundSchedule.name)) return nullptr;
  // (Without a topology read_contention refused the key already.)
  if (!net.contention) return nullptr;
  const std::string path = reader.text(kBackgroundSchedule);
  auto job = std::make_shared<BackgroundJob>();
  job->schedule = read_goal_file(path);
  job->description = fmt::format("GOAL file {}", path);
  return job;
}

void check_room_for_job(const ContentionSpec& spec, std::uint32_t ranks, std::uint32_t job_ranks) {
  const std::uint64_t endpoints = spec.topology->endpoints();
  const std::uint64_t needed = std::uint64_t{ranks} + job_ranks + spec.background;
  if (spec.endpoint_of.empty() && needed > endpoints)
    throw InputError(fmt::format(
        "{}: its {} ranks beside the collective's {}{} need {} endpoints, and network.topology "
        "= \"{}\" has {}",
        kBackgroundSchedule.name, job_ranks, ranks,
        spec.background > 0 ? fmt::format(" and network.rho's {} background", spec.background)
                            : std::string(),
        needed, spec.topology->describe(), endpoints));
}

void check_background_job(const EntrySpec& entry) {
  if (entry.loop())
    throw InputError(fmt::format(
        "{} with a benchmark loop: not in this version (the job would start again with each "
        "iteration)",
        kBackgroundSchedule.name));
}

void check_contention(const ScheduleNet& net, const ScheduleNoiseSpec& noise, bool critical_path) {
  if (!net.contention) return;
  if (noise.delays && noise.delays->depend_on_net())
    throw InputError(fmt::format(
        "{} with latency.use = \"whole\" or \"wire\" or latency.draw = \"loggp\": the drawn "
        "latencies would be the whole wire, and the network's time would count twice; use "
        "latency.use = \"excess\"",
        kContention.name));
  // Critical paths count a message's time in the network as a category of its own
  // (docs/models/critical-path.md).
  (void)critical_path;
}

}  // namespace collnoise
