#pragma once
// The schedule engine's body (engine/schedules/schedule_engine.hpp), included by the files that
// instantiate it for a kind of schedule and a kind of noise.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "core/errors.hpp"
#include "core/huge_page_allocator.hpp"
#include "core/stop_poll.hpp"
#include "core/stop_request.hpp"
#include "engine/schedules/engine_memory.hpp"
#include "engine/schedules/engine_observer.hpp"
#include "engine/schedules/event_queue.hpp"
#include "engine/schedules/match_lists.hpp"
#include "engine/schedules/schedule_engine.hpp"
#include "engine/schedules/waiting_rooms.hpp"

namespace collnoise {
namespace schedule_detail {

/// Ranks are at most 2^30 (an event packs its sender in 30 bits).
inline constexpr std::uint32_t kMaxScheduleRanks = 1U << 30;

// An operation's index within its rank (what the match lists keep: 32 bits).
template <class View>
std::uint32_t local(const View& v, std::uint64_t op) {
  return static_cast<std::uint32_t>(op - v.first());
}

inline bool matches(std::uint32_t want_src, std::uint32_t want_tag, const PendingMatch& p) {
  return (want_src == kAnyPeer || p.src == kAnyPeer || p.src == want_src) &&
         (want_tag == kAnyTag || p.tag == kAnyTag || p.tag == want_tag);
}

/// What the engine keeps per rank: one cache line (56 bytes and the noise's slot, if it fits).
template <class Slot>
struct alignas(64) RankState {
  double cpu = 0.0;   ///< when CPU 0 is next free, ns
  double send = 0.0;  ///< when NIC 0 may next send
  double recv = 0.0;  ///< when NIC 0 may next receive
  MatchPool::List posted;
  MatchPool::List unexpected;
  [[no_unique_address]] Slot slot{};
};
static_assert(sizeof(RankState<NoSlot>) == 64, "a rank's state should fill one cache line");

// The engine, with dependency counters of type Counter (one per operation: the narrowest type
// that holds the schedule's largest count, as they are most of the engine's memory).
inline constexpr std::size_t kPrefetchDistance = 8;
// In a noiseless round (events of one time, read in place) the queue knows every event ahead:
// look further ahead there, where a stored schedule's records and match-list chunks come from
// memory. Under noise the window holds a few dozen events, and a far look-ahead would find none
// near its end.
inline constexpr std::size_t kRoundPrefetchDistance = 32;

// A schedule whose operations are stored (read from memory the engine should fetch ahead), not
// generated.
template <class Sched>
concept StoredSchedule = requires(const Sched& s) {
  s.prefetch_operation(std::uint32_t{0}, std::uint64_t{0});
  s.prefetch_rank(std::uint32_t{0});
  s.prefetch_dependents(std::uint32_t{0}, std::uint64_t{0});
};

// `use_rooms`: operations waiting for a busy CPU or NIC wait in rooms (one CPU and NIC per rank
// only); else each is queued again as in LogGOPSim. Both give the same times
// (tests/test_waiting_rooms.cpp).
// `observer` is told every occupation, message and rendezvous
// (engine/schedules/engine_observer.hpp).
template <class Counter, class Sched, class Noise, class Observer>
ScheduleRun simulate_with(const Sched& s, const ScheduleNet& net, Noise& noise, bool use_rooms,
                          EngineBuffers& buffers, Observer& observer) {
  const std::uint32_t p = s.ranks();
  const std::uint32_t cpus = s.cpus();
  const std::uint32_t nics = s.nics();
  if constexpr (Observer::kActive) observer.begin(p, cpus, nics);
  // Each rank's state in one cache line: its first CPU and NIC, its two match lists and the
  // noise's own per-rank state (the engine is bound by memory latency once noise scatters the
  // ranks in time). Further CPUs and NICs, which few schedules name, live apart.
  using Slot = NoiseSlot<Noise>;
  buffers.reset();
  const std::span<RankState<Slot>> state =
      EngineBuffers::array_of<RankState<Slot>>(buffers.rank_lines, p);
  const std::uint32_t more_cpus = cpus - 1, more_nics = nics - 1;
  std::vector<double> extra_cpu(static_cast<std::size_t>(p) * more_cpus, 0.0);
  std::vector<double> extra_send(static_cast<std::size_t>(p) * more_nics, 0.0);
  std::vector<double> extra_recv(static_cast<std::size_t>(p) * more_nics, 0.0);
  const auto cpu_of = [&](std::uint32_t host, std::uint8_t cpu) -> double& {
    return cpu == 0 ? state[host].cpu : extra_cpu[std::size_t{host} * more_cpus + cpu - 1U];
  };
  const auto send_nic = [&](std::uint32_t host, std::uint8_t nic) -> double& {
    return nic == 0 ? state[host].send : extra_send[std::size_t{host} * more_nics + nic - 1U];
  };
  const auto recv_nic = [&](std::uint32_t host, std::uint8_t nic) -> double& {
    return nic == 0 ? state[host].recv : extra_recv[std::size_t{host} * more_nics + nic - 1U];
  };
  // The end of CPU work on `host`, from the noise (with the rank's slot when it keeps one).
  const auto busy_until = [&](std::uint32_t host, Busy what, std::uint64_t op, double t,
                              double length, double window) {
    if constexpr (kHasSlot<Noise>)
      return noise.end(host, state[host].slot, what, op, t, length, window);
    else
      return noise.end(host, what, op, t, length, window);
  };
  MatchPool& matches_pool = buffers.matches;

  const std::span<Counter> remaining =
      EngineBuffers::array_of<Counter>(buffers.counter_lines, s.operations());
  std::uint64_t ready_at_start = 0;
  StopPoll setup;
  for (std::uint32_t host = 0; host < p; ++host) {
    const auto v = s.view(host);
    setup.tick(v.count() + std::uint64_t{1});
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op) {
      remaining[op] = static_cast<Counter>(v.dependencies(op));
      ready_at_start += remaining[op] == 0;
    }
  }
  // Operations made ready by the current event, (rank, op) in the order they became ready.
  auto& fresh = buffers.fresh;
  RadixEventQueue<Event>& queue = buffers.queue;
  // The operations ready at the start enter the queue at once (a million for a 2^20-rank
  // barrier): room made for them spares its window the copies of growing by doubling.
  queue.reserve_window(ready_at_start);
  WaitingRooms<Event>& rooms = buffers.rooms;
  std::uint64_t stamp = 0;
  // `e` waits for resources free at max(cpu, nic): queued again at that time, or in its room
  // when the last operation that waited did so on the same rank for the same values (an
  // operation waiting alone, the common case under noise, costs no lookup).
  struct LastWait {
    std::uint32_t host = ~std::uint32_t{0};
    unsigned kind = 0;
    double cpu = 0.0, nic = 0.0;
  } last_wait;
  const auto wait = [&](Event e, unsigned kind, double cpu, double nic) {
    bool requeue = true;
    if (use_rooms) {
      const bool again = last_wait.host == e.host && last_wait.kind == kind &&
                         last_wait.cpu == cpu && last_wait.nic == nic;
      if (!again) last_wait = LastWait{e.host, kind, cpu, nic};
      if (again && rooms.wait(e.host, kind, e, cpu, nic, requeue))
        queue.push(gate(std::max(cpu, nic), e.stamp, e.host, kind));
    }
    if (requeue) {
      e.time = std::max(cpu, nic);
      queue.push(e);
    }
  };
  // After a gate's operation was examined at t, the rest of its room is due at (t, their stamps).
  // With the CPU busy beyond t nothing on the rank runs before it frees, and each would be queued
  // again at the same time: the room moves there at once. Else they go back to the queue.
  const auto leave_room = [&](typename WaitingRooms<Event>::Room& room, std::uint32_t host,
                              unsigned kind, double t) {
    if (room.waiting.empty()) {
      rooms.close(host, kind);
      return;
    }
    const double cpu = state[host].cpu;
    const double nic = kind == kSendRoom ? state[host].send : state[host].recv;
    if (cpu > t) {
      WaitingRooms<Event>::move(room, cpu, nic);
      queue.push(gate(room.pending, room.waiting.front().stamp, host, kind));
      return;
    }
    for (Event w : room.waiting) {
      w.time = t;
      queue.push(w);
    }
    rooms.close(host, kind);
  };
  ScheduleRun run;
  std::uint64_t ran = 0;  // operations that ran (LogGOPSim's events less the messages)

