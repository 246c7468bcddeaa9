#include "engine/schedules/pair_class_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/errors.hpp"
#include "engine/loggops/loggops_keys.hpp"
#include "engine/schedules/rank_mapping.hpp"
#include "engine/schedules/schedule_fields.hpp"
#include "engine/schedules/schedule_net_keys.hpp"

namespace collnoise {
namespace {

constexpr double kMaxRanks = 1073741824.0;  // 2^30, the engine's limit

const KeySpec kNodesPerSwitch{
    .name = "network.nodes_per_switch",
    .type = KeyType::kInteger,
    .meaning =
        "near and far rank pairs: nodes per switch K, ranks r and q near iff floor(n_r / K) = "
        "floor(n_q / K) for their nodes n (the data set authors' LogGOPSim --nodes_per_switch)",
    .bounds = {1.0, kMaxRanks},
    .optional = true};
const KeySpec kRanksPerNode{
    .name = "network.ranks_per_node",
    .type = KeyType::kInteger,
    .meaning = "with network.nodes_per_switch: ranks per node, rank r on node floor(r / it)",
    .fallback = std::int64_t{1},
    .bounds = {1.0, kMaxRanks}};
const KeySpec kMapping{.name = "network.mapping",
                       .type = KeyType::kFile,
                       .meaning =
                           "near and far rank pairs from a file of `rank node switch` lines: near "
                           "iff on one switch",
                       .optional = true};

// A [loggops] key as the far pairs' (loggops.far.L): no default, the near pairs' value instead.
KeySpec far_key(const KeySpec& k) {
  return loggops_variant(k, "loggops.far.", "for far rank pairs", "the near pairs'");
}

std::vector<KeySpec> far_keys() {
  std::vector<KeySpec> keys;
  for (const KeySpec& k : loggops_keys())
    if (k.name != "loggops.message_bytes") keys.push_back(far_key(k));
  for (const KeySpec& k : schedule_net_keys())
    if (k.name == "loggops.S") keys.push_back(far_key(k));
  return keys;
}

// The far pairs' net: the near one with each loggops.far value given, at every size.
ScheduleNet far_net(ParamReader& reader, const ScheduleNet& near) {
  ScheduleNet far = near;
  far.classes.reset();
  const auto apply = [&](const auto& set) {
    set(far);
    for (ScheduleNet& entry : far.by_size) set(entry);
  };
  for (const KeySpec& k : far_keys()) {
    if (!reader.has(k.name)) continue;
    const std::string which = k.name.substr(std::string("loggops.far.").size());
    if (which == "S") {
      const auto s = static_cast<std::uint64_t>(reader.integer(k));
      apply([&](ScheduleNet& n) { n.S = s; });
      continue;
    }
    const double ns = to_ns(reader.number(k));
    double ScheduleNet::*field = which == "L"   ? &ScheduleNet::L
                                 : which == "o" ? &ScheduleNet::o
                                 : which == "g" ? &ScheduleNet::g
                                 : which == "G" ? &ScheduleNet::G
                                                : &ScheduleNet::O;
    apply([&](ScheduleNet& n) { n.*field = ns; });
  }
  reader.derive("simulated.loggops.far.L", far.L / 1e9, false, "seconds");
  reader.derive("simulated.loggops.far.o", far.o / 1e9, false, "seconds");
  reader.derive("simulated.loggops.far.g", far.g / 1e9, false, "seconds");
  reader.derive("simulated.loggops.far.G", far.G / 1e9, false, "seconds per byte");
  reader.derive("simulated.loggops.far.O", far.O / 1e9, false, "seconds per byte");
  return far;
}

RankSwitches read_rule(ParamReader& reader) {
  RankSwitches out;
  const auto nodes = static_cast<std::uint64_t>(reader.integer(kNodesPerSwitch));
  const auto per_node = static_cast<std::uint64_t>(reader.integer(kRanksPerNode));
  // Beyond the engine's 2^30 ranks every rank shares switch 0.
  out.ranks_per_switch = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(nodes * per_node, static_cast<std::uint64_t>(kMaxRanks)));
  out.rule = fmt::format(
      "network.nodes_per_switch = {}, ranks_per_node = {}: ranks r and q near iff floor(r / {}) = "
      "floor(q / {})",
      nodes, per_node, nodes * per_node, nodes * per_node);
  return out;
}

RankSwitches read_mapping(ParamReader& reader) {
  const RankMapping mapping = read_rank_mapping(reader.text(kMapping));
  RankSwitches out;
  out.switch_of = mapping.switch_of;
  const std::set<std::uint32_t> switches(mapping.switch_of.begin(), mapping.switch_of.end());
  out.rule = fmt::format("{}: {} ranks on {} switches, near iff on one",
                         mapping_named(reader, mapping), mapping.switch_of.size(), switches.size());
  return out;
}

}  // namespace

const KeySpec& mapping_key() {
  return kMapping;
}

std::string mapping_named(const ParamReader& reader, const RankMapping& mapping) {
  const auto given = std::find_if(reader.input_files().begin(), reader.input_files().end(),
                                  [](const DataFileRead& f) { return f.key == kMapping.name; });
  return fmt::format("{} = '{}' ({})", kMapping.name, mapping.path,
                     given == reader.input_files().end() ? "" : given->hash);
}

std::vector<KeySpec> pair_class_keys() {
  std::vector<KeySpec> keys = {kNodesPerSwitch, kRanksPerNode, kMapping};
  for (auto& k : far_keys()) keys.push_back(std::move(k));
  return keys;
}

void read_pair_classes(ParamReader& reader, ScheduleNet& net) {
  const bool rule = reader.has(kNodesPerSwitch.name);
  const bool mapping = reader.has(kMapping.name);
  if (rule && mapping)
    throw InputError("give one of network.nodes_per_switch and network.mapping, not both");
  if (!rule && reader.has(kRanksPerNode.name))
    throw InputError("network.ranks_per_node applies with network.nodes_per_switch");
  if (!rule && !mapping) {
    for (const KeySpec& k : far_keys())
      if (reader.has(k.name))
        throw InputError(
            fmt::format("{} applies with near and far rank pairs (network.nodes_per_switch or "
                        "network.mapping), and none is given",
                        k.name));
    return;
  }
  auto classes = std::make_shared<PairClasses>();
  classes->switches = rule ? read_rule(reader) : read_mapping(reader);
  classes->far = far_net(reader, net);
  net.classes = std::move(classes);
}

void put_pair_class_fields(Record& record, const PairClasses& classes, const AnySchedule& s) {
  using namespace schedule_fields;
  std::uint64_t near = 0, far = 0;
  std::visit(
      [&](const auto& x) {
        if (!classes.switches.covers(x.ranks())) return;
        for (std::uint32_t h = 0; h < x.ranks(); ++h) {
          const auto v = x.view(h);
          for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
            if (v.kind(op) == OpKind::kSend) ++(classes.switches.near(h, v.peer(op)) ? near : far);
        }
      },
      s);
  record.put(kPairClasses, Field(classes.switches.rule));
  record.put(kNearMessages, Field(near));
  record.put(kFarMessages, Field(far));
}

}  // namespace collnoise
