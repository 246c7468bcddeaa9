#pragma once
// Network noise on schedules (docs/models/schedules.md, "Network noise"): every message of a
// replication is delayed by its own draw, from a law or from measured latencies (a Netgauge
// latency file, docs/models/netgauge-files.md). The [latency] table:
//   latency.law  = any noise law, with its shape keys under latency.; latency.mean = the mean
//                  extra delay, seconds: a message's latency is L + mean * eta;
//   latency.file = a Netgauge latency file; latency.column = "rtt" (halved, the default) or
//                  "one_way"; latency.use = "excess" (the default: the sample less its pool's
//                  smallest, added to L: the measured variation on top of the model's latency)
//                  or "whole" (the sample replaces L; sizes without their own pool add (s - s0)G).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class MessageDelays {
 public:
  /// Mean * eta, `mean_ns` > 0.
  MessageDelays(std::shared_ptr<const NoiseLaw> eta, double mean_ns);
  /// From measured samples: `whole` replaces L (given in ns), else the excess over the pool's
  /// smallest sample is added to it.
  MessageDelays(std::shared_ptr<const LatencySamples> samples, bool whole, double L_ns);

  /// The extra latency of a message of `bytes` (ns, may be negative when a whole sample is below
  /// L) from a uniform u in (0, 1).
  double delay_ns(std::uint64_t bytes, double u) const;
  /// The tail index of the delays (infinite for measured samples, which are bounded).
  double tail_index() const;

 private:
  std::shared_ptr<const NoiseLaw> eta_;
  double mean_ns_ = 0.0;
  std::shared_ptr<const LatencySamples> samples_;
  bool whole_ = false;
  double L_ns_ = 0.0;
};

/// The [latency] keys.
std::vector<KeySpec> message_delay_keys();

/// Reads the [latency] table; nullopt when it names neither a law nor a file. `L_ns`: the
/// model's latency, ns, and `G_ns`: its gap per byte, ns. InputError naming the key at fault.
std::optional<MessageDelays> read_message_delays(ParamReader& reader, double L_ns, double G_ns);

}  // namespace collnoise
