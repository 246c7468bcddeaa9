#pragma once
// LogGOPS (docs/models/loggops-cycles.md; Hoefler, Schneider, Lumsdaine's LogGOPSim): latency L,
// CPU overhead o per message and O per byte, NIC gap g per message and G per byte, message size s.
//
// The one parameter type is LogGops, in seconds. The schedule engine alone computes in
// nanoseconds: it takes ScheduleNet, LogGops converted by to_engine_units.
//
// Every cost the engines charge is computed by the functions here, under one of two charging
// rules. Each function keeps the floating-point operations, in their order, of the engine that
// calls it, so the engines' results stay the same to the last bit:
//
// The cycle models' rule (engine/cycles: the fast engine and the reference simulator; a
// MessageCosts computed once):
//  - a send occupies the sender's CPU for o + (s-1)O;
//  - the message reaches the receiver L + (s-1)G after the send overhead ends;
//  - the sender's NIC is busy g + (s-1)G from the start of a send: the next send of that rank
//    starts no earlier (the CPU waits for the NIC, as a blocking eager send would);
//  - a receive occupies the receiver's CPU for o + (s-1)O once the message has arrived.
//
// LogGOPSim's rule (engine/schedules: the schedule engine, namespace loggopsim; nanoseconds):
//  - a send started at t occupies the sender's CPU for o + (s-1)O (noise exposed over o only);
//  - the sender's NIC is busy g + (s-1)G from t;
//  - the message's first byte arrives at t + o + L (the per-byte wire time is charged at the
//    receiver instead);
//  - a receive occupies the receiver's CPU for o + max((s-1)O, (s-1)G) (noise over o only), its
//    NIC g + (s-1)G, from the time it starts.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace collnoise {

struct LogGops {
  double L = 1.0e-6;                ///< latency, seconds
  double o = 1.0e-9;                ///< CPU overhead per message, seconds
  double g = 0.0;                   ///< NIC gap per message, seconds
  double G = 1.0e-9;                ///< NIC gap per byte, seconds
  double O = 0.0;                   ///< CPU overhead per byte, seconds
  std::uint64_t message_bytes = 8;  ///< s >= 1

  double extra_bytes() const { return static_cast<double>(message_bytes - 1); }
  /// CPU time of a send or a receive, seconds.
  double cpu_overhead() const { return o + extra_bytes() * O; }
  /// From the end of the send overhead to the arrival, seconds.
  double wire_time() const { return L + extra_bytes() * G; }
  /// From the start of one send to the earliest start of the next, seconds.
  double nic_gap() const { return g + extra_bytes() * G; }
  /// One noiseless exchange round: 2o + L + (s-1)(G + 2O), seconds.
  double noiseless_round() const { return 2.0 * o + L + extra_bytes() * (G + 2.0 * O); }
};

// ---- The cycle models' charging rule ----

/// The costs of one message, computed once from the parameters.
struct MessageCosts {
  double overhead;  ///< CPU time of a send or a receive
  double wire;      ///< end of the send overhead to arrival
  double gap;       ///< start of a send to the earliest start of the next
  explicit MessageCosts(const LogGops& net)
      : overhead(net.cpu_overhead()), wire(net.wire_time()), gap(net.nic_gap()) {}
};

/// The send the CPU can start at `cpu_free`: it waits for the NIC. Returns the start time and
/// moves `nic_free` to start + gap.
inline double send_start(const MessageCosts& costs, double cpu_free, double& nic_free) {
  const double start = cpu_free > nic_free ? cpu_free : nic_free;
  nic_free = start + costs.gap;
  return start;
}

/// Arrival time of a message whose send overhead ended at `send_end`.
inline double arrival_time(const MessageCosts& costs, double send_end) {
  return send_end + costs.wire;
}

// ---- LogGOPSim's charging rule, in the schedule engine's nanoseconds ----

struct PairClasses;
struct ContentionSpec;

/// LogGOPS in the schedule engine's units, and the largest eager message.
struct ScheduleNet {
  double L = 0.0;           ///< latency, ns
  double o = 0.0;           ///< CPU overhead per message, ns
  double g = 0.0;           ///< NIC gap per message, ns
  double G = 0.0;           ///< NIC gap per byte, ns
  double O = 0.0;           ///< CPU overhead per byte, ns
  std::uint64_t S = 65535;  ///< largest eager message, bytes (larger: rendezvous)
  /// Latencies a rendezvous message (s > S) arrives later, its own included: 0 under
  /// LogGOPSim's rule, 2 under the handshake rule (loggops.rendezvous = "handshake": the
  /// request and the reply before the data, as the data set authors' LogGOPSim fork charges).
  double rendezvous_latencies = 0.0;
  /// Parameters per message size, from a LogGP file (docs/models/netgauge-files.md): a message
  /// of s bytes takes by_size[i] for the first i with s <= size_limits[i] (the last entry's
  /// limit is the largest size). Empty: every message takes the fields above. The entries' own
  /// tables are empty, their S and rendezvous_latencies this one's.
  std::vector<std::uint64_t> size_limits;
  std::vector<ScheduleNet> by_size;
  /// Near and far rank pairs (docs/models/schedules.md, "Near and far rank pairs"): null, every
  /// pair takes this; else a far pair takes the far class's parameters. Set on the top net
  /// only (its by_size entries and the far class's own net have none).
  std::shared_ptr<const PairClasses> classes;
  /// Messages that share a network's links (docs/models/contention.md): null, none do (the
  /// wire is L whatever else is sent). Set on the top net only, as `classes`.
  std::shared_ptr<const ContentionSpec> contention;
};

