#pragma once
// LogGOPS (docs/models/loggops-cycles.md; Hoefler, Schneider, Lumsdaine's LogGOPSim): latency L,
// CPU overhead o per message and O per byte, NIC gap g per message and G per byte, message size s.
// Every time the engines compute goes through these functions, so the reference simulator and the
// fast engine do the same floating-point operations in the same order and agree to the last bit.
//  - a send occupies the sender's CPU for o + (s-1)O;
//  - the message reaches the receiver L + (s-1)G after the send overhead ends;
//  - the sender's NIC is busy g + (s-1)G from the start of a send: the next send of that rank
//    starts no earlier (the CPU waits for the NIC, as a blocking eager send would);
//  - a receive occupies the receiver's CPU for o + (s-1)O once the message has arrived.
#include <cstdint>

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

}  // namespace collnoise
