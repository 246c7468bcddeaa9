#pragma once
// Contention on a schedule point (docs/models/contention.md): the topology its messages share
// (network.topology, engine/network/topology_keys.hpp), how they share its links
// (network.contention), where the ranks sit on it (network.placement) and the background traffic
// that shares it with them (network.rho).
#include <memory>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "engine/loggops/loggops.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/schedules/engine/schedule_noise_spec.hpp"
#include "engine/schedules/entry_keys.hpp"
#include "engine/schedules/schedule/background_job.hpp"

namespace collnoise {

/// network.topology (or network.topology_file), network.contention, network.placement,
/// network.rho (background traffic), network.link_bandwidth and network.background_schedule (a
/// background job), as the schedule model takes them.
std::vector<KeySpec> contention_keys();

/// Reads the contention into `net` (net.contention); leaves `net` as it is without
/// network.topology. InputError naming the key at fault: network.contention without a topology,
/// a topology without network.contention, a topology that is not one, network.placement =
/// "mapping" without a mapping file that has the endpoint column.
void read_contention(ParamReader& reader, ScheduleNet& net);

/// The point's background job, or null without network.background_schedule. InputError: the
/// file's (goal_reader.hpp).
std::shared_ptr<const BackgroundJob> read_background_job(ParamReader& reader,
                                                         const ScheduleNet& net);
/// InputError naming network.background_schedule when the topology has fewer endpoints than
/// the collective's `ranks`, the job's `job_ranks` and the background's (a mapping file's
/// placement is checked when it is used).
void check_room_for_job(const ContentionSpec& spec, std::uint32_t ranks, std::uint32_t job_ranks);
/// InputError naming network.background_schedule when the point asks what a background job does
/// not do in this version (a benchmark loop, which would start it again each iteration).
void check_background_job(const EntrySpec& entry);

/// What the rest of a point must not ask of contention in this version, checked once the point
/// is read: InputError naming the key at fault (latency.use = "whole" or "wire", whose drawn
/// latencies are the whole wire, so would count the network's time twice). A critical path
/// (`critical_path`) is not refused: its network category holds a message's time in the
/// network (docs/models/critical-path.md).
void check_contention(const ScheduleNet& net, const ScheduleNoiseSpec& noise, bool critical_path);

}  // namespace collnoise
