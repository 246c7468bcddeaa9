#pragma once
// A network that messages share during one run of the schedule engine (docs/models/
// contention.md): the engine tells it when each message enters, and asks it, when the message
// would arrive, whether it has left. One object per run (it holds the run's messages in flight).
#include <cstdint>

namespace collnoise {

class MessageNetwork {
 public:
  virtual ~MessageNetwork() = default;

  /// Message `id` (its send's operation, unique in the run) of `bytes` bytes from rank `from`
  /// to rank `to` enters the network at `t` ns (when its send starts, as LogGOPSim inserts it).
  /// Precondition: `id` is not in flight; t is no earlier than any earlier call's.
  virtual void start(std::uint64_t id, std::uint32_t from, std::uint32_t to, std::uint64_t bytes,
                     double t) = 0;

  /// Polled at `t` ns (no earlier than any earlier call's) for message `id`: `t` if it has left
  /// the network (then it is forgotten: a later poll of `id` gives its `t` too), else a time
  /// after `t` at which to poll it again (never later than it can leave).
  virtual double poll(std::uint64_t id, double t) = 0;

  /// Polls that found a message still in the network, so far (the engine queued it again).
  virtual std::uint64_t repolls() const = 0;
};

}  // namespace collnoise
