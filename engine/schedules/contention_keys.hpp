#pragma once
// Contention on a schedule point (docs/models/contention.md): the topology its messages share
// (network.topology, engine/network/topology_keys.hpp), how they share its links
// (network.contention), where the ranks sit on it (network.placement) and the background traffic
// that shares it with them (network.rho).
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "engine/loggops/loggops.hpp"
#include "engine/schedules/engine/schedule_noise_spec.hpp"

namespace collnoise {

/// network.topology (or network.topology_file), network.contention, network.placement,
/// network.rho (background traffic) and network.link_bandwidth, as the schedule model takes
/// them.
std::vector<KeySpec> contention_keys();

/// Reads the contention into `net` (net.contention); leaves `net` as it is without
/// network.topology. InputError naming the key at fault: network.contention without a topology,
/// a topology without network.contention, a topology that is not one, network.placement =
/// "mapping" without a mapping file that has the endpoint column.
void read_contention(ParamReader& reader, ScheduleNet& net);

/// What the rest of a point must not ask of contention in this version, checked once the point
/// is read: InputError naming the key at fault (latency.use = "whole" or "wire", whose drawn
/// latencies are the whole wire, so would count the network's time twice). A critical path
/// (`critical_path`) is not refused: its network category holds a message's time in the
/// network (docs/models/critical-path.md).
void check_contention(const ScheduleNet& net, const ScheduleNoiseSpec& noise, bool critical_path);

}  // namespace collnoise
