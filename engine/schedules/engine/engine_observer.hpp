#pragma once
// What the schedule engine (engine/schedules/engine/schedule_engine.hpp) tells an observer as it
// runs: every CPU and NIC occupation, every message and every rendezvous, with the engine's own
// times (nanoseconds, the doubles it computed), so that an observer can rebuild the sample's
// critical path (engine/schedules/paths/critical_path.hpp) or its timeline without changing one
// result. The engine calls an observer only when its `kActive` is true: with NoObserver the calls
// compile away and the engine is the one measured in bench/.
//
// The records are plain, trivially copyable structs, filled by name where they are made
// (SendSeen{.host = h, .cpu = ...}): several of their fields share a type, and a field given by
// position could take another's value unnoticed.
#include <cstdint>
#include <type_traits>

namespace collnoise {

/// A calc: its CPU is busy from `start` to `end`; `length` of it is the calc's own work, the rest
/// is noise.
struct CalcSeen {
  std::uint32_t host;
  std::uint8_t cpu;     ///< which CPU of the rank
  std::uint64_t op;     ///< global operation index
  std::uint64_t index;  ///< the operation's index within its rank
  double start, length, end;
};

/// Which parameter a message's bytes were charged by, where the engine charged them: (s-1)O,
/// (s-1)G, or bytes' time drawn by network noise in the place of (s-1)G (latency.G_charge).
enum class BytesCharge : std::uint8_t { kO, kG, kDrawn };

/// A send started at `start` (when its CPU and NIC were both free): its CPU is busy to `cpu_end`
/// (`overhead` of it is o + (s-1)O, the rest noise), its NIC to `nic_end` (g and the bytes'
/// time, by `nic_bytes`); its message's first byte arrives at `wire_end` (start + o + L),
/// delayed by network noise to `arrival`. `o` and `g` are the message's (ns).
struct SendSeen {
  std::uint32_t host;
  std::uint8_t cpu, nic;
  std::uint64_t op, index;
  std::uint32_t peer, tag;
  std::uint64_t bytes;
  double start, overhead, cpu_end, nic_end, o, g, wire_end, arrival;
  BytesCharge nic_bytes;
  bool eager;  ///< finished at once (else when its receive takes the message)
};

/// A message received at `start` (it had arrived, the receiver's CPU and NIC were free): the
/// receiver's CPU is busy to `cpu_end` (`overhead` of it is o + max((s-1)O, (s-1)G), the bytes'
/// part charged by `cpu_bytes`, the rest noise), its NIC to `nic_end` (g and the bytes' time, by
/// `nic_bytes`). `o` and `g` are the message's (ns). `matched`: a posted receive took it (else
/// it waits in the unexpected queue for one). On a shared network (docs/models/contention.md)
/// its first byte came out of the route's links at `emerged` (its arrival, or later by the
/// links' own latencies) and the network let it go at `left` (the receive starts then or later,
/// when its CPU and NIC free); without one both are 0.
struct MessageSeen {
  std::uint32_t host, origin;
  std::uint8_t cpu, nic;  ///< the receiver's resources the engine charged
  std::uint64_t send;     ///< the send's global operation index
  std::uint64_t bytes;
  double start, overhead, cpu_end, nic_end, o, g;
  double emerged = 0.0, left = 0.0;
  BytesCharge cpu_bytes, nic_bytes;
  bool eager, matched;
};

/// A receive posted at `time` (it takes no CPU time of its own).
struct ReceiveSeen {
  std::uint32_t host;
  std::uint64_t op, index;
  double time;
  bool matched;  ///< it took a message already waiting
};

/// A rendezvous completed at `time`: the send `send` of rank `sender` is finished and the
/// engine moved that rank's CPU `cpu` and NIC `nic` to at least `time`; `receiver` took its
/// message.
struct RendezvousSeen {
  std::uint32_t sender;
  std::uint8_t cpu, nic;
  std::uint64_t send;
  double time;
  std::uint32_t receiver;
};

/// An event the engine will process soon (its queue's look-ahead, a few events ahead): a message
/// of send `op` to `host` when `message`, else operation `op` of `host`. An observer that keeps
/// state per rank or per message may fetch it into the cache (optional members
/// `fetch_far(const AheadSeen&)`, about 8 events ahead, and `fetch_near`, about 4), as the engine
/// fetches its own.
struct AheadSeen {
  std::uint32_t host;
  std::uint64_t op;
  bool message;
  std::uint32_t peer = 0;  ///< a send's receiver, given to fetch_far only (else 0)
};

static_assert(std::is_trivially_copyable_v<CalcSeen> && std::is_trivially_copyable_v<SendSeen> &&
                  std::is_trivially_copyable_v<MessageSeen> &&
                  std::is_trivially_copyable_v<ReceiveSeen> &&
                  std::is_trivially_copyable_v<RendezvousSeen> &&
                  std::is_trivially_copyable_v<AheadSeen>,
              "the engine hands its observer records by reference, cheap to make and copy");

/// The observer that observes nothing (the engine's default).
struct NoObserver {
  static constexpr bool kActive = false;
  void begin(std::uint32_t, std::uint32_t, std::uint32_t) {}
  void calc(const CalcSeen&) {}
  void send(const SendSeen&) {}
  void message(const MessageSeen&) {}
  void receive(const ReceiveSeen&) {}
  void rendezvous(const RendezvousSeen&) {}
};

}  // namespace collnoise
