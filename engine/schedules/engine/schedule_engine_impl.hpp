#pragma once
// The schedule engine's body (engine/schedules/engine/schedule_engine.hpp), included by the files
// that instantiate it for a kind of schedule and a kind of noise.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <utility>

#include "core/errors.hpp"
#include "core/hot_inline.hpp"
#include "core/huge_page_allocator.hpp"
#include "core/stop_poll.hpp"
#include "core/stop_request.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/schedules/engine/engine_memory.hpp"
#include "engine/schedules/engine/engine_observer.hpp"
#include "engine/schedules/engine/event_queue.hpp"
#include "engine/schedules/engine/match_lists.hpp"
#include "engine/schedules/engine/schedule_engine.hpp"
#include "engine/schedules/engine/waiting_rooms.hpp"

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
// look further ahead there, where match-list chunks come from memory. Under noise the window holds
// a few dozen events, and a far look-ahead would find none near its end.
inline constexpr std::size_t kRoundPrefetchDistance = 32;

// One run of the engine: its state (the per-rank states, the dependency counters of type Counter,
// the queue, rooms and match lists it works on, the run's counters) and one handler per kind of
// event, with the rooms, the look-ahead and the end-of-run checks as members.
//
// The run itself is small (references, spans and counters), and the event loop works on a local
// copy of it (run_events): through `this` the compiler would reload every span and counter after
// each store to a dependency counter (a byte, which may alias anything). The loop's handlers and
// helpers are forced inline (COLLNOISE_HOT_INLINE, core/hot_inline.hpp), so that the copy's
// address never leaves the loop and its fields stay in registers, as one function's locals
// would; the two helpers left out of line (release, sort_fresh) are static and take what they
// need as arguments, and so is the one the compiler inlines on its own (prefetch_lists: forced
// inline, its prefetches would be lost; it says why). Release stays out of line because, inlined,
// it kept the compiler from inlining the schedule's walk over an operation's dependents (what
// each choice cost: bench/HISTORY.md, "Benchmark notes from the schedule engine's comments").
//
// `use_rooms`: operations waiting for a busy CPU or NIC wait in rooms (one CPU and NIC per rank
// only); else each is queued again as in LogGOPSim. Both give the same times
// (tests/engine/schedules/engine/test_waiting_rooms.cpp).
// `observer` is told every occupation, message and rendezvous
// (engine/schedules/engine/engine_observer.hpp).
template <class Counter, class Sched, class Noise, class Observer>
class EngineRun {
 public:
  // Each rank's state in one cache line: its first CPU and NIC, its two match lists and the
  // noise's own per-rank state (the engine is bound by memory latency once noise scatters the
  // ranks in time). Further CPUs and NICs, which few schedules name, live apart.
  using Slot = NoiseSlot<Noise>;

  /// The doubles a run of `s` keeps for the CPUs and NICs beyond each rank's first.
  static std::size_t extra_doubles(const Sched& s) {
    return std::size_t{s.ranks()} * ((s.cpus() - 1) + 2 * (s.nics() - 1));
  }

  /// A run on `buffers` (emptied by the caller); `extra`: extra_doubles(s) zeros, kept by the
  /// caller for the run.
  /// `network`: the messages' shared network (ScheduleNet::contention), or null.
  EngineRun(const Sched& s, const ScheduleNet& net, Noise& noise, bool use_rooms,
            EngineBuffers& buffers, Observer& observer, std::span<double> extra,
            MessageNetwork* network = nullptr)
      : s_(s),
        net_(net),
        noise_(noise),
        network_(network),
        observer_(observer),
        buffers_(buffers),
        matches_pool_(buffers.matches),
        queue_(buffers.queue),
        rooms_(buffers.rooms),
        fresh_(buffers.fresh),
        start_(buffers.start),
        state_(EngineBuffers::array_of<RankState<Slot>>(buffers.rank_lines, s.ranks())),
        remaining_(EngineBuffers::array_of<Counter>(buffers.counter_lines, s.operations())),
        p_(s.ranks()),
        cpus_(s.cpus()),
        more_cpus_(s.cpus() - 1),
        more_nics_(s.nics() - 1),
        use_rooms_(use_rooms) {
    const std::size_t cpus = std::size_t{p_} * more_cpus_, nics = std::size_t{p_} * more_nics_;
    extra_cpu_ = extra.subspan(0, cpus);
    extra_send_ = extra.subspan(cpus, nics);
    extra_recv_ = extra.subspan(cpus + nics, nics);
  }

  /// Every CPU and NIC of rank r free from `start[r]` ns instead of 0 (a start of its own: the
  /// entry of docs/models/schedules.md, "Entry, timing and loop"). The start round still lists
  /// the ready operations at time 0 with LogGOPSim's stamps; each waits for its rank's resources
  /// as it would for any busy CPU or NIC (a posted receive takes none and is posted at once).
  /// Ranks beyond `start` (a background job's, Schedule::timed_ranks) start at 0.
  void start_at(std::span<const double> start) {
    for (std::uint32_t h = 0; h < p_ && h < start.size(); ++h) {
      state_[h].cpu = state_[h].send = state_[h].recv = start[h];
      for (std::uint32_t c = 0; c < more_cpus_; ++c)
        extra_cpu_[std::size_t{h} * more_cpus_ + c] = start[h];
      for (std::uint32_t n = 0; n < more_nics_; ++n) {
        extra_send_[std::size_t{h} * more_nics_ + n] = start[h];
        extra_recv_[std::size_t{h} * more_nics_ + n] = start[h];
      }
    }
  }

