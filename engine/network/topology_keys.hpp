#pragma once
// A topology named in a run file (network.topology; docs/models/network.md, "Topologies"), and
// the summary fields that describe one: declared once for the two models that put messages on
// a network (the round model of engine/network/network_study.hpp and the schedule model's
// contention, docs/models/contention.md).
#include <memory>
#include <string>

#include "core/field_spec.hpp"
#include "core/key_spec.hpp"
#include "core/record.hpp"
#include "engine/network/topology.hpp"

namespace collnoise {

/// network.topology: "xgft(h; m_1,...,m_h; w_1,...,w_h)", "torus(k, n)", "k-ary n-cube" or
/// "dragonfly(p, a, h, g[; minimal|valiant])".
const KeySpec& topology_key();

/// network.rho: the fraction of the topology's endpoints that send background traffic, in
/// [0, 1) (engine/network/allocation.hpp). The round model needs it; a schedule point with
/// contention reads it when given (none: no background).
const KeySpec& background_key();

/// A topology from its run-file text: "xgft(2; 12,12; 1,6)" (XGFT(h; m_1..m_h; w_1..w_h)),
/// "torus(100, 2)" / "100-ary 2-cube" (k-ary n-cube) or "dragonfly(4, 8, 4, 9)" (p endpoints a
/// router, a routers a group, h global links a router, g groups; "; valiant" for Valiant
/// routing). Case-insensitive. InputError naming network.topology.
std::shared_ptr<const Topology> parse_topology(const std::string& text);

namespace topology_fields {

inline const FieldSpec kTopology{"topology", "", "the topology, described"};
inline const FieldSpec kFamily{"topology_family", "",
                               "\"fat-tree\", \"n-D torus\", \"dragonfly\" or \"dot file\""};
inline const FieldSpec kEndpoints{"endpoints", "", "endpoints of the topology"};
inline const FieldSpec kSwitches{"switches", "", "switches of the topology"};
inline const FieldSpec kLinks{"links", "", "links of the topology"};
inline const FieldSpec kDiameter{"diameter", "", "the longest route, in hops"};
/// Not among all(): the models with background traffic write it (network.rho).
inline const FieldSpec kBackground{"background_endpoints", "",
                                   "endpoints sending background traffic"};

/// The fields above, in that order.
inline FieldList all() {
  return {kTopology, kFamily, kEndpoints, kSwitches, kLinks, kDiameter};
}

/// Writes the fields above of `t` into `record`.
void put(Record& record, const Topology& t);

}  // namespace topology_fields

}  // namespace collnoise
