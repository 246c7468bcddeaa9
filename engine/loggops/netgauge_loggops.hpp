#pragma once
// LogGOPS parameters from a Netgauge LogGP measurement (distributions/netgauge_loggp.hpp reads
// the file; docs/models/netgauge-files.md).
#include <cstdint>

#include "distributions/netgauge_loggp.hpp"
#include "engine/loggops/loggops.hpp"

namespace collnoise {

/// LogGOPS parameters for messages of `message_bytes` (>= 1; InputError otherwise): L,
/// o = (o_s + o_r)/2, g and G as measured, O = 0 (the overheads are measured at a message size,
/// so they already hold the per-byte CPU cost there).
LogGops to_loggops(const NetgaugeLogGP& params, std::uint64_t message_bytes);

}  // namespace collnoise
