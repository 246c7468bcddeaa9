#include "engine/network/flow_network.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <utility>

namespace collnoise {
namespace {

NetworkPoll stale_poll() {
  return {.kind = NetworkPoll::Kind::kStale};
}

// A flow out of the network: its first byte came out of the route's links at its `arrival`
// (that of a flow) and its last at `finish`; a one-byte message's are the same instant.
NetworkPoll left_poll(double arrival, double finish) {
  return {.kind = NetworkPoll::Kind::kLeft,
          .transfer = finish - arrival,
          .emerged = arrival,
          .left = finish};
}

}  // namespace

FlowNetwork::FlowNetwork(const Topology& topology, std::span<const std::uint32_t> endpoint_of,
                         double bytes_per_ns, std::span<const std::uint32_t> background_load)
    : topology_(topology),
      endpoint_of_(endpoint_of),
      background_(background_load),
      rate_(bytes_per_ns),
      on_link_(topology.link_id_bound()),
      link_slot_(topology.link_id_bound(), 0),
      link_mark_(topology.link_id_bound(), 0),
      path_(static_cast<std::size_t>(std::max(topology.diameter(), 1))) {}

FlowNetwork::~FlowNetwork() {
  if (listener_ != nullptr) tell_ends(std::numeric_limits<double>::infinity());
}

void FlowNetwork::set_listener(LinkLoadListener* listener) {
  listener_ = listener;
  told_flows_.assign(listener == nullptr ? 0 : topology_.link_id_bound(), 0);
  told_rate_.assign(told_flows_.size(), 0.0);
}

void FlowNetwork::start(std::uint64_t id, std::uint32_t from, std::uint32_t to, std::uint64_t bytes,
                        double) {
  std::uint32_t k = 0;
  if (!free_.empty()) {
    k = free_.back();
    free_.pop_back();
  } else {
    k = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
  }
  Flow& f = flows_[k];
  f.route.clear();  // (its storage kept)
  f.routed = false;
  f.id = id;
  f.from = from;
  f.to = to;
  f.bytes = bytes;
  f.state = State::kSent;
  f.arrival = f.left = f.last = f.rate = f.finish = 0.0;
  f.arrival_stamp = 0;
  f.wake_stamp = ~std::uint64_t{0};
  index_.insert(FlowOf{.key = id, .flow = k});
}

NetworkPoll FlowNetwork::poll(std::uint64_t id, double t, std::uint64_t stamp) {
  if (batch_pending_ && stamp == batch_stamp_) {
    // The instant's recomputation, carried by one of its messages' ids: that message's own
    // events are others, this one is dropped.
    run_batch(t);
    return {.kind = NetworkPoll::Kind::kHeld};
  }
  const FlowOf* at = index_.find(id);
  if (at == nullptr) {
    ++stale_;
    return stale_poll();
  }
  const std::uint32_t k = at->flow;
  Flow& f = flows_[k];
  switch (f.state) {
    case State::kSent:
      return arrive(k, t, stamp);
    case State::kHops:
      if (stamp == f.wake_stamp) return emerge(k, t);
      break;
    case State::kMoving:
      if (stamp == f.wake_stamp) return end(k, t);
      break;
    case State::kDone:
      // The event that found it done, queued again while the receiver was busy.
      if (stamp == f.arrival_stamp || stamp == f.wake_stamp) return left_poll(f.arrival, f.finish);
      break;
  }
  ++stale_;
  return stale_poll();
}

void FlowNetwork::find_route(Flow& f) {
  if (f.routed) return;
  const std::size_t hops = topology_.route(endpoint(f.from), endpoint(f.to), path_);
  f.route.assign(path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(hops));
  f.routed = true;
}

NetworkPoll FlowNetwork::arrive(std::uint32_t k, double t, std::uint64_t stamp) {
  Flow& f = flows_[k];
  f.arrival_stamp = stamp;
  if (topology_.has_link_latencies()) {
    find_route(f);
    double hops = 0.0;
    for (const LinkId link : f.route) hops += topology_.link_latency(link).value_or(0.0);
    if (hops > 0.0) {
      // Its first byte still crosses the links: back at its end of them.
      f.state = State::kHops;
      wakes_.push_back(NetworkWake{.at = t + hops, .id = f.id, .from = f.from, .to = f.to});
      wake_flow_.push_back(k);
      return {.kind = NetworkPoll::Kind::kHeld};
    }
  }
  return emerge(k, t);
}

NetworkPoll FlowNetwork::emerge(std::uint32_t k, double t) {
  Flow& f = flows_[k];
  f.arrival = t;
  if (f.bytes <= 1) {  // the first byte was the message
    f.state = State::kDone;
    f.finish = t;
    return left_poll(f.arrival, f.finish);
  }
  find_route(f);
  f.state = State::kMoving;
  f.left = static_cast<double>(f.bytes - 1);
  f.last = t;
  f.finish = std::numeric_limits<double>::infinity();
  if (f.route.empty()) {  // between ranks of one endpoint: alone
    set_rate(k, rate_, t);
    return {.kind = NetworkPoll::Kind::kHeld};
  }
  for (const LinkId link : f.route) on_link_[link].push_back(k);
  batch(k, t);
  return {.kind = NetworkPoll::Kind::kHeld};
}

NetworkPoll FlowNetwork::end(std::uint32_t k, double t) {
  Flow& f = flows_[k];
  f.state = State::kDone;
  f.left = 0.0;
  f.finish = t;
  for (const LinkId link : f.route) {
    std::vector<std::uint32_t>& on = on_link_[link];
    on.erase(std::find(on.begin(), on.end(), k));
    for (const std::uint32_t g : on) batch(g, t);
  }
  return left_poll(f.arrival, f.finish);
}

void FlowNetwork::taken(std::uint64_t id) {
  FlowOf* at = index_.find(id);
  if (at == nullptr) return;
  flows_[at->flow].route.clear();
  free_.push_back(at->flow);
  index_.erase(at);
}

void FlowNetwork::batch(std::uint32_t k, double t) {
  batch_seeds_.push_back(k);
  if (batch_pending_) return;
  // One wake at this instant, after every event already queued for it (a fresh stamp), carries
  // the recomputation of all the flows that start or lose a neighbour until then: the flows of
  // one round that start together are recomputed once, not once each.
  batch_pending_ = true;
  const Flow& f = flows_[k];
  wakes_.push_back(NetworkWake{.at = t, .id = f.id, .from = f.from, .to = f.to});
  wake_flow_.push_back(kBatchWake);
}

void FlowNetwork::run_batch(double t) {
  batch_pending_ = false;
  // Seeds that ended since (at this instant) have left the links: the others seed the search.
  std::erase_if(batch_seeds_, [&](std::uint32_t k) { return flows_[k].state != State::kMoving; });
  if (!batch_seeds_.empty()) {
    gather_component(batch_seeds_);
    recompute(t);
  }
  batch_seeds_.clear();
}

void FlowNetwork::gather_component(std::span<const std::uint32_t> seeds) {
  ++search_;
  component_.clear();
  const auto meet = [&](std::uint32_t k) {
    flows_[k].mark = search_;
    flows_[k].place = static_cast<std::uint32_t>(component_.size());
    component_.push_back(k);
  };
  for (const std::uint32_t k : seeds)
    if (flows_[k].mark != search_) meet(k);
  // Breadth first over shared links: the order, like the links' lists, follows the events.
  for (std::size_t i = 0; i < component_.size(); ++i)
    for (const LinkId link : flows_[component_[i]].route)
      for (const std::uint32_t g : on_link_[link])
        if (flows_[g].mark != search_) meet(g);
}

void FlowNetwork::recompute(double t) {
  ++recomputations_;
  flows_recomputed_ += component_.size();
  if (component_.size() == 1) {
    // Alone among ours: its most crowded link's share, with that link's background.
    const std::uint32_t k = component_[0];
    double rate = std::numeric_limits<double>::infinity();
    for (const LinkId link : flows_[k].route)
      rate = std::min(rate, topology_.link_bandwidth(link).value_or(rate_) /
                                (1.0 + (background_.empty() ? 0.0 : background_[link])));
    set_rate(k, rate, t);
    return;
  }
  fill_rates();
  for (std::size_t i = 0; i < component_.size(); ++i) set_rate(component_[i], new_rate_[i], t);
}

void FlowNetwork::fill_rates() {
  links_.clear();
  residual_.clear();
  unfixed_.clear();
  ours_.clear();
  for (const std::uint32_t k : component_)
    for (const LinkId link : flows_[k].route) {
      if (link_mark_[link] != search_) {
        link_mark_[link] = search_;
        link_slot_[link] = static_cast<std::uint32_t>(links_.size());
        links_.push_back(link);
        residual_.push_back(topology_.link_bandwidth(link).value_or(rate_));
        // The link's background flows count as unfixed for good: they take its share.
        unfixed_.push_back(background_.empty() ? 0 : background_[link]);
        ours_.push_back(0);
      }
      ++ours_[link_slot_[link]];
      ++unfixed_[link_slot_[link]];
    }
  new_rate_.assign(component_.size(), -1.0);
  // Progressive filling: the link of the least share fixes its flows at it. A link's share only
  // grows as others fix their flows (they take at most its share), so an entry whose share has
  // moved is stale: a newer one is queued.
  heap_.clear();
  const auto later = std::greater<>();
  for (std::uint32_t s = 0; s < links_.size(); ++s)
    heap_.emplace_back(residual_[s] / unfixed_[s], s);
  std::make_heap(heap_.begin(), heap_.end(), later);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const auto [share, s] = heap_.back();
    heap_.pop_back();
    if (ours_[s] == 0 || share != residual_[s] / unfixed_[s]) continue;
    for (const std::uint32_t g : on_link_[links_[s]]) {
      double& rate = new_rate_[flows_[g].place];
      if (rate >= 0.0) continue;
      rate = share;
      for (const LinkId link : flows_[g].route) {
        const std::uint32_t other = link_slot_[link];
        residual_[other] = std::max(residual_[other] - share, 0.0);
        --unfixed_[other];
        if (--ours_[other] > 0 && other != s) {
          heap_.emplace_back(residual_[other] / unfixed_[other], other);
          std::push_heap(heap_.begin(), heap_.end(), later);
        }
      }
    }
  }
}

