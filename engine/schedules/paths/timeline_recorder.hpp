#pragma once
// The timeline of one replayed schedule sample (core/timeline.hpp, docs/timelines.md): an engine
// observer (engine/schedules/engine/engine_observer.hpp) that keeps every CPU and NIC occupation of
// the chosen ranks, with the noise inside it, and every message with an end among them. Its times
// are the engine's, so they equal the sample's in the run.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/timeline.hpp"
#include "engine/schedules/engine/engine_observer.hpp"
#include "engine/schedules/paths/critical_path.hpp"

namespace collnoise {

class TimelineRecorder {
 public:
  static constexpr bool kActive = true;

  /// `ranks`: the chosen ranks, strictly increasing.
  explicit TimelineRecorder(std::vector<std::uint32_t> ranks);

  void begin(std::uint32_t ranks, std::uint32_t cpus, std::uint32_t nics);
  void calc(const CalcSeen& c);
  void send(const SendSeen& s);
  void message(const MessageSeen& m);
  void receive(const ReceiveSeen&) {}
  void rendezvous(const RendezvousSeen& r);

  /// The timeline within [window_start, window_end) ns (window_end infinite: to the end), its
  /// spans and messages on `path` marked critical. `path` must hold its segments.
  Timeline result(const CriticalPath& path, double window_start, double window_end,
                  std::string title) const;

 private:
  bool chosen(std::uint32_t rank) const { return rank < chosen_.size() && chosen_[rank] != 0; }
  /// The work of one operation on a lane, and the noise after its own part, nested in it.
  void occupy(std::uint32_t rank, TimelineLane lane, std::uint8_t index, SpanKind kind,
              std::uint64_t op, double start, double work, double end);

  std::vector<std::uint32_t> ranks_;
  std::vector<char> chosen_;
  std::uint32_t ranks_total_ = 0;
  std::vector<TimelineSpan> spans_;
  std::vector<TimelineMessage> messages_;
  /// When each chosen rank's CPUs were last freed by an operation (for rendezvous waits).
  std::unordered_map<std::uint64_t, double> cpu_free_;
  /// The index within its rank of each send whose message a chosen rank receives, or whose
  /// rendezvous a chosen rank waits for.
  std::unordered_map<std::uint64_t, std::uint64_t> send_index_;
  /// Each message's place in messages_ by its send, until its receiver takes it.
  std::unordered_map<std::uint64_t, std::size_t> message_at_;
};

/// Observes with both `a` and `b`.
template <class A, class B>
struct BothObservers {
  static constexpr bool kActive = true;
  A& a;
  B& b;
  void begin(std::uint32_t r, std::uint32_t c, std::uint32_t n) {
    a.begin(r, c, n), b.begin(r, c, n);
  }
  void calc(const CalcSeen& x) { a.calc(x), b.calc(x); }
  void send(const SendSeen& x) { a.send(x), b.send(x); }
  void message(const MessageSeen& x) { a.message(x), b.message(x); }
  void receive(const ReceiveSeen& x) { a.receive(x), b.receive(x); }
  void rendezvous(const RendezvousSeen& x) { a.rendezvous(x), b.rendezvous(x); }
  void fetch_far(const AheadSeen& x) {
    if constexpr (requires { a.fetch_far(x); }) a.fetch_far(x);
    if constexpr (requires { b.fetch_far(x); }) b.fetch_far(x);
  }
  void fetch_near(const AheadSeen& x) {
    if constexpr (requires { a.fetch_near(x); }) a.fetch_near(x);
    if constexpr (requires { b.fetch_near(x); }) b.fetch_near(x);
  }
};

}  // namespace collnoise
