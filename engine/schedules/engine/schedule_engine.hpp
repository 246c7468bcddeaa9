#pragma once
// The schedule engine (docs/models/schedules.md): simulates a Schedule under LogGOPS exactly as
// LogGOPSim does (spcl/LogGOPSim, its LogGOPSim.cpp, read and rewritten here), so that without
// noise every rank's finishing time equals LogGOPSim's on the same GOAL file and parameters.
//
// Times are nanoseconds held in doubles: integer nanoseconds (LogGOPSim's unit) are exact up to
// 2^53 ns (104 days), so parameters in whole nanoseconds give LogGOPSim's integers bit for bit,
// ties included; noise adds fractions of a nanosecond where it must.
//
// The rules (the costs are LogGOPSim's charging rule, engine/loggops/loggops.hpp), per rank with
// its CPUs and NICs (next-free times nexto, nextgs, nextgr):
//  - an operation becomes ready when its dependencies are satisfied; it is queued at the time its
//    resources allow (calc, recv: its CPU; send: its CPU and NIC) with a stamp of its order;
//  - calc of x ns: the CPU is busy x (plus noise);
//  - send of s bytes at t: the CPU is busy o + (s-1)O (plus noise), the NIC g + (s-1)G; the
//    message's first byte arrives at t + o + L (2L later above S under the handshake rule); an
//    eager send (s <= S) is finished at once, a rendezvous send when its receive matches; with a
//    table per message size (a LogGP file), each message's L, o, O, g, G are its size's;
//  - a message is received when it has arrived and the receiver's CPU and NIC are free: the CPU
//    is busy o + max((s-1)O, (s-1)G) (plus noise), the NIC g + (s-1)G; it matches the first
//    posted receive of its source (or any) and tag (or any), else waits in the unexpected queue;
//  - a posted receive (it takes no CPU time itself) matches the first unexpected message, or
//    waits; a rendezvous match also finishes the send and moves the sender's CPU and NIC to now;
//  - events run in time order, ties by stamp; a rank's finishing time is its CPUs' last busy end.
// Where these rules are LogGOPSim's quirks (noise charged over o only, the sender's CPU and NIC
// indices used at the receiver), the engine keeps them and docs/models/schedules.md says so.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/loggops/loggops.hpp"  // ScheduleNet, LogGOPSim's charging rule
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

namespace schedule_detail {
struct EngineBuffers;
}

/// The engine's working memory (its event queue, match lists, per-rank state and dependency
/// counters), kept from one run to the next: a thread that simulates sample after sample passes
/// the same one each time and the engine resets it instead of asking the kernel for fresh pages
/// (a fifth of a sample's time at 2^16 ranks). One run at a time uses it. It holds what the
/// largest run needed until it is destroyed.
class ScheduleEngineMemory {
 public:
  ScheduleEngineMemory();
  ~ScheduleEngineMemory();
  ScheduleEngineMemory(ScheduleEngineMemory&&) noexcept;
  ScheduleEngineMemory& operator=(ScheduleEngineMemory&&) noexcept;

  schedule_detail::EngineBuffers& buffers() { return *buffers_; }
  /// Bytes it holds.
  std::size_t bytes() const;
  /// Runs on this memory call `report` with the events they have processed, every 2^20 events
  /// (a sample of millions of ranks takes minutes: progress follows it); an empty function stops
  /// the calls.
  void on_progress(std::function<void(std::uint64_t events)> report);

 private:
  std::unique_ptr<schedule_detail::EngineBuffers> buffers_;
};

/// What a CPU occupation is, for the noise.
enum class Busy : std::uint8_t { kCalc, kSend, kReceive };

/// No noise: work of `length` ns started at t ends at t + length.
struct QuietSchedule {
  double end(std::uint32_t, Busy, std::uint64_t, double t, double length, double) {
    return t + length;
  }
};

