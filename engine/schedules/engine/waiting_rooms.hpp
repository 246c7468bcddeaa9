#pragma once
// Operations that wait for a busy CPU or NIC, held per rank and kind instead of in the event queue
// (docs/models/schedules.md, "Performance"), with LogGOPSim's order kept exactly.
//
// Under LogGOPSim's rules an operation that finds its resources busy at t is queued again at
// R = max(CPU, NIC) as they stand, keeping its stamp, and examined again then. A root that has
// N - 1 sends ready at once (a linear scatter), or N - 1 messages arriving at once (a linear
// gather), has each examined once per operation served before it: N^2 / 2 queue operations.
//
// A room holds the waiting operations of one rank and kind (sends, or arriving messages) whose R
// was computed from the same CPU and NIC values, so all are due at the same `pending` time, each
// at its own stamp; the event queue holds one gate for the room, at (pending, the least stamp).
// That is where LogGOPSim examines that operation, so the gate serves it there. The others are due
// at (pending, their stamps), after it: if the CPU is then busy beyond `pending`, nothing on the
// rank can run before it frees (every operation that changes the rank's CPU or NICs needs the
// CPU), so each of them, examined at `pending`, would be queued again at the same new R: the room
// moves to it at once, whatever its size, and the N^2 / 2 become N queue operations and N heap
// operations. If the CPU is free at `pending`, the room's operations go back to the queue at
// their places and LogGOPSim's rules apply one by one.
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace collnoise {

template <class Event>  // Event has `double time` and a unique `std::uint64_t stamp`
class WaitingRooms {
 public:
  struct Room {
    double pending = 0.0;        ///< when its operations are next examined, ns
    double cpu = 0.0;            ///< the CPU's free time pending was computed from
    double nic = 0.0;            ///< the NIC's
    std::vector<Event> waiting;  ///< a heap on the stamp: its top is the gate's operation
  };

  /// The room of `rank` for `kind` (0 or 1), or null.
  Room* find(std::uint32_t rank, unsigned kind) {
    const auto it = rooms_.find(key(rank, kind));
    return it == rooms_.end() ? nullptr : &it->second;
  }

  /// `e`, examined and found waiting for resources free at max(cpu, nic), joins the room of its
  /// rank and kind if that room was computed from the same values (or starts one). Returns whether
  /// a gate must be queued for `e` (at pending): it is the room's least stamp; false when `e`
  /// joined behind the room's gate, or could not join (`requeue` is then set: the room waits for
  /// other values, and `e` goes back to the queue by itself, at max(cpu, nic)).
  bool wait(std::uint32_t rank, unsigned kind, const Event& e, double cpu, double nic,
            bool& requeue) {
    requeue = false;
    auto [it, fresh] = rooms_.try_emplace(key(rank, kind));
    Room& room = it->second;
    if (fresh) {
      room.pending = std::max(cpu, nic);
      room.cpu = cpu;
      room.nic = nic;
      room.waiting = take_vector();
    } else if (room.cpu != cpu || room.nic != nic) {
      requeue = true;
      return false;
    }
    const bool least = room.waiting.empty() || e.stamp < room.waiting.front().stamp;
    room.waiting.push_back(e);
    std::push_heap(room.waiting.begin(), room.waiting.end(), later_stamp);
    return least;
  }

  /// Whether a gate at (t, stamp) is the room's current one (else it was left behind: the room
  /// moved on, or a smaller stamp joined).
  static bool current(const Room& room, double t, std::uint64_t stamp) {
    return !room.waiting.empty() && room.pending == t && room.waiting.front().stamp == stamp;
  }

  /// Takes the gate's operation out of its room.
  static Event take_least(Room& room) {
    std::pop_heap(room.waiting.begin(), room.waiting.end(), later_stamp);
    const Event e = room.waiting.back();
    room.waiting.pop_back();
    return e;
  }

  /// The room's operations are due at max(cpu, nic) now.
  static void move(Room& room, double cpu, double nic) {
    room.pending = std::max(cpu, nic);
    room.cpu = cpu;
    room.nic = nic;
  }

  /// Closes every room, keeping their vectors.
  void clear() {
    for (auto& [key, room] : rooms_) {
      room.waiting.clear();
      spare_.push_back(std::move(room.waiting));
    }
    rooms_.clear();
  }

  /// Closes a room (its operations were served or went back to the queue).
  void close(std::uint32_t rank, unsigned kind) {
    const auto it = rooms_.find(key(rank, kind));
    it->second.waiting.clear();
    spare_.push_back(std::move(it->second.waiting));
    rooms_.erase(it);
  }

 private:
  static std::uint64_t key(std::uint32_t rank, unsigned kind) {
    return std::uint64_t{rank} << 1 | kind;
  }
  static constexpr auto later_stamp = [](const Event& a, const Event& b) {
    return a.stamp > b.stamp;
  };
  // Rooms come and go (one per burst of operations waiting together): their vectors are kept.
  std::vector<Event> take_vector() {
    if (spare_.empty()) return {};
    std::vector<Event> v = std::move(spare_.back());
    spare_.pop_back();
    return v;
  }

  std::unordered_map<std::uint64_t, Room> rooms_;
  std::vector<std::vector<Event>> spare_;
};

}  // namespace collnoise