  // ---- Before the events ----

  /// Sets the dependency counters; returns the operations ready at the start.
  std::uint64_t count_dependencies(StopPoll& setup) {
    std::uint64_t ready_at_start = 0;
    for (std::uint32_t host = 0; host < p_; ++host) {
      const auto v = s_.view(host);
      setup.tick(v.count() + std::uint64_t{1});
      for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op) {
        remaining_[op] = static_cast<Counter>(v.dependencies(op));
        ready_at_start += remaining_[op] == 0;
      }
    }
    return ready_at_start;
  }

  /// The run starts with the `ready_at_start` operations without dependencies: the start round.
  void begin_start_round(std::uint64_t ready_at_start) {
    start_.clear();
    start_read_ = 0;
    start_host_ = 0;
    stamp_ = ready_at_start;
  }

  // ---- The events ----

  /// Processes every event, on a local copy of the run (see above).
  void run_events() {
    EngineRun hot(*this);
    hot.event_loop();
    stamp_ = hot.stamp_;
    start_read_ = hot.start_read_;
    start_host_ = hot.start_host_;
    events_ = hot.events_;
    ran_ = hot.ran_;
    last_wait_ = hot.last_wait_;
  }

  // ---- After the events ----

  /// The run's finishing times and counts; whether it completed, and if not why.
  ScheduleRun result() const {
    ScheduleRun run;
    run.events = events_;
    run.searched = matches_pool_.searched();
    if (network_ != nullptr) {
      run.network_repolls = network_->repolls();
      run.network_recomputations = network_->recomputations();
    }
    record_finish_times(run);
    check_complete(run);
    return run;
  }

 private:
  using View = decltype(std::declval<const Sched&>().view(0));
  using Room = typename WaitingRooms<Event>::Room;
  using Fresh = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

  // ---- Resources and noise ----

  COLLNOISE_HOT_INLINE double& cpu_of(std::uint32_t host, std::uint8_t cpu) const {
    return cpu == 0 ? state_[host].cpu : extra_cpu_[std::size_t{host} * more_cpus_ + cpu - 1U];
  }
  COLLNOISE_HOT_INLINE double& send_nic(std::uint32_t host, std::uint8_t nic) const {
    return nic == 0 ? state_[host].send : extra_send_[std::size_t{host} * more_nics_ + nic - 1U];
  }
  COLLNOISE_HOT_INLINE double& recv_nic(std::uint32_t host, std::uint8_t nic) const {
    return nic == 0 ? state_[host].recv : extra_recv_[std::size_t{host} * more_nics_ + nic - 1U];
  }
  // The end of CPU work on `host`, from the noise (with the rank's slot when it keeps one).
  COLLNOISE_HOT_INLINE double busy_until(std::uint32_t host, Busy what, std::uint64_t op, double t,
                                         double length, double window) {
    if constexpr (kHasSlot<Noise>)
      return noise_.end(host, state_[host].slot, what, op, t, length, window);
    else
      return noise_.end(host, what, op, t, length, window);
  }

  // ---- Rooms: waiting for a busy CPU or NIC ----

  // `e` waits for resources free at max(cpu, nic): queued again at that time, or in its room
  // when the last operation that waited did so on the same rank for the same values (an
  // operation waiting alone, the common case under noise, costs no lookup).
  COLLNOISE_HOT_INLINE void wait(Event e, unsigned kind, double cpu, double nic) {
    bool requeue = true;
    if (use_rooms_) {
      // The last wait of each rank (a few, by rank): ranks busy at once interleave their waits
      // (an alltoall's), and one last wait for all never saw two of a rank in a row.
      LastWait& last = last_wait_[e.host % kLastWaits];
      const bool again =
          last.host == e.host && last.kind == kind && last.cpu == cpu && last.nic == nic;
      if (!again) last = LastWait{e.host, kind, cpu, nic};
      if (again && rooms_.wait(e.host, kind, e, cpu, nic, requeue))
        queue_.push(gate(std::max(cpu, nic), e.stamp, e.host, kind));
    }
    if (requeue) {
      e.time = std::max(cpu, nic);
      queue_.push(e);
    }
  }
  // A room's gate `e`: its least stamp's operation, due now, replaces `e`; false if the room
  // moved on (or closed) and the gate is stale.
  COLLNOISE_HOT_INLINE bool open_gate(Event& e, Room*& room, unsigned& kind) {
    kind = e.origin();
    room = rooms_.find(e.host, kind);
    if (room == nullptr || !WaitingRooms<Event>::current(*room, e.time, e.stamp)) return false;
    const double now = e.time;
    e = WaitingRooms<Event>::take_least(*room);
    e.time = now;
    return true;
  }
  // After a gate's operation was examined at t, the rest of its room is due at (t, their stamps).
  // With the CPU busy beyond t nothing on the rank runs before it frees, and each would be queued
  // again at the same time: the room moves there at once. Else they go back to the queue.
  COLLNOISE_HOT_INLINE void leave_room(Room& room, std::uint32_t host, unsigned kind, double t) {
    if (room.waiting.empty()) {
      rooms_.close(host, kind);
      return;
    }
    const double cpu = state_[host].cpu;
    const double nic = kind == kSendRoom ? state_[host].send : state_[host].recv;
    if (cpu > t) {
      WaitingRooms<Event>::move(room, cpu, nic);
      queue_.push(gate(room.pending, room.waiting.front().stamp, host, kind));
      return;
    }
    for (Event w : room.waiting) {
      w.time = t;
      queue_.push(w);
    }
    rooms_.close(host, kind);
  }

  // ---- Dependencies and the queue of ready operations ----

  // `v` is the view of `host`. Kept out of line, as the compiler left it when the loop was one
  // function (with the schedule's walk over the dependents inlined here, not in the loop); static
  // so that the run's copy in the loop does not escape, and given the view by value so that the
  // loop's view stays in registers.
  [[gnu::noinline]] static void release(std::span<Counter> remaining, Fresh& fresh, const View v,
                                        std::uint32_t host, std::uint64_t op, bool started) {
    const std::uint64_t first = v.first();
    v.for_each_dependent(op, [&](const auto& d) {
      if (d.started != started) return;
      if (--remaining[first + d.local] == 0) fresh.emplace_back(host, first + d.local);
    });
  }
  COLLNOISE_HOT_INLINE void release(const View& v, std::uint32_t host, std::uint64_t op,
                                    bool started) {
    release(remaining_, fresh_, v, host, op, started);
  }
  // Finishing an operation twice (a rendezvous receive matching an eager send of another size)
  // releases its dependents twice, as in LogGOPSim: their counters wrap and they never run.
  COLLNOISE_HOT_INLINE void finish_op(const View& v, std::uint32_t host, std::uint64_t op) {
    release(v, host, op, false);
  }
  COLLNOISE_HOT_INLINE void enqueue(const View& v, std::uint32_t host, std::uint64_t op) {
    const auto type = static_cast<EventType>(v.kind(op));
    const double cpu_free = cpu_of(host, v.cpu(op));
    const double t = type == kSend ? std::max(cpu_free, send_nic(host, v.nic(op))) : cpu_free;
    queue_.push(Event{t, stamp_++, op, host, host << 2 | type});
  }
  // Ready operations enter the queue rank by rank in increasing rank order, and within a rank
  // sends first, then receives, then computations, as LogGOPSim orders them (its std::sort by
  // type, the same comparisons on the same sequence, hence the same order among equals).
  COLLNOISE_HOT_INLINE void enqueue_fresh() {
    if (fresh_.size() == 1) {
      enqueue(s_.view(fresh_[0].first), fresh_[0].first, fresh_[0].second);
    } else if (!fresh_.empty()) {
      sort_fresh(fresh_, s_);
      for (auto group = fresh_.begin(); group != fresh_.end();) {
        const auto v = s_.view(group->first);
        auto it = group;
        for (; it != fresh_.end() && it->first == group->first; ++it)
          enqueue(v, it->first, it->second);
        group = it;
      }
    }
    fresh_.clear();
  }
  // `fresh` in the order its operations enter the queue (above).
  [[gnu::noinline]] static void sort_fresh(Fresh& fresh, const Sched& s) {
    // Stable by rank. Mostly one rank or a few, often in order: an insertion sort, which
    // (unlike std::stable_sort) allocates nothing per event.
    for (std::size_t i = 1; i < fresh.size(); ++i)
      for (std::size_t j = i; j > 0 && fresh[j - 1].first > fresh[j].first; --j)
        std::swap(fresh[j - 1], fresh[j]);
    for (auto group = fresh.begin(); group != fresh.end();) {
      const auto next =
          std::find_if(group, fresh.end(), [&](const auto& x) { return x.first != group->first; });
      const auto v = s.view(group->first);
      std::sort(group, next, [&](const auto& a, const auto& b) {
        return static_cast<int>(v.kind(a.second)) < static_cast<int>(v.kind(b.second));
      });
      group = next;
    }
  }

  // ---- The event loop ----

  // A stop request is polled by elapsed time, counting events and the match-list entries they
  // search (one event may search a million: a root posting its receives in reverse order).
  struct LoopPolls {
    StopPoll poll{std::uint64_t{1} << 12};
    std::uint64_t polled = 0;         // events and entries searched at the last tick
    std::uint64_t next_progress = 0;  // events processed at the next progress report
  };

  // The start round, then the queue: two loops, so that the queue's loop, where nearly all the
  // events are, tests nothing of the start round.
  COLLNOISE_HOT_INLINE void event_loop() {
    LoopPolls polls;
    polls.poll.check();  // at the start, then by elapsed time
    for (;;) {
      if (start_.size() - start_read_ <= kRoundPrefetchDistance && start_host_ < p_)
        list_start_round(s_, remaining_, fresh_, buffers_.class_starts, start_, start_read_,
                         start_host_);
      if (start_read_ == start_.size()) break;
      process<true>(start_[start_read_++], polls);
    }
    while (!queue_.empty()) process<false>(queue_.pop(), polls);
  }

  // One event, read from the start round's list or from the queue.
  template <bool kStartRound>
  COLLNOISE_HOT_INLINE void process(Event e, LoopPolls& polls) {
    Room* room = nullptr;
    unsigned room_kind = 0;
    if (is_gate(e) && !open_gate(e, room, room_kind)) return;
    prefetch_ahead<kStartRound>();
    const std::uint64_t work = events_ + matches_pool_.searched();
    polls.poll.tick(work - polls.polled);
    polls.polled = work;
    if (events_ >= polls.next_progress) {  // at the start, then every 2^20 events
      polls.next_progress = events_ + (std::uint64_t{1} << 20);
      if (buffers_.on_progress) buffers_.on_progress(events_);
    }
    const auto v = s_.view(e.host);
    switch (e.type()) {
      case kCalc:
        on_calc(e, v);
        break;
      case kSend:
        on_send(e, v);
        break;
      case kRecv:
        on_recv(e, v);
        break;
      case kMessage:
        on_message(e, v);
        break;
    }
    if (room != nullptr) leave_room(*room, e.host, room_kind, e.time);
    enqueue_fresh();
  }

  // The start round: the operations ready at the start, all at time 0 with the stamps 0, 1, ...
  // in the order enqueue_fresh gives them (by rank; in a rank sends, receives, computations).
  // Every event the run queues comes after them (a later stamp at no earlier time), so they are
  // listed as they are read, a few thousand ahead, not queued at once: a preposted 2^16-rank
  // barrier's million receives held 36 MB of queue. Static, as release is.
  // Nothing of a rank has run when it is listed (it runs only once listed, and no message comes
  // before the start round ends), so its ready operations are those without dependencies: a rank
  // class's, for a generated schedule, in one order for all its ranks (ClassStarts).
  [[gnu::noinline]] static void list_start_round(const Sched& s, std::span<const Counter> remaining,
                                                 Fresh& fresh, ClassStarts& classes,
                                                 std::vector<Event>& start, std::size_t& read,
                                                 std::uint32_t& host) {
    constexpr std::size_t kListed = 4096;
    const std::uint64_t stamp = start.empty() ? 0 : start.back().stamp + 1;
    start.erase(start.begin(), start.begin() + static_cast<std::ptrdiff_t>(read));
    read = 0;
    std::uint64_t next = stamp;
    for (; start.size() < kListed && host < s.ranks(); ++host) {
      const auto v = s.view(host);
      if constexpr (requires { v.program(); }) {
        for (const auto& [k, type] : class_start(classes, v, remaining, fresh, s, host))
          start.push_back(Event{0.0, next++, v.first() + k, host, host << 2 | type});
      } else {
        ready_in_order(v, remaining, fresh, s, host);
        for (const auto& [h, op] : fresh)
          start.push_back(Event{0.0, next++, op, h, h << 2 | static_cast<EventType>(v.kind(op))});
        fresh.clear();
      }
    }
  }
  // The ready operations of `host` (view `v`) into `fresh`, in the order they enter the queue.
  static void ready_in_order(const View& v, std::span<const Counter> remaining, Fresh& fresh,
                             const Sched& s, std::uint32_t host) {
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
      if (remaining[op] == 0) fresh.emplace_back(host, op);
    if (fresh.size() > 1) sort_fresh(fresh, s);
  }
  // The start round of the class of `host`, found by listing its first rank met.
  static std::span<const ClassStarts::Ready> class_start(ClassStarts& classes, const View& v,
                                                         std::span<const Counter> remaining,
                                                         Fresh& fresh, const Sched& s,
                                                         std::uint32_t host) {
    const void* program = &v.program();
    if (const auto known = classes.find(program)) return *known;
    ready_in_order(v, remaining, fresh, s, host);
    const std::size_t begin = classes.ready.size();
    for (const auto& [h, op] : fresh)
      classes.ready.emplace_back(local(v, op), static_cast<std::uint8_t>(v.kind(op)));
    fresh.clear();
    return classes.add(program, begin);
  }
  // The event `k` places behind the next one, if known.
  template <bool kStartRound>
  COLLNOISE_HOT_INLINE const Event* ahead(std::size_t k) const {
    if constexpr (kStartRound)
      return start_.size() - start_read_ > k ? &start_[start_read_ + k] : nullptr;
    else
      return queue_.ahead(k);
  }

  // Events of one time leave in a known order: fetch the state of a rank a few events ahead
  // while this one is processed (a rank's state is a cache miss at a million ranks).
  template <bool kStartRound>
  COLLNOISE_HOT_INLINE void prefetch_ahead() {
    const std::size_t distance =
        kStartRound || queue_.reading_round() ? kRoundPrefetchDistance : kPrefetchDistance;
    const Event* next = ahead<kStartRound>(distance);
    // A stored schedule's records (its operation and dependents) are not fetched: fetching them
    // made this loop slower on the stored GOAL kernels (bench/HISTORY.md, "Benchmark notes from the
    // schedule engine's comments").
    if (next != nullptr && !is_gate(*next)) {
      __builtin_prefetch(&state_[next->host]);
      __builtin_prefetch(&remaining_[next->op]);
      if (network_ != nullptr && next->type() == kMessage) [[unlikely]]
        network_->fetch_far(next->op);
      if constexpr (requires { observer_.fetch_far(AheadSeen{}); }) {
        // A send writes to its receiver's state in the observer: named here.
        const std::uint32_t peer = next->type() == kSend ? s_.view(next->host).peer(next->op) : 0;
        observer_.fetch_far(AheadSeen{
            .host = next->host, .op = next->op, .message = next->type() == kMessage, .peer = peer});
      }
    }
    // Nearer, that state is in the cache: its match lists' chains, and the counter of the
    // receive a message would finish.
    const Event* near = ahead<kStartRound>(distance / 2);
    if (near != nullptr && !is_gate(*near)) {
      const std::uint64_t receive = prefetch_lists(s_, matches_pool_, state_[near->host], *near);
      if (receive != kNoReceive) __builtin_prefetch(&remaining_[receive]);
      if (network_ != nullptr && near->type() == kMessage) [[unlikely]]
        network_->fetch_near(near->op);
      if constexpr (requires { observer_.fetch_near(AheadSeen{}); })
        observer_.fetch_near(
            AheadSeen{.host = near->host, .op = near->op, .message = near->type() == kMessage});
    }
  }
  static constexpr std::uint64_t kNoReceive = ~std::uint64_t{0};
  // Fetches the first chunks of the match lists' chains of `r`, the state of the rank of `near`;
  // gives the operation whose dependency counter to fetch (for a message, the first posted
  // receive, which it most often finishes), or kNoReceive.
  // Why apart, not forced inline, and with a result: GCC deems a function that only prefetches
  // (MatchPool::prefetch) pure, and removes a call to it whose result goes unused (C++ loops are
  // taken to end); and into a function forced inline it inlines no ordinary function until that
  // one is inlined in turn, so from the forced-inline look-ahead the pool's prefetches would be
  // removed before they could be inlined. Here, in an ordinary function, they are inlined at
  // once, and the look-ahead uses its result, so the call stays (bench/HISTORY.md, "Benchmark notes
  // from the schedule engine's comments"). Static, so that the run's copy in the loop does not
  // escape.
  static std::uint64_t prefetch_lists(const Sched& s, const MatchPool& pool,
                                      const RankState<Slot>& r, const Event& near) {
    pool.prefetch(r.posted);
    pool.prefetch(r.unexpected);
    // (The message's own operation is the sender's.)
    if (near.type() == kMessage && !r.posted.empty())
      return s.view(near.host).first() + r.posted.first.op;
    return kNoReceive;
  }

  // ---- One handler per kind of event ----

  // A computation: runs when its CPU is free, else is queued again at that time (`e` moves).
  COLLNOISE_HOT_INLINE void on_calc(Event& e, const View& v) {
    const std::uint32_t h = e.host;
    double& cpu = cpu_of(h, v.cpu(e.op));
    if (cpu <= e.time) {
      const auto length = static_cast<double>(v.size(e.op));
      cpu = busy_until(h, Busy::kCalc, e.op, e.time, length, length);
      if constexpr (Observer::kActive)
        observer_.calc(CalcSeen{.host = h,
                                .cpu = v.cpu(e.op),
                                .op = e.op,
                                .index = e.op - v.first(),
                                .start = e.time,
                                .length = length,
                                .end = cpu});
      ++events_;
      ++ran_;
      release(v, h, e.op, true);
      finish_op(v, h, e.op);
    } else {
      e.time = cpu;
      queue_.push(e);
    }
  }
  // Queues the wakes the network asked for, each a message event with a fresh stamp.
  COLLNOISE_HOT_INLINE void queue_wakes() {
    const auto wakes = network_->wakes();
    for (std::size_t k = 0; k < wakes.size(); ++k) {
      const NetworkWake& w = wakes[k];
      network_->stamped(k, stamp_);
      queue_.push(Event{w.at, stamp_++, w.id, w.to, w.from << 2 | kMessage});
    }
    if (!wakes.empty()) network_->clear_wakes();
  }
  // A send: runs when its CPU and NIC are free (else waits), charged by LogGOPSim's rule; its
  // message is queued at its first byte's arrival. An eager send finishes at once.
  COLLNOISE_HOT_INLINE void on_send(const Event& e, const View& v) {
    const std::uint32_t h = e.host;
    double& cpu = cpu_of(h, v.cpu(e.op));
    double& nic = send_nic(h, v.nic(e.op));
    if (std::max(cpu, nic) <= e.time) {
      ++events_;
      ++ran_;
      release(v, h, e.op, true);
      const std::uint64_t size = v.size(e.op);
      const std::uint32_t to = v.peer(e.op);
      const ScheduleNet& n = loggopsim::for_pair(net_, h, to, size);
      const double extra = loggopsim::extra_bytes(size);
      cpu = busy_until(h, Busy::kSend, e.op, e.time, loggopsim::send_overhead(n, extra),
                       loggopsim::noise_window(n));
      nic = loggopsim::nic_free_after(n, e.time, extra);
      // A network that carries the bytes holds the NIC's (s-1)G on its injection link instead.
      if (network_ != nullptr && network_->carries_bytes()) [[unlikely]]
        nic = e.time + n.g;
      const double wire_end = loggopsim::first_byte_arrival(n, e.time);
      double arrival = wire_end;
      double delay = 0.0;
      BytesCharge nic_bytes = BytesCharge::kG;
      if constexpr (requires { noise_.message_delay(e.op, size, h, to); }) {
        delay = send_delay(e.op, size, h, to, e.time, n, nic, nic_bytes);
        arrival += delay;
      }
      if (!loggopsim::eager(n, size)) [[unlikely]]
        arrival += loggopsim::handshake_delay(n, delay);
      if constexpr (Observer::kActive)
        observer_.send(SendSeen{.host = h,
                                .cpu = v.cpu(e.op),
                                .nic = v.nic(e.op),
                                .op = e.op,
                                .index = e.op - v.first(),
                                .peer = v.peer(e.op),
                                .tag = v.tag(e.op),
                                .bytes = size,
                                .start = e.time,
                                .overhead = loggopsim::send_overhead(n, extra),
                                .cpu_end = cpu,
                                .nic_end = nic,
                                .o = n.o,
                                .g = n.g,
                                .wire_end = wire_end,
                                .arrival = arrival,
                                .nic_bytes = nic_bytes,
                                .eager = loggopsim::eager(n, size)});
      // On a shared network the message enters as its send starts (LogGOPSim's insert).
      if (network_ != nullptr) [[unlikely]]
        network_->start(e.op, h, to, size, e.time);
      queue_.push(Event{arrival, stamp_++, e.op, to, h << 2 | kMessage});
      if (loggopsim::eager(n, size)) finish_op(v, h, e.op);
    } else {
      wait(e, kSendRoom, cpu, nic);
    }
  }
  // The latency noise of the message of `send` (`size` bytes, `from` to `to`) sent at t; when its
  // drawn bytes' time is charged on the transfer (latency.G_charge) it also takes the place of
  // (s-1)G on the sender's NIC `nic` (`charge` says so).
  COLLNOISE_HOT_INLINE double send_delay(std::uint64_t send, std::uint64_t size, std::uint32_t from,
                                         std::uint32_t to, double t, const ScheduleNet& n,
                                         double& nic, BytesCharge& charge) {
    if constexpr (requires { noise_.message_charge(send, size, from, to); }) {
      if (noise_.charges_transfer()) [[unlikely]] {
        const auto drawn = noise_.message_charge(send, size, from, to);
        nic = t + n.g + drawn.bytes_ns;
        charge = BytesCharge::kDrawn;
        return drawn.delay_ns;
      }
    }
    return noise_.message_delay(send, size, from, to);
  }
  // LogGOPSim releases a rendezvous sender when its receive matches the message, at the time t of
  // whichever event came second: the send finishes then, and the sender's CPU `cpu` and NIC
  // `nic` move ahead to t if they were free before (safe, as no event before t is left queued);
  // the indices are those of that event's operation. `vs` is the view of `sender`, `send` its
  // operation; `receiver` took the message. Both handlers release through here.
  COLLNOISE_HOT_INLINE void release_sender(const View& vs, std::uint32_t sender, std::uint64_t send,
                                           std::uint8_t cpu, std::uint8_t nic, double t,
                                           std::uint32_t receiver) {
    finish_op(vs, sender, send);
    double& sender_cpu = cpu_of(sender, cpu);
    double& sender_nic = send_nic(sender, nic);
    sender_cpu = std::max(sender_cpu, t);
    sender_nic = std::max(sender_nic, t);
    if constexpr (Observer::kActive)
      observer_.rendezvous(RendezvousSeen{
          .sender = sender, .cpu = cpu, .nic = nic, .send = send, .time = t, .receiver = receiver});
  }
  // A posted receive: takes the first matching unexpected message, or waits in the posted list.
  COLLNOISE_HOT_INLINE void on_recv(const Event& e, const View& v) {
    const std::uint32_t h = e.host;
    ++events_;
    ++ran_;
    release(v, h, e.op, true);
    const std::uint32_t want_src = v.peer(e.op);
    const std::uint32_t want_tag = v.tag(e.op);
    PendingMatch m{};
    const bool taken = matches_pool_.take_first(
        state_[h].unexpected, [&](const PendingMatch& x) { return matches(want_src, want_tag, x); },
        m);
    if constexpr (Observer::kActive)
      observer_.receive(ReceiveSeen{
          .host = h, .op = e.op, .index = e.op - v.first(), .time = e.time, .matched = taken});
    if (taken) {
      // Rendezvous, the receive second: the sender's CPU and NIC indices are the receive's.
      const std::uint64_t size = v.size(e.op);
      if (!loggopsim::eager(loggopsim::for_pair(net_, m.src, h, size), size)) {
        const auto vs = s_.view(m.src);
        release_sender(vs, m.src, vs.first() + m.op, v.cpu(e.op), v.nic(e.op), e.time, h);
      }
      finish_op(v, h, e.op);
    } else {
      matches_pool_.push_back(state_[h].posted, PendingMatch{want_src, want_tag, local(v, e.op)});
    }
  }
  // A message: received when the receiver's CPU and NIC are free (else waits), charged by
  // LogGOPSim's rule; it finishes the first matching posted receive, or waits as unexpected.
  COLLNOISE_HOT_INLINE void on_message(const Event& e, const View& v) {
    const std::uint32_t h = e.host;
    const std::uint64_t send = e.op;
    const std::uint32_t origin = e.origin();
    const auto vs = s_.view(origin);
    double& cpu = cpu_of(h, vs.cpu(send));
    double& nic = recv_nic(h, vs.nic(send));
    double transfer = 0.0;  // what a network that carries the bytes took after the arrival
    double emerged = 0.0, left = 0.0;  // when it came out of the network's links, and left it
    if (network_ != nullptr) [[unlikely]] {
      // LogGOPSim asks the network first, at every arrival and retry: a message still in it
      // comes back when it may have left, or when the receiver frees, whichever is later (or
      // at the wake the network asked for).
      const NetworkPoll p = network_->poll(send, e.time, e.stamp);
      queue_wakes();
      if (p.kind != NetworkPoll::Kind::kLeft) {
        if (p.kind == NetworkPoll::Kind::kAgain)
          queue_.push(Event{std::max({cpu, nic, p.at}), e.stamp, e.op, e.host, e.origin_type});
        return;
      }
      transfer = p.transfer;
      emerged = p.emerged;
      left = p.left;
    }
    if (std::max(cpu, nic) <= e.time) {
      ++events_;
      const std::uint64_t size = vs.size(send);
      const ScheduleNet& n = loggopsim::for_pair(net_, origin, h, size);
      const double extra = loggopsim::extra_bytes(size);
      double overhead = loggopsim::receive_overhead(n, extra);
      double nic_end = loggopsim::nic_free_after(n, e.time, extra);
      // Which parameter the bytes' part of the receive's CPU time is (std::max keeps the first
      // of equals), and of its NIC's.
      BytesCharge cpu_bytes = extra * n.O >= extra * n.G ? BytesCharge::kO : BytesCharge::kG;
      BytesCharge nic_bytes = BytesCharge::kG;
      if constexpr (requires { noise_.message_charge(send, size, origin, h); }) {
        if (noise_.charges_transfer()) [[unlikely]] {
          // The drawn bytes' time in place of (s-1)G on the receiver's CPU and NIC, the same
          // draws as at its send (latency.G_charge).
          const double bytes = noise_.message_charge(send, size, origin, h).bytes_ns;
          overhead = n.o + std::max(extra * n.O, bytes);
          nic_end = e.time + n.g + bytes;
          cpu_bytes = extra * n.O >= bytes ? BytesCharge::kO : BytesCharge::kDrawn;
          nic_bytes = BytesCharge::kDrawn;
        }
      }
      if (network_ != nullptr) [[unlikely]] {
        if (network_->carries_bytes()) {
          // The bytes came through the ejection link; their copy overlaps the transfer.
          overhead = n.o + std::max(extra * n.O - transfer, 0.0);
          nic_end = e.time + n.g;
        }
        network_->taken(send);
      }
      cpu = busy_until(h, Busy::kReceive, send, e.time, overhead, loggopsim::noise_window(n));
      nic = nic_end;
      const std::uint32_t tag = vs.tag(send);
      PendingMatch r{};
      const bool taken = matches_pool_.take_first(
          state_[h].posted, [&](const PendingMatch& x) { return matches(origin, tag, x); }, r);
      if constexpr (Observer::kActive)
        observer_.message(MessageSeen{.host = h,
                                      .origin = origin,
                                      .cpu = vs.cpu(send),
                                      .nic = vs.nic(send),
                                      .send = send,
                                      .bytes = size,
                                      .start = e.time,
                                      .overhead = overhead,
                                      .cpu_end = cpu,
                                      .nic_end = nic,
                                      .o = n.o,
                                      .g = n.g,
                                      .emerged = emerged,
                                      .left = left,
                                      .cpu_bytes = cpu_bytes,
                                      .nic_bytes = nic_bytes,
                                      .eager = loggopsim::eager(n, size),
                                      .matched = taken});
      if (taken) {
        // Rendezvous, the message second: the sender's CPU and NIC indices are its send's.
        if (!loggopsim::eager(n, size))
          release_sender(vs, origin, send, vs.cpu(send), vs.nic(send), e.time, h);
        finish_op(v, h, v.first() + r.op);
      } else {
        matches_pool_.push_back(state_[h].unexpected, PendingMatch{origin, tag, local(vs, send)});
      }
    } else {
      wait(e, kMessageRoom, cpu, nic);
    }
  }

  // ---- The end of the run ----

  // A rank's finishing time is its CPUs' last busy end; a background job's ranks have none.
  void record_finish_times(ScheduleRun& run) const {
    const std::uint32_t timed = s_.timed_ranks();
    run.finish.assign(timed, 0.0);
    for (std::uint32_t host = 0; host < timed; ++host)
      for (std::uint32_t c = 0; c < cpus_; ++c)
        run.finish[host] = std::max(run.finish[host], cpu_of(host, static_cast<std::uint8_t>(c)));
    for (std::uint32_t host = timed; host < p_; ++host)
      for (std::uint32_t c = 0; c < cpus_; ++c)
        run.untimed_finish =
            std::max(run.untimed_finish, cpu_of(host, static_cast<std::uint8_t>(c)));
  }
  // Everything ran, every message found its receive?
  void check_complete(ScheduleRun& run) const {
    if (ran_ != s_.operations()) {
      run.complete = false;
      // A receive posted and never matched holds up what depends on it: it is named first.
      describe_unmatched(run);
      for (std::uint32_t host = 0; host < p_ && run.incomplete.empty(); ++host)
        describe_unfinished(run, host);
      return;
    }
    describe_unmatched(run);
    if (!run.incomplete.empty()) run.complete = false;
  }
  // Names the first receive that never found its message, else the first message no receive
  // took, if any.
  void describe_unmatched(ScheduleRun& run) const {
    for (std::uint32_t host = 0; host < p_ && run.incomplete.empty(); ++host) {
      if (state_[host].posted.empty()) continue;
      const PendingMatch& r = matches_pool_.front(state_[host].posted);
      run.incomplete = fmt::format(
          "rank {}'s operation {} (recv from {}, tag {}) never found a matching message", host,
          r.op, r.src == kAnyPeer ? std::string("any rank") : std::to_string(r.src),
          r.tag == kAnyTag ? std::string("any") : std::to_string(r.tag));
    }
    for (std::uint32_t host = 0; host < p_ && run.incomplete.empty(); ++host) {
      if (state_[host].unexpected.empty()) continue;
      const PendingMatch& m = matches_pool_.front(state_[host].unexpected);
      run.incomplete =
          fmt::format("rank {} received a message from rank {} (tag {}) that no receive took", host,
                      m.src, m.tag);
    }
  }
  // Names the first operation of `host` that never became ready, if any.
  void describe_unfinished(ScheduleRun& run, std::uint32_t host) const {
    const auto vh = s_.view(host);
    const std::uint64_t first = vh.first();
    for (std::uint32_t k = 0; k < vh.count(); ++k) {
      const std::uint64_t op = first + k;
      if (remaining_[op] == 0) continue;
      run.incomplete = fmt::format(
          "rank {}'s operation {} ({}) never became ready: what it waits "
          "for never finished",
          host, k, operation_text(vh.operation(op)));
      return;
    }
  }

  const Sched& s_;
  const ScheduleNet& net_;
  Noise& noise_;
  MessageNetwork* network_;
  Observer& observer_;
  EngineBuffers& buffers_;
  MatchPool& matches_pool_;
  RadixEventQueue<Event>& queue_;
  WaitingRooms<Event>& rooms_;
  // Operations made ready by the current event, (rank, op) in the order they became ready.
  Fresh& fresh_;
  // The start round's events not yet read, from start_read_ on; ranks from start_host_ on are
  // still to be listed.
  std::vector<Event>& start_;
  std::size_t start_read_ = 0;
  std::uint32_t start_host_ = 0;
  std::span<RankState<Slot>> state_;
  std::span<Counter> remaining_;
  std::span<double> extra_cpu_, extra_send_, extra_recv_;
  std::uint32_t p_, cpus_, more_cpus_, more_nics_;
  bool use_rooms_;
  std::uint64_t stamp_ = 0;
  std::uint64_t events_ = 0;  // operations and messages processed
  std::uint64_t ran_ = 0;     // operations that ran (LogGOPSim's events less the messages)
  struct LastWait {
    std::uint32_t host = ~std::uint32_t{0};
    unsigned kind = 0;
    double cpu = 0.0, nic = 0.0;
  };
  static constexpr std::uint32_t kLastWaits = 1024;
  std::array<LastWait, kLastWaits> last_wait_{};
};

