#pragma once
// Near and far rank pairs (docs/models/schedules.md, "Near and far rank pairs"): the keys that
// tell them apart (network.nodes_per_switch with network.ranks_per_node, or network.mapping, a
// rank mapping file: rank_mapping.hpp) and the far pairs' LogGOPS (loggops.far.L, .o, .g, .G,
// .O, .S: each replaces the near pairs' value; one not given stays the near pairs'). The far
// pairs' pools are the [latency] table's (latency.far.file, message_delays.hpp).
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "core/record.hpp"
#include "engine/loggops/loggops.hpp"
#include "engine/schedules/rank_mapping.hpp"
#include "engine/schedules/schedule/any_schedule.hpp"

namespace collnoise {

/// network.nodes_per_switch, network.ranks_per_node, network.mapping and loggops.far.*.
std::vector<KeySpec> pair_class_keys();

/// network.mapping: the rank mapping file (rank_mapping.hpp), which also places the ranks on a
/// topology's endpoints (engine/schedules/contention_keys.hpp).
const KeySpec& mapping_key();

/// "network.mapping = 'path' (checksum)": the mapping file `mapping` as read by `reader`.
std::string mapping_named(const ParamReader& reader, const RankMapping& mapping);

/// Reads the classes into `net` (net.classes, its far net the near one with loggops.far's
/// values, in every entry of its table per size); leaves `net` as it is without classes.
/// Records the far values simulated (simulated.loggops.far.L, ...). InputError naming the key
/// at fault: both ways given, network.ranks_per_node or a loggops.far key without classes, a
/// damaged mapping file.
void read_pair_classes(ParamReader& reader, ScheduleNet& net);

/// Puts pair_classes, near_messages and far_messages (schedule_fields.hpp) into `record` for
/// schedule `s` under `classes`.
void put_pair_class_fields(Record& record, const PairClasses& classes, const AnySchedule& s);

}  // namespace collnoise
