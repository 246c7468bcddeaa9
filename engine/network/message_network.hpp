#pragma once
// A network that messages share during one run of the schedule engine (docs/models/
// contention.md): the engine tells it when each message's send starts, polls it whenever the
// message's event comes up (its arrival, a retry, or a wake the network asked for), and tells it
// when the receiver took the message. One object per run (it holds the run's messages in
// flight).
//
// Events: a message's arrival event is queued at its send; a network that needs the message
// looked at again at a time of its own (a flow that will end then) asks for a wake, which the
// engine queues as a new event with a fresh stamp (LogGOPSim's tie order: the order of first
// insertion) and names back to the network (stamped), so that a wake that no longer holds can be
// told from one that does.
#include <cstdint>
#include <span>

namespace collnoise {

/// What a poll found.
struct NetworkPoll {
  enum class Kind : std::uint8_t {
    kLeft,   ///< the message has left the network: the receiver may take it now
    kAgain,  ///< still in it: poll it again at `at` (the event is queued again, same stamp)
    kHeld,   ///< still in it, and a wake will bring it back: this event is dropped
    kStale,  ///< an event that no longer holds (a wake moved): dropped
  };
  Kind kind = Kind::kLeft;
  double at = 0.0;  ///< kAgain: when to poll again, ns
  /// kLeft: ns the bytes took after the message's arrival (a flow's transfer), which the
  /// receiver's per-byte copy overlaps; 0 for a model that does not carry the bytes.
  double transfer = 0.0;
  /// kLeft: when its first byte came out of the route's links, ns: its LogGP arrival, or later
  /// by the links' own latencies (a flow model on a dot file's `latency`). The critical path
  /// counts [arrival, emerged] as wire (docs/models/critical-path.md).
  double emerged = 0.0;
  /// kLeft: when the network first let it go, ns (the poll that found it out, or a flow's end):
  /// every later poll of it (its receiver was busy) gives the same time. [emerged, left] is the
  /// critical path's network category when it binds the receive.
  double left = 0.0;
};

/// A wake the network asks for: message `id` (from rank `from` to rank `to`) looked at again at
/// `at` ns.
struct NetworkWake {
  double at = 0.0;
  std::uint64_t id = 0;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
};

class MessageNetwork {
 public:
  virtual ~MessageNetwork() = default;

  /// Message `id` (its send's operation, unique in the run) of `bytes` bytes from rank `from`
  /// to rank `to` is sent at `t` ns. Precondition: `id` is not in flight; t is no earlier than
  /// any earlier call's.
  virtual void start(std::uint64_t id, std::uint32_t from, std::uint32_t to, std::uint64_t bytes,
                     double t) = 0;

  /// Message `id`'s event of stamp `stamp` came up at `t` ns (no earlier than any earlier
  /// call's). Its wakes, if any, are then in wakes().
  virtual NetworkPoll poll(std::uint64_t id, double t, std::uint64_t stamp) = 0;

  /// The receiver took message `id`: it is forgotten (a later event of it is stale).
  virtual void taken(std::uint64_t id) = 0;

  /// Whether the network carries the bytes (a flow model): then the sender's and the receiver's
  /// NICs are not charged (s - 1)G again, and the receiver's per-byte CPU copy overlaps the
  /// transfer (docs/models/contention.md).
  virtual bool carries_bytes() const = 0;

  /// The wakes asked for since the last clear_wakes(), in the order to queue them.
  virtual std::span<const NetworkWake> wakes() const = 0;
  /// The engine queued wake `k` of wakes() with stamp `stamp`.
  virtual void stamped(std::size_t k, std::uint64_t stamp) = 0;
  virtual void clear_wakes() = 0;

  /// Cache hints, no effect on any result: message `id`'s event comes up a few events from now
  /// (far: fetch what finds its state; near, later: fetch that state).
  virtual void fetch_far(std::uint64_t /*id*/) const {}
  virtual void fetch_near(std::uint64_t /*id*/) const {}

  /// Polls that found a message still in the network, so far (each queued it again).
  virtual std::uint64_t repolls() const = 0;
  /// Recomputations of the messages' rates so far (a model that keeps none: 0).
  virtual std::uint64_t recomputations() const = 0;
};

}  // namespace collnoise