  using View = decltype(s.view(0));
  // `v` is the view of `host`.
  const auto release = [&](const View& v, std::uint32_t host, std::uint64_t op, bool started) {
    const std::uint64_t first = v.first();
    v.for_each_dependent(op, [&](const auto& d) {
      if (d.started != started) return;
      if (--remaining[first + d.local] == 0) fresh.emplace_back(host, first + d.local);
    });
  };
  // Finishing an operation twice (a rendezvous receive matching an eager send of another size)
  // releases its dependents twice, as in LogGOPSim: their counters wrap and they never run.
  const auto finish_op = [&](const View& v, std::uint32_t host, std::uint64_t op) {
    release(v, host, op, false);
  };
  const auto enqueue = [&](const View& v, std::uint32_t host, std::uint64_t op) {
    const auto type = static_cast<EventType>(v.kind(op));
    const double cpu_free = cpu_of(host, v.cpu(op));
    const double t = type == kSend ? std::max(cpu_free, send_nic(host, v.nic(op))) : cpu_free;
    queue.push(Event{t, stamp++, op, host, host << 2 | type});
  };
  // Ready operations enter the queue rank by rank in increasing rank order, and within a rank
  // sends first, then receives, then computations, as LogGOPSim orders them (its std::sort by
  // type, the same comparisons on the same sequence, hence the same order among equals).
  const auto enqueue_fresh = [&] {
    if (fresh.size() == 1) {
      enqueue(s.view(fresh[0].first), fresh[0].first, fresh[0].second);
    } else if (!fresh.empty()) {
      // Stable by rank. Mostly one rank or a few, often in order: an insertion sort, which
      // (unlike std::stable_sort) allocates nothing per event.
      for (std::size_t i = 1; i < fresh.size(); ++i)
        for (std::size_t j = i; j > 0 && fresh[j - 1].first > fresh[j].first; --j)
          std::swap(fresh[j - 1], fresh[j]);
      for (auto group = fresh.begin(); group != fresh.end();) {
        const auto next = std::find_if(group, fresh.end(),
                                       [&](const auto& x) { return x.first != group->first; });
        const auto v = s.view(group->first);
        std::sort(group, next, [&](const auto& a, const auto& b) {
          return static_cast<int>(v.kind(a.second)) < static_cast<int>(v.kind(b.second));
        });
        for (auto it = group; it != next; ++it) enqueue(v, it->first, it->second);
        group = next;
      }
    }
    fresh.clear();
  };