/// Which rank pairs are near: ranks r and q are near iff their switch ids are equal, the id of
/// r being floor(r / ranks_per_switch) (network.nodes_per_switch, as the data set authors'
/// LogGOPSim fork's --nodes_per_switch) or a mapping file's switch of r (network.mapping).
struct RankSwitches {
  /// The rule's ranks per switch (>= 1); unused with a mapping.
  std::uint32_t ranks_per_switch = 1;
  /// A mapping file's switch id of each rank; empty under the rule. (A rule's ids are one
  /// division away: no table of 2^30 ranks is kept for them.)
  std::vector<std::uint32_t> switch_of;
  /// How the classes were defined, for the summary ("nodes_per_switch 2 (ranks_per_node 1)").
  std::string rule;

  std::uint32_t switch_id(std::uint32_t rank) const {
    return switch_of.empty() ? rank / ranks_per_switch : switch_of[rank];
  }
  bool near(std::uint32_t a, std::uint32_t b) const { return switch_id(a) == switch_id(b); }
  /// Whether every rank below `ranks` has a switch (a mapping may list too few).
  bool covers(std::uint32_t ranks) const { return switch_of.empty() || switch_of.size() >= ranks; }
};

/// The classes and the far pairs' parameters (the near pairs' are the ScheduleNet holding them).
struct PairClasses {
  RankSwitches switches;
  ScheduleNet far;  ///< the near net with loggops.far's values; its `classes` is null
};

/// Seconds to nanoseconds. A value within a millionth of a nanosecond of a whole number is that
/// number, so parameters given in whole nanoseconds are exact (LogGOPSim's integers).
inline double to_ns(double seconds) {
  const double ns = seconds * 1e9;
  const double whole = std::round(ns);
  return std::abs(ns - whole) < 1e-6 ? whole : ns;
}

/// `net` (seconds; its message size unused: a schedule gives each message its own) in
/// nanoseconds, with `eager_bytes` as the largest eager message. Here beside both types, so that
/// a new LogGOPS parameter is its fields and formulas here and its key in loggops_keys.cpp.
inline ScheduleNet to_engine_units(const LogGops& net, std::uint64_t eager_bytes) {
  ScheduleNet ns;
  ns.L = to_ns(net.L);
  ns.o = to_ns(net.o);
  ns.g = to_ns(net.g);
  ns.G = to_ns(net.G);
  ns.O = to_ns(net.O);
  ns.S = eager_bytes;
  return ns;
}

namespace loggopsim {

/// The bytes after the first, (s - 1): per-byte costs are charged on them. A message of 0 bytes
/// (Schedgen writes some) has none; LogGOPSim's unsigned arithmetic wraps there instead.
inline double extra_bytes(std::uint64_t size) {
  return size > 0 ? static_cast<double>(size - 1) : 0.0;
}

/// The part of a send's or a receive's CPU time exposed to noise: o.
inline double noise_window(const ScheduleNet& net) {
  return net.o;
}

/// CPU time of a send with `extra` bytes after the first: o + (s-1)O.
inline double send_overhead(const ScheduleNet& net, double extra) {
  return net.o + extra * net.O;
}

/// When a NIC that starts a send or a receive at t is next free: t + g + (s-1)G.
inline double nic_free_after(const ScheduleNet& net, double t, double extra) {
  return t + net.g + extra * net.G;
}

/// When the first byte of a message sent at t arrives: t + o + L.
inline double first_byte_arrival(const ScheduleNet& net, double t) {
  return t + net.o + net.L;
}

/// CPU time of a receive with `extra` bytes after the first: o + max((s-1)O, (s-1)G).
inline double receive_overhead(const ScheduleNet& net, double extra) {
  return net.o + std::max(extra * net.O, extra * net.G);
}

/// Whether a message of `size` bytes is sent eagerly (else by rendezvous).
inline bool eager(const ScheduleNet& net, std::uint64_t size) {
  return size <= net.S;
}

/// The parameters a message of `size` bytes takes: `net` itself unless it has a table per size
/// (a LogGP file's rows or regimes). The one test is all a run without a table pays.
inline const ScheduleNet& for_size(const ScheduleNet& net, std::uint64_t size) {
  if (net.by_size.empty()) [[likely]]
    return net;
  const auto at = std::lower_bound(net.size_limits.begin(), net.size_limits.end(), size);
  return net.by_size[at == net.size_limits.end()
                         ? net.by_size.size() - 1
                         : static_cast<std::size_t>(at - net.size_limits.begin())];
}

/// The parameters a message of `size` bytes from rank `from` to rank `to` takes: its class's
/// (the far class's for a far pair), then its size's. A run without classes pays one test more.
inline const ScheduleNet& for_pair(const ScheduleNet& net, std::uint32_t from, std::uint32_t to,
                                   std::uint64_t size) {
  if (net.classes) [[unlikely]]
    return for_size(net.classes->switches.near(from, to) ? net : net.classes->far, size);
  return for_size(net, size);
}

/// What a rendezvous message (s > S) whose latency's noise is `delay` arrives later than its
/// first byte's arrival plus `delay`: under the handshake rule the request's and the reply's
/// latencies, each L + delay, as the authors' fork draws one latency per message and charges it
/// three times; under LogGOPSim's rule 0.
inline double handshake_delay(const ScheduleNet& net, double delay) {
  return net.rendezvous_latencies * (net.L + delay);
}

}  // namespace loggopsim

}  // namespace collnoise