void FlowNetwork::set_rate(std::uint32_t k, double rate, double t) {
  Flow& f = flows_[k];
  if (rate == f.rate) return;  // its end stays where it was
  f.left = std::max(f.left - f.rate * (t - f.last), 0.0);
  f.last = t;
  f.rate = rate;
  const double finish = t + f.left / rate;
  if (listener_ != nullptr) [[unlikely]]
    tell_rate(k, t, finish);
  if (finish == f.finish) return;
  f.finish = finish;
  wakes_.push_back(NetworkWake{.at = finish, .id = f.id, .from = f.from, .to = f.to});
  wake_flow_.push_back(k);
}

void FlowNetwork::tell_link(LinkId link, double t) const {
  const std::uint32_t background = background_.empty() ? 0 : background_[link];
  listener_->load(link, t,
                  LinkLoad{.messages = told_flows_[link] + background,
                           .background = background,
                           .rate = told_rate_[link],
                           .bandwidth = topology_.link_bandwidth(link).value_or(rate_)});
}

void FlowNetwork::tell_rate(std::uint32_t k, double t, double finish) {
  tell_ends(t);
  const Flow& f = flows_[k];
  if (f.route.empty()) return;  // between ranks of one endpoint: on no link
  if (told_.size() < flows_.size()) told_.resize(flows_.size());
  Told& told = told_[k];
  if (!told.on || told.id != f.id) {  // its first rate: it starts to flow on its links
    told = Told{.id = f.id,
                .on = true,
                .rate = 0.0,
                .finish = 0.0,
                .route = std::vector<LinkId>(f.route.begin(), f.route.end())};
    for (const LinkId link : told.route) {
      ++told_flows_[link];
      listener_->carried(link, f.bytes - 1);
    }
  }
  for (const LinkId link : told.route) {
    told_rate_[link] += f.rate - told.rate;
    tell_link(link, t);
  }
  told.rate = f.rate;
  told.finish = finish;
  const auto later = [](const ToldEnd& a, const ToldEnd& b) { return a.finish > b.finish; };
  told_ends_.push_back(ToldEnd{.finish = finish, .id = f.id, .flow = k});
  std::push_heap(told_ends_.begin(), told_ends_.end(), later);
}