  for (std::uint32_t host = 0; host < p; ++host) {
    const auto v = s.view(host);
    setup.tick(v.count() + std::uint64_t{1});
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
      if (remaining[op] == 0) fresh.emplace_back(host, op);
    enqueue_fresh();
  }

  // A stop request is polled by elapsed time, counting events and the match-list entries they
  // search (one event may search a million: a root posting its receives in reverse order).
  StopPoll poll(std::uint64_t{1} << 12);
  poll.check();                     // at the start, then by elapsed time
  std::uint64_t polled = 0;         // events and entries searched at the last tick
  std::uint64_t next_progress = 0;  // events processed at the next progress report
  while (!queue.empty()) {
    Event e = queue.pop();
    // A room's gate: its least stamp's operation, due now (or nothing, if the room moved on).
    typename WaitingRooms<Event>::Room* room = nullptr;
    unsigned room_kind = 0;
    if (is_gate(e)) {
      room_kind = e.origin();
      room = rooms.find(e.host, room_kind);
      if (room == nullptr || !WaitingRooms<Event>::current(*room, e.time, e.stamp)) continue;
      const double now = e.time;
      e = WaitingRooms<Event>::take_least(*room);
      e.time = now;
    }
    // Events of one time leave in a known order: fetch the state of a rank a few events ahead
    // while this one is processed (a rank's state is a cache miss at a million ranks).
    const std::size_t distance = queue.reading_round() ? kRoundPrefetchDistance : kPrefetchDistance;
    const Event* next = queue.ahead(distance);
    if (next != nullptr && !is_gate(*next)) {
      __builtin_prefetch(&state[next->host]);
      __builtin_prefetch(&remaining[next->op]);
      // A stored schedule's records (a message reads its send's, on the sender).
      if constexpr (StoredSchedule<Sched>) {
        s.prefetch_operation(next->type() == kMessage ? next->origin() : next->host, next->op);
        if (next->type() == kMessage) s.prefetch_rank(next->host);
      }
    }
    // Nearer, that state is in the cache: fetch the first nodes of its match lists' chains.
    const Event* near = queue.ahead(distance / 2);
    if (near != nullptr && !is_gate(*near)) {
      const RankState<Slot>& r = state[near->host];
      matches_pool.prefetch(r.posted);
      matches_pool.prefetch(r.unexpected);
      // A message most often finishes the first posted receive: fetch its dependents' counters
      // (the message's own operation is the sender's).
      if (near->type() == kMessage && !r.posted.empty()) {
        const std::uint64_t receive = s.view(near->host).first() + r.posted.first.op;
        __builtin_prefetch(&remaining[receive]);
        if constexpr (StoredSchedule<Sched>) s.prefetch_operation(near->host, receive);
      } else if constexpr (StoredSchedule<Sched>) {
        if (near->type() != kMessage) s.prefetch_dependents(near->host, near->op);
      }
    }
    const std::uint64_t work = run.events + matches_pool.searched();
    poll.tick(work - polled);
    polled = work;
    if (run.events >= next_progress) {  // at the start, then every 2^20 events
      next_progress = run.events + (std::uint64_t{1} << 20);
      if (buffers.on_progress) buffers.on_progress(run.events);
    }
    const std::uint32_t h = e.host;
    const auto v = s.view(h);
    switch (e.type()) {
      case kCalc: {
        double& cpu = cpu_of(h, v.cpu(e.op));
        if (cpu <= e.time) {
          const auto length = static_cast<double>(v.size(e.op));
          cpu = busy_until(h, Busy::kCalc, e.op, e.time, length, length);
          if constexpr (Observer::kActive)
            observer.calc(CalcSeen{h, v.cpu(e.op), e.op, e.op - v.first(), e.time, length, cpu});
          ++run.events;
          ++ran;
          release(v, h, e.op, true);
          finish_op(v, h, e.op);
        } else {
          e.time = cpu;
          queue.push(e);
        }
        break;
      }
      case kSend: {
        double& cpu = cpu_of(h, v.cpu(e.op));
        double& nic = send_nic(h, v.nic(e.op));
        if (std::max(cpu, nic) <= e.time) {
          ++run.events;
          ++ran;
          release(v, h, e.op, true);
          const std::uint64_t size = v.size(e.op);
          const double extra = loggopsim::extra_bytes(size);
          cpu = busy_until(h, Busy::kSend, e.op, e.time, loggopsim::send_overhead(net, extra),
                           loggopsim::noise_window(net));
          nic = loggopsim::nic_free_after(net, e.time, extra);
          const double wire_end = loggopsim::first_byte_arrival(net, e.time);
          double arrival = wire_end;
          if constexpr (requires { noise.message_delay(e.op, size); })
            arrival += noise.message_delay(e.op, size);
          if constexpr (Observer::kActive)
            observer.send(SendSeen{h, v.cpu(e.op), v.nic(e.op), e.op, e.op - v.first(),
                                   v.peer(e.op), v.tag(e.op), size, e.time,
                                   loggopsim::send_overhead(net, extra), cpu, nic, net.o, wire_end,
                                   arrival, loggopsim::eager(net, size)});
          queue.push(Event{arrival, stamp++, e.op, v.peer(e.op), h << 2 | kMessage});
          if (loggopsim::eager(net, size)) finish_op(v, h, e.op);
        } else {
          wait(e, kSendRoom, cpu, nic);
        }
        break;
      }
      case kRecv: {
        ++run.events;
        ++ran;
        release(v, h, e.op, true);
        const std::uint32_t want_src = v.peer(e.op);
        const std::uint32_t want_tag = v.tag(e.op);
        PendingMatch m{};
        const bool taken = matches_pool.take_first(
            state[h].unexpected,
            [&](const PendingMatch& x) { return matches(want_src, want_tag, x); }, m);
        if constexpr (Observer::kActive)
          observer.receive(ReceiveSeen{h, e.op, e.op - v.first(), e.time, taken});
        if (taken) {
          if (!loggopsim::eager(net, v.size(e.op))) {  // rendezvous: the send finishes now
            const auto vs = s.view(m.src);
            finish_op(vs, m.src, vs.first() + m.op);
            double& sender_cpu = cpu_of(m.src, v.cpu(e.op));
            double& sender_nic = send_nic(m.src, v.nic(e.op));
            sender_cpu = std::max(sender_cpu, e.time);
            sender_nic = std::max(sender_nic, e.time);
            if constexpr (Observer::kActive)
              observer.rendezvous(
                  RendezvousSeen{m.src, v.cpu(e.op), v.nic(e.op), vs.first() + m.op, e.time});
          }
          finish_op(v, h, e.op);
        } else {
          matches_pool.push_back(state[h].posted, PendingMatch{want_src, want_tag, local(v, e.op)});
        }
        break;
      }
      case kMessage: {
        const std::uint64_t send = e.op;
        const std::uint32_t origin = e.origin();
        const auto vs = s.view(origin);
        double& cpu = cpu_of(h, vs.cpu(send));
        double& nic = recv_nic(h, vs.nic(send));
        if (std::max(cpu, nic) <= e.time) {
          ++run.events;
          const std::uint64_t size = vs.size(send);
          const double extra = loggopsim::extra_bytes(size);
          cpu = busy_until(h, Busy::kReceive, send, e.time, loggopsim::receive_overhead(net, extra),
                           loggopsim::noise_window(net));
          nic = loggopsim::nic_free_after(net, e.time, extra);
          const std::uint32_t tag = vs.tag(send);
          PendingMatch r{};
          const bool taken = matches_pool.take_first(
              state[h].posted, [&](const PendingMatch& x) { return matches(origin, tag, x); }, r);
          if constexpr (Observer::kActive)
            observer.message(MessageSeen{h, origin, vs.cpu(send), vs.nic(send), send, size, e.time,
                                         loggopsim::receive_overhead(net, extra), cpu, nic,
                                         loggopsim::eager(net, size), taken});
          if (taken) {
            if (!loggopsim::eager(net, size)) {  // rendezvous: the send finishes now
              finish_op(vs, origin, send);
              double& sender_cpu = cpu_of(origin, vs.cpu(send));
              double& sender_nic = send_nic(origin, vs.nic(send));
              sender_cpu = std::max(sender_cpu, e.time);
              sender_nic = std::max(sender_nic, e.time);
              if constexpr (Observer::kActive)
                observer.rendezvous(
                    RendezvousSeen{origin, vs.cpu(send), vs.nic(send), send, e.time});
            }
            finish_op(v, h, v.first() + r.op);
          } else {
            matches_pool.push_back(state[h].unexpected, PendingMatch{origin, tag, local(vs, send)});
          }
        } else {
          wait(e, kMessageRoom, cpu, nic);
        }
        break;
      }
    }
    if (room != nullptr) leave_room(*room, e.host, room_kind, e.time);
    enqueue_fresh();
  }

