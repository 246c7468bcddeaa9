#pragma once
// The load of a network's links over one run (docs/timelines.md, "Link load"; docs/models/
// contention.md): a shared network (simple_network.hpp, flow_network.hpp) tells a listener, for
// each link whose load changes, its new load and when; LinkLoadRecorder keeps per link what a
// user asks of its busiest links, and the load's step function over time for the links chosen.
//
// What a link's load is:
// - simple model: the messages counted on it (ours from their send's start until they leave
//   the network, and its background messages for good), as the model counts them for a
//   message's congestion; no rate (the model moves a message at 1 byte per ns over its
//   congestion, not at a rate of the link's).
// - flow model: the flows on it (ours from their first byte's arrival to their last byte's, and
//   its background flows for good) and the sum of our flows' max-min rates through it, bytes per
//   ns, against its bandwidth (the background's share is left to it and not summed).
//
// A run without a listener pays a null pointer check where the network would tell it.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/network/topology.hpp"

namespace collnoise {

/// A link's load from an instant on.
struct LinkLoad {
  std::uint32_t messages = 0;    ///< on it: ours and the background's
  std::uint32_t background = 0;  ///< of them, the background's (the same all run)
  double rate = 0.0;             ///< flow model: our flows' rates summed, bytes per ns; else 0
  /// Bytes per ns the link carries at most: its bandwidth under the flow model; 1 under the
  /// simple model (a message alone moves 1 byte per ns).
  double bandwidth = 1.0;
};

/// What a network tells of its links. Calls come in time order (ns, never earlier than an earlier
/// call's); several at one instant leave the last one's load.
class LinkLoadListener {
 public:
  virtual ~LinkLoadListener() = default;
  /// `link`'s load is `load` from `t` ns on.
  virtual void load(LinkId link, double t, const LinkLoad& load) = 0;
  /// One of our messages enters `link` with `bytes` to move across it (simple model: its s
  /// bytes; flow model: the s - 1 that flow after its first, which crosses in the latency).
  virtual void carried(LinkId link, std::uint64_t bytes) = 0;
};

/// One change point of a link's load: from `t` ns on, until the next one (or the run's end).
struct LinkStep {
  double t = 0.0;
  std::uint32_t messages = 0;
  double rate = 0.0;
  bool operator==(const LinkStep&) const = default;
};

/// What a run did to one link, over [0, completion]. Loads count from 0 (the background's from
/// the start) and only loads that held for some time count: several changes at one instant give
/// the last one.
struct LinkLoadStats {
  LinkId link = 0;
  std::uint64_t bytes = 0;         ///< our messages' bytes it carried (LinkLoadListener::carried)
  double busy_ns = 0.0;            ///< time with at least one of our messages on it
  double mean_messages = 0.0;      ///< time-weighted mean of LinkLoad::messages over the run
  std::uint32_t max_messages = 0;  ///< the largest LinkLoad::messages that held for a while
  double mean_rate = 0.0;          ///< time-weighted mean of LinkLoad::rate, bytes per ns
  double max_rate = 0.0;           ///< the largest LinkLoad::rate that held for a while
  double bandwidth = 1.0;          ///< LinkLoad::bandwidth, bytes per ns
  double utilisation = 0.0;        ///< bytes / (bandwidth x completion); 0 for completion 0
  std::uint32_t background = 0;    ///< LinkLoad::background
  std::vector<LinkStep> steps;     ///< traced links: the change points, from 0, increasing t
  /// Traced links: `steps` describe the load over [0, steps_end_ns): the completion, or, when
  /// the link had more change points than the bound, the first one not kept.
  double steps_end_ns = 0.0;
  bool steps_truncated = false;  ///< more change points than the bound: `steps` stops early
};

/// What a link's load is under each model, in one line, for the files that hold it.
inline constexpr const char* kSimpleLinkLoadRule =
    "simple model: the messages counted on the link as the model counts them for congestion "
    "(ours from their send's start until they leave the network, the background's for good); "
    "bytes carried are our messages' s bytes; bandwidth 1 byte per ns (a message alone moves "
    "at 1 byte per ns); no rate";
inline constexpr const char* kFlowLinkLoadRule =
    "flow model: the flows on the link (ours from their first byte's arrival to their last "
    "byte's, the background's for good) and our flows' max-min rates summed, bytes per ns; "
    "bytes carried are our messages' s - 1 bytes that flow after the first; bandwidth the "
    "link's";

/// The ranking of links, busiest first: by bytes carried, more first; ties by link id, lower
/// first.
inline constexpr const char* kLinkRankingRule =
    "by bytes carried, more first; ties by link number, lower first";

/// The listener that keeps every link's statistics, and the step function of the links it
/// traces. Holds a few dozen bytes per link of the topology, and per traced link its change
/// points up to `max_steps` (the first `max_steps` are kept; a link with more says so and its
/// statistics still cover the whole run). One run: its results depend on the run alone.
class LinkLoadRecorder final : public LinkLoadListener {
 public:
  static constexpr std::size_t kDefaultMaxSteps = std::size_t{1} << 16;

  /// Links are numbered below `link_id_bound` (Topology::link_id_bound); `traced`: the links
  /// whose step function to keep (each below the bound). Precondition: max_steps >= 1.
  LinkLoadRecorder(std::uint64_t link_id_bound, std::span<const LinkId> traced,
                   std::size_t max_steps = kDefaultMaxSteps);

  void load(LinkId link, double t, const LinkLoad& load) override;
  void carried(LinkId link, std::uint64_t bytes) override;

  /// Every link one of our messages was on, busiest first (kLinkRankingRule), with the loads
  /// held until `completion_ns` (no earlier than any call's time). Links never told of are not
  /// listed.
  std::vector<LinkLoadStats> result(double completion_ns) const;

  /// The bytes a recorder and its result hold at most for `link_id_bound` links, `traced` of
  /// them traced: what a replay checks against the memory limit before it starts.
  static double bytes(std::uint64_t link_id_bound, std::size_t traced, std::size_t max_steps);

 private:
  struct State {
    bool seen = false;
    bool traced = false;
    bool truncated = false;
    bool ours_ever = false;  ///< one of our messages was on it
    LinkLoad now;
    double since = 0.0;  ///< when `now` began
    std::uint64_t bytes = 0;
    double busy = 0.0, messages_area = 0.0, rate_area = 0.0, max_rate = 0.0;
    std::uint32_t max_messages = 0;
    double truncated_at = 0.0;  ///< the first change point not kept
    std::uint32_t trace = 0;    ///< its place in traces_, when traced
  };
  /// `s`'s load `now` has held from `since` to `t`: counted, and its change point kept in
  /// `steps` (traced links; else null) up to the bound.
  void hold(State& s, double t, std::vector<LinkStep>* steps) const;

  std::vector<State> links_;
  std::vector<std::vector<LinkStep>> traces_;
  std::size_t max_steps_;
};

/// bytes / (bandwidth x completion_ns): the share of what the link could have carried over the
/// run that it carried; 0 when completion_ns is 0.
double link_utilisation(std::uint64_t bytes, double bandwidth, double completion_ns);

/// The K busiest of `all` (result()'s order), or all of them when fewer.
std::span<const LinkLoadStats> busiest_links(std::span<const LinkLoadStats> all, std::size_t k);

}  // namespace collnoise