void FlowNetwork::tell_ends(double t) {
  const auto later = [](const ToldEnd& a, const ToldEnd& b) { return a.finish > b.finish; };
  std::vector<ToldEnd> pending;  // due, and not yet ended: their end comes at this instant
  while (!told_ends_.empty() && told_ends_.front().finish <= t) {
    std::pop_heap(told_ends_.begin(), told_ends_.end(), later);
    const ToldEnd e = told_ends_.back();
    told_ends_.pop_back();
    Told& told = told_[e.flow];
    if (!told.on || told.id != e.id || told.finish != e.finish) continue;  // rated since
    const Flow& f = flows_[e.flow];
    if (f.id == e.id && f.state == State::kMoving) {
      pending.push_back(e);
      continue;
    }
    // Ended at its finish (end() comes at its wake, at that time): off its links then.
    told.on = false;
    for (const LinkId link : told.route) {
      --told_flows_[link];
      // (exactly 0 without flows, not the rounding of the sums)
      told_rate_[link] = told_flows_[link] == 0 ? 0.0 : told_rate_[link] - told.rate;
      tell_link(link, e.finish);
    }
  }
  for (const ToldEnd& e : pending) {
    told_ends_.push_back(e);
    std::push_heap(told_ends_.begin(), told_ends_.end(), later);
  }
}

void FlowNetwork::stamped(std::size_t k, std::uint64_t stamp) {
  if (wake_flow_[k] == kBatchWake)
    batch_stamp_ = stamp;
  else
    flows_[wake_flow_[k]].wake_stamp = stamp;
}

void FlowNetwork::clear_wakes() {
  wakes_.clear();
  wake_flow_.clear();
}

}  // namespace collnoise
