#pragma once
// LogGOPSim's `simple` network model (docs/models/contention.md, "LogGOPSim's simple model"),
// with its rule as its source applies it, so that a schedule on a topology gives LogGOPSim's
// times:
//
// - A message enters when its send starts, with s bytes to move, and moves 1 byte per ns
//   divided by its congestion c: the most messages on any one link of its route, itself
//   included (1 on an empty route). G plays no part (the receiver still pays its (s-1)G).
// - Progress is kept in ten-thousandths of a byte and brought up to date whenever the message
//   is touched: at each touch it moves floor((t - last) 10^4 / c) of them.
// - A message entering brings every message on its links up to date and counts on those links
//   (a message at the largest count of such a link gets a congestion one higher).
// - A message leaves only when polled with nothing left: at its arrival (o + L after its
//   send), at every later poll, and when another message enters at the instant it would have
//   left uncongested (its start + s ns). Until then it still counts on its links, even with its
//   bytes moved. On leaving it brings the messages on its links up to date, and their
//   congestion is counted again over their routes.
// - A poll of a message still in the network gives the time it would leave at congestion 1:
//   now + ceil(ten-thousandths left / 10^4); the engine polls it again then.
//
// - Background traffic (network.rho, not LogGOPSim's): a link's b background messages count on
//   it for good, as b more messages there.
//
// Where LogGOPSim's model stops (a message that left the network while its receiver was busy,
// polled again: a failed assertion or a crash), this one says the message has left, at the
// time of the poll that first found it out (the critical path's network category ends there,
// docs/models/critical-path.md): a message is kept until its receiver takes it.
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/flat_index_map.hpp"
#include "engine/network/link_load.hpp"
#include "engine/network/message_network.hpp"
#include "engine/network/topology.hpp"

namespace collnoise {

class SimpleNetwork final : public MessageNetwork {
 public:
  /// Rank r sits on endpoint endpoint_of[r], or on endpoint r when `endpoint_of` is empty;
  /// background_load[link]: the background messages on a link (empty: none). Preconditions:
  /// `topology`, `endpoint_of` and `background_load` outlive this; every rank polled is placed
  /// on one of the topology's endpoints.
  explicit SimpleNetwork(const Topology& topology, std::span<const std::uint32_t> endpoint_of = {},
                         std::span<const std::uint32_t> background_load = {});

  void start(std::uint64_t id, std::uint32_t from, std::uint32_t to, std::uint64_t bytes,
             double t) override;
  /// kLeft, or kAgain at the time it would leave at congestion 1 (never kHeld or kStale: the
  /// model asks for no wakes, and every poll holds). kLeft's `emerged` is the message's first
  /// poll (its arrival: links have no latency here), its `left` the first poll that found it out.
  NetworkPoll poll(std::uint64_t id, double t, std::uint64_t stamp) override;
  /// Forgets message `id` (it has left the links at an earlier poll).
  void taken(std::uint64_t id) override;
  bool carries_bytes() const override { return false; }
  std::span<const NetworkWake> wakes() const override { return {}; }
  void stamped(std::size_t, std::uint64_t) override {}
  void clear_wakes() override {}
  std::uint64_t repolls() const override { return repolls_; }
  /// None: a message's congestion is counted, not a rate recomputed.
  std::uint64_t recomputations() const override { return 0; }

  /// Messages looked at because another started at the instant they would leave uncongested:
  /// each once an instant, however many start then.
  std::uint64_t due_polls() const { return due_polls_; }

  /// Messages in the network (left or not, not yet taken by their receivers).
  std::size_t in_flight() const { return index_.size(); }

  /// From now on, every change of a link's count (a message entering or leaving it) is told to
  /// `listener` (null: none), with its messages' bytes as they enter: LinkLoad::messages is the
  /// count the model takes for congestion, background included; no rate, bandwidth 1 byte per
  /// ns. Precondition: `listener` outlives this network.
  void set_listener(LinkLoadListener* listener) { listener_ = listener; }

 private:
  /// Ten-thousandths of a byte: LogGOPSim's fixed point.
  static constexpr double kScale = 1e4;

  struct Flight {
    std::int64_t left = 0;  ///< ten-thousandths of a byte still to move
    double last = 0.0;      ///< when `left` was last brought up to date, ns
    std::uint32_t congestion = 1;
    bool gone = false;                 ///< it has left the links
    bool polled = false, out = false;  ///< polled once (at `arrival`); found out (at `released`)
    double arrival = 0.0, released = 0.0;  ///< ns
    /// Inline up to a fat tree's or dragonfly's longest route: kept from one message to the next
    /// of the same flight (a heap block per message was a tenth of a 2^20-rank barrier's time).
    boost::container::small_vector<LinkId, 8> route;
  };

  void advance(Flight& f, double t) const;
  void prefetch_links(const Flight& f) const;
  /// Takes flight `k` off its links at `t` (it has nothing left).
  void leave(std::uint32_t k, double t);
  /// Polls at `t` the messages that would leave at `t` uncongested (before one enters).
  void poll_due(double t);
  std::uint32_t new_flight();
  void forget(std::uint64_t id, std::uint32_t k);

  std::uint64_t endpoint(std::uint32_t rank) const {
    return endpoint_of_.empty() ? rank : endpoint_of_[rank];
  }
  /// The messages counted on `link` when `on` of ours are there.
  std::uint32_t count_on(LinkId link, std::size_t on) const {
    return static_cast<std::uint32_t>(on) + (background_.empty() ? 0 : background_[link]);
  }

  /// Tells the listener `link`'s count at `t`.
  void tell(LinkId link, double t) const;

  const Topology& topology_;
  LinkLoadListener* listener_ = nullptr;
  std::span<const std::uint32_t> endpoint_of_;
  std::span<const std::uint32_t> background_;
  std::vector<Flight> flights_;
  std::vector<std::uint32_t> free_;
  struct FlightOf {
    std::uint64_t key;     ///< the message id
    std::uint32_t flight;  ///< its flight
  };
  FlatIndexMap<FlightOf> index_;  ///< message id to its flight
  /// Flights on each link, by LinkId: flat, as every message's start and end reads its links'
  /// lists (a hash map of them took half of a 2^17-rank barrier's time), and inline for the
  /// first two (one cache miss a link, not two, and no heap block for most links).
  std::vector<boost::container::small_vector<std::uint32_t, 2>> on_link_;
  /// A message by the time it would leave uncongested (start + s), in the order of the starts.
  struct Due {
    double at = 0.0;
    std::uint64_t order = 0;
    std::uint64_t id = 0;
    bool operator>(const Due& other) const {
      return at != other.at ? at > other.at : order > other.order;
    }
  };
  std::vector<Due> due_;  ///< a heap, earliest first
  /// Those due at `due_instant_`, polled at its first start (poll_due).
  std::vector<Due> due_now_;
  double due_instant_ = -std::numeric_limits<double>::infinity();
  std::uint64_t starts_ = 0;
  std::vector<LinkId> path_;
  std::vector<std::uint32_t> touched_;  ///< the flights a leaving one leaves on its links
  std::uint64_t repolls_ = 0;
  std::uint64_t due_polls_ = 0;
};

}  // namespace collnoise
