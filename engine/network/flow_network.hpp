#pragma once
// The flow model of contention (docs/models/contention.md, "Flows sharing bandwidth"): each
// message's bytes are a flow that shares the bandwidth of every link on its route with the
// other flows there, max-min fairly (progressive filling: the link with the least bandwidth per
// flow fixes its flows' rate, which is taken from the other links of their routes, and so on),
// the rates recomputed when a flow starts or ends, over the flows that share links with it,
// directly or through others (its component), and only those.
//
// - A message of s bytes is sent at t and arrives (its first byte) at A = t + o + L, as without
//   contention. Its other s - 1 bytes then flow: the flow starts at A and ends when they have
//   moved, at F. The receiver takes the message at F (or when free), pays o + max((s-1)O -
//   (F - A), 0) on its CPU (the copy overlaps the transfer) and g on its NIC; the sender's NIC
//   pays g. Alone on its route at rate 1/G: F = A + (s-1)G, and the receiver finishes at
//   A + o + max((s-1)O, (s-1)G), as LogGOPSim charges it.
// - Every link carries `bytes_per_ns` (the NIC's 1/G unless given), or the topology's own
//   bandwidth of it (a dot file's `bandwidth`). A message between ranks of one endpoint (an
//   empty route) moves alone at `bytes_per_ns`.
// - A route's links with latencies of their own (a dot file's `latency`, ns) delay the first
//   byte by their sum after A: the flow starts then (A is that time in what follows).
// - Background traffic (network.rho): b background messages on a link are b more flows there
//   that never end and cross that link only (they are bottlenecked nowhere else), so a link of
//   bandwidth c with n flows of ours and b of the background gives each at most c / (n + b).
//   A message then never moves slower than the round model's 1 / (load) of the same link.
// - Rates change only when a flow starts or ends; each flow whose end moves asks the engine for a
//   wake at its new end (engine/network/message_network.hpp); the wake of a flow that still ends
//   then ends it, and frees its share for the others.
// - The flows that start or end at one instant are recomputed together, once: the first of
//   them asks for a wake at that instant (queued after every event already due then, LogGOPSim's
//   tie order), which recomputes the components of all of them. Rates that would have held for
//   no time are never set; the rates after the instant are the same.
// - Two shortcuts that change no rate: a flow that starts on links no other flow of ours moves on
//   takes its rate at once, the least share of its links (max-min leaves every other flow where
//   it was; one that joins it at the same instant recomputes it with the rest, and its first
//   wake comes up stale); and a link that carries one flow of a component is that flow's cap, not
//   a constraint the progressive filling walks.
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <span>
#include <vector>

#include "core/flat_index_map.hpp"
#include "engine/network/link_load.hpp"
#include "engine/network/message_network.hpp"
#include "engine/network/topology.hpp"

namespace collnoise {

class FlowNetwork final : public MessageNetwork {
 public:
  /// Rank r on endpoint endpoint_of[r] (r when empty); every link carries `bytes_per_ns` > 0;
  /// background_load[link]: the background messages on a link (empty: none). Preconditions:
  /// `topology` and `endpoint_of` outlive this.
  FlowNetwork(const Topology& topology, std::span<const std::uint32_t> endpoint_of,
              double bytes_per_ns, std::span<const std::uint32_t> background_load = {});
  /// Tells the listener the ends it has not yet been told of (set_listener).
  ~FlowNetwork() override;

  void start(std::uint64_t id, std::uint32_t from, std::uint32_t to, std::uint64_t bytes,
             double t) override;
  NetworkPoll poll(std::uint64_t id, double t, std::uint64_t stamp) override;
  void taken(std::uint64_t id) override;
  bool carries_bytes() const override { return true; }
  void fetch_far(std::uint64_t id) const override { index_.prefetch(id); }
  void fetch_near(std::uint64_t id) const override;
  std::span<const NetworkWake> wakes() const override { return wakes_; }
  void stamped(std::size_t k, std::uint64_t stamp) override;
  void clear_wakes() override;
  /// Wakes asked for that came up after their flow's end had moved (each a stale event).
  std::uint64_t repolls() const override { return stale_; }