/// A noise may keep state per rank (the end of the last detour seen, a Poisson cursor): it
/// declares the type as `RankSlot` and takes it in end(rank, slot, ...); the engine stores it
/// beside the rank's own state, in the same cache line. NoiseSlot<Noise> is that type, or the
/// empty NoSlot.
template <class Noise>
inline constexpr bool kHasSlot = requires {
  typename Noise::RankSlot;
};
struct NoSlot {};
namespace schedule_detail {
template <class Noise>
struct SlotType {
  using type = NoSlot;
};
template <class Noise>
requires kHasSlot<Noise>
struct SlotType<Noise> {
  using type = typename Noise::RankSlot;
};
}  // namespace schedule_detail
template <class Noise>
using NoiseSlot = typename schedule_detail::SlotType<Noise>::type;

struct ScheduleRun {
  std::vector<double> finish;  ///< every timed rank's finishing time, ns (Schedule::timed_ranks)
  /// The latest finishing time of the ranks it does not time (a background job's), ns; 0
  /// without.
  double untimed_finish = 0.0;
  std::uint64_t events = 0;    ///< operations and messages processed (LogGOPSim's count)
  std::uint64_t searched = 0;  ///< match-list entries searched beyond each list's first
  bool complete = true;        ///< every operation ran and every message was received
  std::string incomplete;      ///< why not, naming a rank and an operation
  /// Per rank, whether a message it received drew its latency from a fitted tail beyond the data;
  /// empty unless the run's message delays have such tails (MessageDelays::has_fitted_tails).
  std::vector<std::uint8_t> received_from_tail;
  /// With contention (ScheduleNet::contention): polls that found a message still in the network
  /// (each queued it again; docs/models/contention.md). 0 without.
  std::uint64_t network_repolls = 0;
  /// With contention: the network's recomputations of its messages' rates (MessageNetwork).
  std::uint64_t network_recomputations = 0;
};

/// The most a run's memory takes (bytes; ScheduleEngineMemory::bytes() after the run), estimated
/// before the schedule is simulated from its ranks, operations and operations without
/// dependencies: a dependency counter per operation (1 to 4 bytes); per rank its state (64
/// bytes), its finishing time and a few queued events in flight (32 bytes each); per operation
/// ready at the start its event (all are queued at once) and its place in a match list (a
/// preposted schedule posts every receive then); and the queue's first blocks.
double estimated_engine_bytes(double ranks, double operations, double ready_at_start);

/// The engine's kernel, for a noise type of one's own (tests, benchmarks): a run of a study's
/// noise goes through run_schedule() (engine/schedules/simulate.hpp), which picks the noise type
/// and calls this. Defined in schedule_engine_impl.hpp, which a caller includes to instantiate it.
///
/// Simulates `schedule` once (on `memory`). `Noise` supplies end(rank, what, op, t, length,
/// window): the end of `length` ns of CPU work started at t (`window`: the part LogGOPSim exposes
/// to noise, o for messages); op is the global operation index (for per-operation draws). It may
/// also supply message_delay(send, bytes, from, to): ns added to the latency L of that send's
/// message from rank `from` to rank `to` (network noise). `Sched` is a Schedule or a schedule
/// generated on the fly with the same accessors (engine/schedules/schedule/generated_schedule.hpp).
template <class Sched, class Noise>
ScheduleRun simulate_schedule(const Sched& schedule, const ScheduleNet& net, Noise& noise,
                              ScheduleEngineMemory& memory);
/// The same told to `observer` (engine_observer.hpp), with every rank's CPUs and NICs free from
/// `start[rank]` ns instead of 0 when `start` is not empty (one finite start >= 0 per rank, else
/// InputError); the finishing times stay absolute. Empty: the run as without it, bit for bit.
template <class Sched, class Noise, class Observer>
ScheduleRun simulate_schedule(const Sched& schedule, const ScheduleNet& net, Noise& noise,
                              ScheduleEngineMemory& memory, Observer& observer,
                              std::span<const double> start = {});
/// The same with memory of its own, released at the end.
template <class Sched, class Noise>
ScheduleRun simulate_schedule(const Sched& schedule, const ScheduleNet& net, Noise& noise);

}  // namespace collnoise
