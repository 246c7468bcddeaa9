#pragma once
// Network noise on schedules (docs/models/schedules.md, "Network noise"): every message of a
// replication is delayed by its own draw, from a law or from measured latencies (a Netgauge
// latency file, docs/models/netgauge-files.md). The [latency] table:
//   latency.law  = any noise law, with its shape keys under latency.; latency.mean = the mean
//                  extra delay, seconds: a message's latency is L + mean * eta;
//   latency.file = Netgauge latency, bandwidth or one-one files (one, or a list), pooled by
//                  size after the transforms of latency_pool_keys.hpp; latency.draw = "by_size"
//                  (the default) or "loggp" (L and G drawn apart); latency.column = "rtt"
//                  (halved, the default) or
//                  "one_way"; latency.use = "excess" (the default: the sample less its pool's
//                  smallest, added to L: the measured variation on top of the model's latency)
//                  or "whole" (the sample is the message's whole one-way time, send start to
//                  receive end: its wire term is the sample less what the engine charges the
//                  message elsewhere, 2o + max((s-1)O, (s-1)G), floored at 0) or "wire" (the
//                  sample is the message's wire latency itself, in place of L: the data set
//                  authors' rule, their pools scaled to a median of L).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "core/record.hpp"
#include "core/rng.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/noise_law.hpp"
#include "engine/loggops/loggops.hpp"
#include "engine/schedules/engine/latency_pool_keys.hpp"
#include "engine/schedules/schedule/any_schedule.hpp"

namespace collnoise {

/// What a measured sample is (latency.use): its excess over its pool's smallest, added to L; the
/// message's whole one-way time; or its wire latency, in place of L.
enum class LatencyUse { kExcess, kWhole, kWire };

/// A message's drawn LogGP costs, ns: its latency's noise (L + delay_ns is its wire latency,
/// >= 0) and the time of its (s - 1) bytes after the first (the drawn G's, in place of (s - 1)G).
struct MessageCharge {
  double delay_ns = 0.0;
  double bytes_ns = 0.0;
};

class MessageDelays {
 public:
  /// Mean * eta, `mean_ns` > 0.
  MessageDelays(std::shared_ptr<const NoiseLaw> eta, double mean_ns);
  /// From measured samples, under the engine's costs `net` (ns): `whole`, a sample is the
  /// message's whole one-way time; else its excess over the pool's smallest is added to L.
  MessageDelays(std::shared_ptr<const LatencySamples> samples, bool whole, const ScheduleNet& net)
      : MessageDelays(std::move(samples), whole ? LatencyUse::kWhole : LatencyUse::kExcess, net) {}
  /// The same, a sample used as `use` says.
  MessageDelays(std::shared_ptr<const LatencySamples> samples, LatencyUse use,
                const ScheduleNet& net);
  /// LogGP from measured samples (`draw.loggp`; `samples` with a bandwidth file and a smaller
  /// pool): L from the smallest pool (whole or excess as above, at 1 byte), G from the bandwidth
  /// files' per-byte times, once per message or per draw.block_bytes.
  MessageDelays(std::shared_ptr<const LatencySamples> samples, bool whole, const ScheduleNet& net,
                const PoolDrawOptions& draw)
      : MessageDelays(std::move(samples), whole ? LatencyUse::kWhole : LatencyUse::kExcess, net,
                      draw) {}
  /// The same, a sample used as `use` says (kWire: the L sample is the message's L).
  MessageDelays(std::shared_ptr<const LatencySamples> samples, LatencyUse use,
                const ScheduleNet& net, const PoolDrawOptions& draw);

