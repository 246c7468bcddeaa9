#pragma once
// The schedule engine's events (engine/schedules/engine/schedule_engine.hpp): what its queue holds.
#include <cstdint>

namespace collnoise::schedule_detail {

enum EventType : std::uint8_t { kSend = 1, kRecv = 2, kCalc = 3, kMessage = 0 };

/// 32 bytes: the queue moves events around, so they are kept small.
struct Event {
  double time;                ///< ns
  std::uint64_t stamp;        ///< order of first insertion: breaks ties as LogGOPSim's does
  std::uint64_t op;           ///< global index; for a message, the send
  std::uint32_t host;         ///< where it happens (a message: the receiver)
  std::uint32_t origin_type;  ///< a message's sender << 2 | EventType

  EventType type() const { return static_cast<EventType>(origin_type & 3U); }
  std::uint32_t origin() const { return origin_type >> 2; }
};
static_assert(sizeof(Event) == 32);

/// A waiting room's gate (engine/schedules/engine/waiting_rooms.hpp): an event of type kRecv with
/// this op, its rank the room's, its origin the room's kind (kSendRoom, kMessageRoom).
inline constexpr std::uint64_t kGateOp = ~std::uint64_t{0};
inline constexpr unsigned kSendRoom = 0, kMessageRoom = 1;
inline bool is_gate(const Event& e) {
  return e.op == kGateOp;
}
inline Event gate(double t, std::uint64_t stamp, std::uint32_t host, unsigned kind) {
  return Event{t, stamp, kGateOp, host, kind << 2 | kRecv};
}

}  // namespace collnoise::schedule_detail
