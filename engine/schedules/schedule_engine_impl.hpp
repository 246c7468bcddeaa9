#pragma once
// The schedule engine's body (engine/schedules/schedule_engine.hpp), included by the files that
// instantiate it for a kind of noise.
#include <fmt/format.h>

#include <algorithm>
#include <queue>

#include "core/stop_request.hpp"
#include "engine/schedules/schedule_engine.hpp"

namespace collnoise {
namespace schedule_detail {

enum EventType : std::uint8_t { kSend = 1, kRecv = 2, kCalc = 3, kMessage = 4 };

struct Event {
  double time;           ///< ns
  std::uint64_t stamp;   ///< order of first insertion: breaks ties as LogGOPSim's does
  std::uint64_t op;      ///< global index; for a message, the send
  std::uint32_t host;    ///< where it happens (a message: the receiver)
  std::uint32_t origin;  ///< a message's sender
  EventType type;
};

struct Later {
  bool operator()(const Event& a, const Event& b) const {
    return a.time > b.time || (a.time == b.time && a.stamp > b.stamp);
  }
};

/// A posted receive (src, tag of the receive) or an unexpected message (its sender and tag).
struct Pending {
  std::uint32_t src;
  std::uint32_t tag;
  std::uint64_t size;
  std::uint64_t op;  ///< the receive, or the message's send
};

// The bytes after the first, (s - 1): per-byte costs are charged on them. A message of 0 bytes
// (Schedgen writes some) has none; LogGOPSim's unsigned arithmetic wraps there instead.
inline double extra_bytes(std::uint64_t size) {
  return size > 0 ? static_cast<double>(size - 1) : 0.0;
}

inline bool matches(std::uint32_t want_src, std::uint32_t want_tag, const Pending& p) {
  return (want_src == kAnyPeer || p.src == kAnyPeer || p.src == want_src) &&
         (want_tag == kAnyTag || p.tag == kAnyTag || p.tag == want_tag);
}

}  // namespace schedule_detail

template <class Noise>
ScheduleRun simulate_schedule(const Schedule& s, const ScheduleNet& net, Noise& noise) {
  using namespace schedule_detail;
  const std::uint32_t p = s.ranks();
  const std::uint32_t cpus = s.cpus();
  const std::uint32_t nics = s.nics();
  std::vector<double> next_cpu(static_cast<std::size_t>(p) * cpus, 0.0);
  std::vector<double> next_send(static_cast<std::size_t>(p) * nics, 0.0);
  std::vector<double> next_recv(static_cast<std::size_t>(p) * nics, 0.0);
  const auto cpu_of = [&](std::uint32_t host, std::uint8_t cpu) -> double& {
    return next_cpu[static_cast<std::size_t>(host) * cpus + cpu];
  };
  const auto send_nic = [&](std::uint32_t host, std::uint8_t nic) -> double& {
    return next_send[static_cast<std::size_t>(host) * nics + nic];
  };
  const auto recv_nic = [&](std::uint32_t host, std::uint8_t nic) -> double& {
    return next_recv[static_cast<std::size_t>(host) * nics + nic];
  };

  std::vector<std::uint32_t> remaining(s.operations());
  for (std::uint64_t op = 0; op < s.operations(); ++op) remaining[op] = s.dependencies(op);
  std::vector<std::vector<std::uint64_t>> ready(p);
  std::vector<std::vector<Pending>> posted(p), unexpected(p);
  std::vector<std::uint32_t> touched;
  std::priority_queue<Event, std::vector<Event>, Later> queue;
  std::uint64_t stamp = 0;
  ScheduleRun run;
  std::uint64_t ran = 0;  // operations that ran (LogGOPSim's events less the messages)

  const auto release = [&](std::uint32_t host, std::uint64_t op, bool started) {
    const std::uint64_t first = s.first_op(host);
    s.for_each_dependent(host, op, [&](const Schedule::Dependent& d) {
      if (d.started != started) return;
      if (--remaining[first + d.local] == 0) ready[host].push_back(first + d.local);
    });
    touched.push_back(host);
  };
  // Finishing an operation twice (a rendezvous receive matching an eager send of another size)
  // releases its dependents twice, as in LogGOPSim: their counters wrap and they never run.
  const auto finish_op = [&](std::uint32_t host, std::uint64_t op) { release(host, op, false); };
  // Ready operations of a rank enter the queue sends first, then receives, then computations,
  // as LogGOPSim orders them (its std::sort by type, the same comparisons).
  const auto enqueue_ready = [&](std::uint32_t host) {
    auto& list = ready[host];
    std::sort(list.begin(), list.end(), [&](std::uint64_t a, std::uint64_t b) {
      return static_cast<int>(s.kind(a)) < static_cast<int>(s.kind(b));
    });
    for (const std::uint64_t op : list) {
      Event e{0.0, stamp++, op, host, host, static_cast<EventType>(s.kind(op))};
      const double cpu_free = cpu_of(host, s.cpu(op));
      e.time = e.type == kSend ? std::max(cpu_free, send_nic(host, s.nic(op))) : cpu_free;
      queue.push(e);
    }
    list.clear();
  };

  for (std::uint32_t host = 0; host < p; ++host) {
    const std::uint64_t first = s.first_op(host);
    for (std::uint32_t k = 0; k < s.ops_of(host); ++k)
      if (remaining[first + k] == 0) ready[host].push_back(first + k);
    enqueue_ready(host);
  }

  while (!queue.empty()) {
    Event e = queue.top();
    queue.pop();
    touched.clear();
    if ((run.events & 0xfffff) == 0) throw_if_stop_requested();
    const std::uint32_t h = e.host;
    switch (e.type) {
      case kCalc: {
        double& cpu = cpu_of(h, s.cpu(e.op));
        if (cpu <= e.time) {
          const auto length = static_cast<double>(s.size(e.op));
          cpu = noise.end(h, Busy::kCalc, e.op, e.time, length, length);
          ++run.events;
          ++ran;
          release(h, e.op, true);
          finish_op(h, e.op);
        } else {
          e.time = cpu;
          queue.push(e);
        }
        break;
      }
      case kSend: {
        double& cpu = cpu_of(h, s.cpu(e.op));
        double& nic = send_nic(h, s.nic(e.op));
        if (std::max(cpu, nic) <= e.time) {
          ++run.events;
          ++ran;
          release(h, e.op, true);
          const double extra = extra_bytes(s.size(e.op));
          cpu = noise.end(h, Busy::kSend, e.op, e.time, net.o + extra * net.O, net.o);
          nic = e.time + net.g + extra * net.G;
          const std::uint32_t target = s.peer(e.op);
          queue.push(Event{e.time + net.o + net.L, stamp++, e.op, target, h, kMessage});
          if (s.size(e.op) <= net.S) finish_op(h, e.op);
        } else {
          e.time = std::max(cpu, nic);
          queue.push(e);
        }
        break;
      }
      case kRecv: {
        ++run.events;
        ++ran;
        release(h, e.op, true);
        auto& queue_h = unexpected[h];
        const auto it = std::find_if(queue_h.begin(), queue_h.end(), [&](const Pending& m) {
          return matches(s.peer(e.op), s.tag(e.op), m);
        });
        if (it != queue_h.end()) {
          const Pending m = *it;
          queue_h.erase(it);
          if (s.size(e.op) > net.S) {  // rendezvous: the send finishes now
            finish_op(m.src, m.op);
            double& sender_cpu = cpu_of(m.src, s.cpu(e.op));
            double& sender_nic = send_nic(m.src, s.nic(e.op));
            sender_cpu = std::max(sender_cpu, e.time);
            sender_nic = std::max(sender_nic, e.time);
          }
          finish_op(h, e.op);
        } else {
          posted[h].push_back(Pending{s.peer(e.op), s.tag(e.op), s.size(e.op), e.op});
        }
        break;
      }
      case kMessage: {
        const std::uint64_t send = e.op;
        double& cpu = cpu_of(h, s.cpu(send));
        double& nic = recv_nic(h, s.nic(send));
        if (std::max(cpu, nic) <= e.time) {
          ++run.events;
          const double extra = extra_bytes(s.size(send));
          cpu = noise.end(h, Busy::kReceive, send, e.time,
                          net.o + std::max(extra * net.O, extra * net.G), net.o);
          nic = e.time + net.g + extra * net.G;
          auto& queue_h = posted[h];
          const auto it = std::find_if(queue_h.begin(), queue_h.end(), [&](const Pending& r) {
            return matches(e.origin, s.tag(send), r);
          });
          if (it != queue_h.end()) {
            const Pending r = *it;
            queue_h.erase(it);
            if (s.size(send) > net.S) {  // rendezvous: the send finishes now
              finish_op(e.origin, send);
              double& sender_cpu = cpu_of(e.origin, s.cpu(send));
              double& sender_nic = send_nic(e.origin, s.nic(send));
              sender_cpu = std::max(sender_cpu, e.time);
              sender_nic = std::max(sender_nic, e.time);
            }
            finish_op(h, r.op);
          } else {
            unexpected[h].push_back(Pending{e.origin, s.tag(send), s.size(send), send});
          }
        } else {
          e.time = std::max(cpu, nic);
          queue.push(e);
        }
        break;
      }
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (const std::uint32_t host : touched) enqueue_ready(host);
  }

  run.finish.assign(p, 0.0);
  for (std::uint32_t host = 0; host < p; ++host)
    for (std::uint32_t c = 0; c < cpus; ++c)
      run.finish[host] = std::max(run.finish[host], cpu_of(host, static_cast<std::uint8_t>(c)));
  // Everything ran, every message found its receive?
  if (ran != s.operations()) {
    run.complete = false;
    for (std::uint32_t host = 0; host < p && run.incomplete.empty(); ++host) {
      const std::uint64_t first = s.first_op(host);
      for (std::uint32_t k = 0; k < s.ops_of(host); ++k) {
        const std::uint64_t op = first + k;
        if (remaining[op] != 0) {
          const Operation o = s.operation(op);
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
      if (!unexpected[host].empty()) {
        run.complete = false;
        run.incomplete =
            fmt::format("rank {} received a message from rank {} (tag {}) that no receive took",
                        host, unexpected[host].front().src, unexpected[host].front().tag);
      } else if (!posted[host].empty()) {
        const Pending& r = posted[host].front();
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

}  // namespace collnoise