  /// Rate recomputations so far, and the flows they took in all.
  std::uint64_t recomputations() const override { return recomputations_; }
  std::uint64_t flows_recomputed() const { return flows_recomputed_; }

  /// From now on, every change of a link's load is told to `listener` (null: none): its flows
  /// (ours from their first rate to their end, the background's for good) and our flows' rates
  /// summed, against its bandwidth; each flow's s - 1 bytes as it starts to flow. A flow's end
  /// is told at the first rate set after it, or when this network is destroyed, with its own
  /// time. Precondition: `listener` outlives this network; set before the first start.
  void set_listener(LinkLoadListener* listener);

 private:
  /// kSent until its LogGP arrival; kHops while its first byte crosses the links' own latencies
  /// (a dot file's `latency`); kMoving while its other bytes flow; kDone once out.
  enum class State : std::uint8_t { kSent, kHops, kMoving, kDone };
  /// Laid out for the recomputations, which walk the routes of their flows and the flows of
  /// those links: a flow's search mark, its place and its inline route fill its first cache line,
  /// its rate and times the second.
  struct alignas(64) Flow {
    std::uint32_t mark = 0;   ///< the component search that last met it
    std::uint32_t place = 0;  ///< its place in the component that search gathered
    /// Inline up to a fat tree's or dragonfly's longest route: every recomputation walks the
    /// routes of its flows, which a heap block each scattered over memory.
    boost::container::small_vector<LinkId, 8> route;
    State state = State::kSent;
    bool routed = false;  ///< `route` holds its route
    std::uint32_t from = 0, to = 0;
    double left = 0.0;  ///< bytes still to move at `last`
    double last = 0.0;
    double rate = 0.0;    ///< bytes per ns; 0 before the first recomputation
    double finish = 0.0;  ///< F, ns (when kMoving: the end at the current rate)
    std::uint64_t id = 0;
    std::uint64_t wake_stamp = ~std::uint64_t{0};
    std::uint64_t bytes = 0;
    double arrival = 0.0;  ///< A, ns
    std::uint64_t arrival_stamp = 0;
  };
  /// A link's moving flows of ours, its background and bandwidth, and its place among the links
  /// of the component being recomputed (valid when its mark is the search's): one cache line,
  /// read by every flow event that crosses the link.
  struct alignas(64) LinkState {
    std::uint32_t mark = 0;
    std::uint32_t slot = 0;
    std::uint32_t background = 0;  ///< background messages on it, for good
    double bandwidth = 0.0;        ///< bytes per ns
    boost::container::small_vector<std::uint32_t, 4> flows;
    /// The most a flow of ours alone on it moves at, bytes per ns: the background takes the rest.
    double cap() const { return bandwidth / (1.0 + background); }
  };

  std::uint64_t endpoint(std::uint32_t rank) const {
    return endpoint_of_.empty() ? rank : endpoint_of_[rank];
  }
  /// Marks wake_flow_ entries of the instant's recomputation.
  static constexpr std::uint32_t kBatchWake = ~std::uint32_t{0};