  /// The extra latency of a message of `bytes` (ns, may be negative when a whole sample is below
  /// L) from a uniform u in (0, 1).
  double delay_ns(std::uint64_t bytes, double u) const;
  /// The extra latency of a message of `bytes` (ns) from its own stream: its first uniform is u
  /// above; LogGP draws its G from the uniforms that follow.
  double delay_ns(std::uint64_t bytes, Pcg32& stream) const {
    const double u = stream.next_uniform();
    return draw_.loggp ? loggp_delay_ns(bytes, u, stream) : delay_ns(bytes, u);
  }
  /// Whether a message's drawn bytes' time is charged on its transfer (latency.G_charge =
  /// "transfer": the sender's NIC gap g + bytes, the receiver's CPU o + max((s-1)O, bytes) and
  /// NIC g + bytes, as the data set authors' LogGOPSim fork charges them) rather than riding on
  /// its arrival; delay_ns then gives the latency's noise alone.
  bool charges_transfer() const { return draw_.loggp && draw_.transfer_charge; }
  /// Under charges_transfer: a message's drawn costs from its own stream (the same draws as
  /// delay_ns makes from the same stream).
  MessageCharge message_charge(std::uint64_t bytes, Pcg32& stream) const;
  /// What the engine charges a message of `bytes` between its send's start and its receive's end
  /// besides its wire term L + delay (ns): the send's o, and the receive's o + max((s-1)O,
  /// (s-1)G) (LogGOPSim's rule, engine/loggops/loggops.hpp). The sender's (s-1)O and the NICs'
  /// gaps do not delay the message.
  double charged_elsewhere_ns(std::uint64_t bytes) const;
  /// With whole samples: the share of a message of `bytes`'s draws (over u) whose sample is
  /// shorter than charged_elsewhere_ns, so that its wire term is floored at 0; 0 otherwise.
  double floored_share(std::uint64_t bytes) const;
  /// Whether the samples are whole one-way times (latency.use = "whole").
  bool whole_samples() const { return samples_ && use_ == LatencyUse::kWhole; }
  /// Whether the delays depend on the engine's LogGOPS (whole or wire samples, LogGP draws: their
  /// copy of it sets a message's wire), rather than lying on top of it.
  bool depend_on_net() const {
    return (samples_ && (use_ != LatencyUse::kExcess || draw_.loggp)) ||
           (far_ && far_->depend_on_net());
  }
  /// The measured pools (null for a law).
  const std::shared_ptr<const LatencySamples>& samples() const { return samples_; }
  /// The content hashes of the files read, by path ("xxh3:..."; for the result's records).
  void set_file_hashes(std::map<std::string, std::string> hashes) { hashes_ = std::move(hashes); }
  const std::map<std::string, std::string>& file_hashes() const { return hashes_; }
  /// The tail index of the delays: the law's; for measured samples infinite (they are bounded)
  /// unless pools have fitted tails, then the heaviest tail's 1 / shape (infinite for shapes
  /// <= 0). The far class's delays count too.
  double tail_index() const;
  /// Whether some draws come from a fitted tail beyond the data (latency.tail = "gpd", or a law
  /// with one), in this class or the far one.
  bool has_fitted_tails() const;
  /// Whether a message of `bytes` whose first uniform is u draws its latency from a fitted tail
  /// (LogGP draws: the smallest pool's, which gives L).
  bool from_fitted_tail(std::uint64_t bytes, double u) const;

  /// Near and far rank pairs (docs/models/schedules.md, "Near and far rank pairs"): a far pair's
  /// messages take `far` (its own pools, or these under the far class's LogGOPS).
  void set_far(std::shared_ptr<const PairClasses> classes,
               std::shared_ptr<const MessageDelays> far) {
    classes_ = std::move(classes);
    far_ = std::move(far);
  }
  /// The delays of a message from rank `from` to rank `to`: these, or the far class's for a far
  /// pair. A run without classes pays one test.
  const MessageDelays& of_pair(std::uint32_t from, std::uint32_t to) const {
    if (!far_) [[likely]]
      return *this;
    return classes_->switches.near(from, to) ? *this : *far_;
  }
  /// The far class's delays (null without classes).
  const std::shared_ptr<const MessageDelays>& far() const { return far_; }

 private:
  std::shared_ptr<const NoiseLaw> eta_;
  double mean_ns_ = 0.0;
  std::shared_ptr<const LatencySamples> samples_;
  double loggp_delay_ns(std::uint64_t bytes, double u, Pcg32& stream) const;
  MessageCharge draw_loggp(std::uint64_t bytes, double u, Pcg32& stream) const;

  LatencyUse use_ = LatencyUse::kExcess;
  ScheduleNet net_;
  PoolDrawOptions draw_;
  std::map<std::string, std::string> hashes_;
  std::shared_ptr<const PairClasses> classes_;
  std::shared_ptr<const MessageDelays> far_;
};

/// The share of the messages of `s` (its sends, each with its own size) whose whole sample is
/// floored (MessageDelays::floored_share, averaged over the sends). 0 without sends.
double floored_share_of(const MessageDelays& delays, const AnySchedule& s);

/// Puts the measured pools' summary fields (schedule_fields.hpp: latency_pools,
/// latency_pool_bytes, latency_pool_samples, latency_floored_share) into `record`, for a
/// schedule `s` under `delays`; nothing for delays from a law.
void put_latency_fields(Record& record, const MessageDelays& delays, const AnySchedule& s);

/// The [latency] keys.
std::vector<KeySpec> message_delay_keys();

/// Reads the [latency] table; nullopt when it names neither a law nor a file. `net`: the model's
/// LogGOPS costs, ns; with near and far classes (net.classes) the far pairs' delays are
/// latency.far.file's pools (with the latency.far. transforms), or without it latency.file's
/// pools (or the law) under the far class's LogGOPS. InputError naming the key at fault.
std::optional<MessageDelays> read_message_delays(ParamReader& reader, const ScheduleNet& net);

}  // namespace collnoise
