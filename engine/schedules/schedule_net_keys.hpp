#pragma once
// The schedule model's network: LogGOPS from the [loggops] keys or a Netgauge LogGP file
// (loggops.file, docs/models/netgauge-files.md), its eager limit loggops.S and its rendezvous
// rule (docs/models/schedules.md, "Measured LogGOPS parameters").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "distributions/netgauge_regimes.hpp"
#include "engine/loggops/loggops.hpp"

namespace collnoise {

/// loggops.S, loggops.file, loggops.file_bytes, loggops.file_fit and loggops.rendezvous.
std::vector<KeySpec> schedule_net_keys();

/// What loggops.file_fit = "regimes" fitted, for the summary (seconds; O and G per byte).
struct LogGPFitReport {
  std::optional<std::uint64_t> eager_bytes;  ///< the detected S
  LogGPRegime eager;
  std::optional<LogGPRegime> rendezvous;
};

struct ScheduleNetRead {
  ScheduleNet net;
  std::string file_fit;               ///< "row" or "regimes" with loggops.file; empty without
  std::optional<LogGPFitReport> fit;  ///< with "regimes"
};

/// The network of a schedule point. Without loggops.file_bytes, the file's rows are chosen per
/// message size (a table in ScheduleNet::by_size); `row_bytes` (the collective's message, 1 for
/// a GOAL file) chooses the row the record's simulated.loggops.* and the [latency] table's L and
/// G come from. InputError naming the key at fault: a value given both by a key and by the file,
/// loggops.file_bytes without loggops.file or with "regimes", any file error.
ScheduleNetRead read_schedule_net(ParamReader& reader, std::uint64_t row_bytes);

}  // namespace collnoise