  NetworkPoll arrive(std::uint32_t k, double t, std::uint64_t stamp);
  /// Its first byte out of the route's hops at `t`: the others start to flow.
  NetworkPoll emerge(std::uint32_t k, double t);
  void find_route(Flow& f);
  /// Flow `k`'s rate is to be recomputed at `t` with the instant's others (its wake asked for).
  void batch(std::uint32_t k, double t);
  /// The instant's recomputation, at its wake.
  void run_batch(double t);
  NetworkPoll end(std::uint32_t k, double t);
  /// The flows moving on links shared, directly or through others, with those of `seeds`.
  void gather_component(std::span<const std::uint32_t> seeds);
  /// A fresh mark for a component search (the marks start again from 1 when they wrap).
  void next_search();
  /// The rate of a flow alone among ours: its most crowded link's share, with its background.
  double alone_rate(const Flow& f) const;
  /// Fetches the states of `f`'s links into the cache at once, not one miss after another.
  void prefetch_links(const Flow& f) const;
  /// Whether no other flow of ours moves on any link of `f`'s route.
  bool alone(const Flow& f) const;
  /// Max-min rates of the gathered component at `t`; wakes for the flows whose end moved.
  void recompute(double t);
  void fill_rates();
  /// Up to this many constraints, fill_rates finds the least share by looking at each.
  static constexpr std::size_t kScannedConstraints = 64;
  void fill_by_scan();
  void fill_by_heap();
  /// Fixes flow `g` at `share` (the least, of constraint `s`) and takes it from its other shared
  /// links; with `queue`, each of them whose share moved is queued again on the heap.
  void fix_flow(std::uint32_t g, double share, std::uint32_t s, bool queue);
  /// fill_rates' constraints: the component's shared links and each flow's cap.
  void gather_links();
  void set_rate(std::uint32_t k, double rate, double t);
  /// The listener's side of set_rate: flow `k` takes its new rate at `t` (to end at `finish`).
  void tell_rate(std::uint32_t k, double t, double finish);
  /// Tells the listener every flow that has ended by `t` (its end at its own time).
  void tell_ends(double t);
  /// Tells the listener `link`'s load at `t`, as the bookkeeping holds it.
  void tell_link(LinkId link, double t) const;

  const Topology& topology_;
  std::span<const std::uint32_t> endpoint_of_;
  double rate_;
  std::vector<Flow> flows_;
  std::vector<std::uint32_t> free_;
  struct FlowOf {
    std::uint64_t key;   ///< the message id
    std::uint32_t flow;  ///< its flow
  };
  FlatIndexMap<FlowOf> index_;  ///< message id to its flow
  std::vector<LinkState> links_state_;
  std::vector<LinkId> path_;
  std::vector<NetworkWake> wakes_;
  std::vector<std::uint32_t> wake_flow_;  ///< the flow of each wake
  // The component being recomputed, and the progressive filling's work space.
  std::vector<std::uint32_t> component_;
  std::vector<std::uint32_t> batch_seeds_;  ///< the flows the instant's recomputation starts from
  bool batch_pending_ = false;
  std::uint64_t batch_stamp_ = 0;
  std::vector<LinkId> links_;
  std::vector<double> residual_;
  std::vector<std::uint32_t> unfixed_;  ///< a link's flows not yet fixed, background included
  std::vector<std::uint32_t> ours_;     ///< of them, the messages' (the background never fixes)
  std::vector<double> new_rate_;
  std::vector<double> cap_;  ///< a flow's least share on the links it alone of ours crosses
  std::vector<std::pair<double, std::uint32_t>> heap_;
  std::size_t unfixed_flows_ = 0;  ///< the filling's flows not yet fixed
  std::uint32_t search_ = 0;
  std::uint64_t stale_ = 0, recomputations_ = 0, flows_recomputed_ = 0;

  // The listener's bookkeeping (set_listener; empty without one): per flow what it was told,
  // per link our flows told on it and their rates summed, and the ends to tell, earliest first.
  struct Told {
    std::uint64_t id = 0;
    bool on = false;  ///< counted on its links
    double rate = 0.0;
    double finish = 0.0;
    std::vector<LinkId> route;  ///< (kept: taken() clears the flow's)
  };
  struct ToldEnd {
    double finish = 0.0;
    std::uint64_t id = 0;
    std::uint32_t flow = 0;
  };
  LinkLoadListener* listener_ = nullptr;
  std::vector<Told> told_;
  std::vector<std::uint32_t> told_flows_;
  std::vector<double> told_rate_;
  std::vector<ToldEnd> told_ends_;  ///< a heap, earliest first
  std::vector<ToldEnd> told_due_;   ///< tell_ends' work space: due, not yet ended
};

}  // namespace collnoise