// `start`: every rank's start (ns), or empty for all at 0.
template <class Counter, class Sched, class Noise, class Observer>
ScheduleRun simulate_with(const Sched& s, const ScheduleNet& net, Noise& noise, bool use_rooms,
                          EngineBuffers& buffers, Observer& observer,
                          std::span<const double> start = {}) {
  using Run = EngineRun<Counter, Sched, Noise, Observer>;
  if constexpr (Observer::kActive) observer.begin(s.ranks(), s.cpus(), s.nics());
  buffers.reset();
  std::vector<double> extra(Run::extra_doubles(s), 0.0);
  const std::unique_ptr<MessageNetwork> network =
      net.contention ? net.contention->start_run(s.ranks()) : nullptr;
  Run run(s, net, noise, use_rooms, buffers, observer, extra, network.get());
  if (!start.empty()) run.start_at(start);
  StopPoll setup;
  run.begin_start_round(run.count_dependencies(setup));
  run.run_events();
  return run.result();
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
                              ScheduleEngineMemory& memory, Observer& observer,
                              std::span<const double> start) {
  using namespace schedule_detail;
  if (s.ranks() > kMaxScheduleRanks)
    throw InputError(
        fmt::format("a schedule of {} ranks: the engine takes at most 2^30", s.ranks()));
  // A background job's ranks (after the timed ones) may be left out: they start at 0.
  if (!start.empty() && start.size() != s.ranks() && start.size() != s.timed_ranks())
    throw InputError(
        fmt::format("{} start times for a schedule of {} ranks", start.size(), s.ranks()));
  for (const double t : start)
    if (!(t >= 0.0) || !std::isfinite(t))
      throw InputError(fmt::format("a rank's start time of {} ns: starts are finite and >= 0", t));
  if (net.classes && !net.classes->switches.covers(s.ranks()))
    throw InputError(fmt::format("{}: it lists {} ranks, and the schedule has {}",
                                 net.classes->switches.rule, net.classes->switches.switch_of.size(),
                                 s.ranks()));
  std::uint32_t most = 0;
  StopPoll poll;
  for (std::uint32_t host = 0; host < s.ranks(); ++host) {
    const auto v = s.view(host);
    poll.tick(v.count() + std::uint64_t{1});
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
      most = std::max(most, v.dependencies(op));
  }
  // Messages polled by a shared network are queued again as LogGOPSim does: no rooms.
  const bool rooms = s.cpus() == 1 && s.nics() == 1 && !net.contention;
  EngineBuffers& buffers = memory.buffers();
  if (most < 0xff)
    return simulate_with<std::uint8_t>(s, net, noise, rooms, buffers, observer, start);
  if (most < 0xffff)
    return simulate_with<std::uint16_t>(s, net, noise, rooms, buffers, observer, start);
  return simulate_with<std::uint32_t>(s, net, noise, rooms, buffers, observer, start);
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