  run.searched = matches_pool.searched();
  run.finish.assign(p, 0.0);
  for (std::uint32_t host = 0; host < p; ++host)
    for (std::uint32_t c = 0; c < cpus; ++c)
      run.finish[host] = std::max(run.finish[host], cpu_of(host, static_cast<std::uint8_t>(c)));
  // Everything ran, every message found its receive?
  if (ran != s.operations()) {
    run.complete = false;
    for (std::uint32_t host = 0; host < p && run.incomplete.empty(); ++host) {
      const auto vh = s.view(host);
      const std::uint64_t first = vh.first();
      for (std::uint32_t k = 0; k < vh.count(); ++k) {
        const std::uint64_t op = first + k;
        if (remaining[op] != 0) {
          const Operation o = vh.operation(op);
          run.incomplete =
              fmt::format("rank {}'s operation {} ({} {} {}, tag {}) never {}", host, k,
                          o.kind == OpKind::kSend   ? "send to"
                          : o.kind == OpKind::kRecv ? "recv from"
                                                    : "calc",
                          o.kind == OpKind::kCalc
                              ? std::string()
                              : (o.peer == kAnyPeer ? std::string("any") : std::to_string(o.peer)),
                          o.kind == OpKind::kCalc ? fmt::format("{} ns", o.size)
                                                  : fmt::format("({} b)", o.size),
                          o.tag == kAnyTag ? std::string("any") : std::to_string(o.tag),
                          "became ready: what it waits for never finished");
          break;
        }
      }
    }
  } else {
    for (std::uint32_t host = 0; host < p && run.complete; ++host) {
      if (!state[host].unexpected.empty()) {
        run.complete = false;
        run.incomplete =
            fmt::format("rank {} received a message from rank {} (tag {}) that no receive took",
                        host, matches_pool.front(state[host].unexpected).src,
                        matches_pool.front(state[host].unexpected).tag);
      } else if (!state[host].posted.empty()) {
        const PendingMatch& r = matches_pool.front(state[host].posted);
        run.complete = false;
        run.incomplete =
            fmt::format("rank {}'s receive from {} (tag {}) never found a matching message", host,
                        r.src == kAnyPeer ? std::string("any rank") : std::to_string(r.src),
                        r.tag == kAnyTag ? std::string("any") : std::to_string(r.tag));
      }
    }
  }
  return run;
}

// The same, observed by no one.
template <class Counter, class Sched, class Noise>
ScheduleRun simulate_with(const Sched& s, const ScheduleNet& net, Noise& noise, bool use_rooms,
                          EngineBuffers& buffers) {
  NoObserver none;
  return simulate_with<Counter>(s, net, noise, use_rooms, buffers, none);
}

}  // namespace schedule_detail

template <class Sched, class Noise, class Observer>
ScheduleRun simulate_schedule(const Sched& s, const ScheduleNet& net, Noise& noise,
                              ScheduleEngineMemory& memory, Observer& observer) {
  using namespace schedule_detail;
  if (s.ranks() > kMaxScheduleRanks)
    throw InputError(
        fmt::format("a schedule of {} ranks: the engine takes at most 2^30", s.ranks()));
  std::uint32_t most = 0;
  StopPoll poll;
  for (std::uint32_t host = 0; host < s.ranks(); ++host) {
    const auto v = s.view(host);
    poll.tick(v.count() + std::uint64_t{1});
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
      most = std::max(most, v.dependencies(op));
  }
  const bool rooms = s.cpus() == 1 && s.nics() == 1;
  EngineBuffers& buffers = memory.buffers();
  if (most < 0xff) return simulate_with<std::uint8_t>(s, net, noise, rooms, buffers, observer);
  if (most < 0xffff) return simulate_with<std::uint16_t>(s, net, noise, rooms, buffers, observer);
  return simulate_with<std::uint32_t>(s, net, noise, rooms, buffers, observer);
}

template <class Sched, class Noise>
ScheduleRun simulate_schedule(const Sched& s, const ScheduleNet& net, Noise& noise,
                              ScheduleEngineMemory& memory) {
  NoObserver none;
  return simulate_schedule(s, net, noise, memory, none);
}

template <class Sched, class Noise>
ScheduleRun simulate_schedule(const Sched& s, const ScheduleNet& net, Noise& noise) {
  ScheduleEngineMemory memory;
  return simulate_schedule(s, net, noise, memory);
}

}  // namespace collnoise
