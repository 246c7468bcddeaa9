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
      rate_(bytes_per_ns),
      links_state_(topology.link_id_bound()),
      path_(static_cast<std::size_t>(std::max(topology.diameter(), 1))) {
  for (LinkId link = 0; link < links_state_.size(); ++link) {
    links_state_[link].bandwidth = topology.link_bandwidth(link).value_or(rate_);
    if (!background_load.empty()) links_state_[link].background = background_load[link];
  }
}

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

void FlowNetwork::fetch_near(std::uint64_t id) const {
  // Its slot came in with fetch_far: the flow's two lines (its route, then its state and times).
  if (const FlowOf* at = index_.find(id); at != nullptr) {
    const auto* line = reinterpret_cast<const char*>(&flows_[at->flow]);
    __builtin_prefetch(line);
    __builtin_prefetch(line + 64);
  }
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
  prefetch_links(f);
  // Alone on its links, it changes no other flow's rate: its own is its links' least share, now
  // (a flow that joins it later at this instant recomputes it with the others).
  const bool by_itself = alone(f);
  for (const LinkId link : f.route) links_state_[link].flows.push_back(k);
  if (by_itself)
    set_rate(k, alone_rate(f), t);
  else
    batch(k, t);
  return {.kind = NetworkPoll::Kind::kHeld};
}

NetworkPoll FlowNetwork::end(std::uint32_t k, double t) {
  Flow& f = flows_[k];
  f.state = State::kDone;
  f.left = 0.0;
  f.finish = t;
  prefetch_links(f);
  for (const LinkId link : f.route) {
    auto& on = links_state_[link].flows;
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

void FlowNetwork::prefetch_links(const Flow& f) const {
  for (const LinkId link : f.route) __builtin_prefetch(&links_state_[link]);
}

bool FlowNetwork::alone(const Flow& f) const {
  return std::ranges::all_of(f.route,
                             [&](LinkId link) { return links_state_[link].flows.empty(); });
}

double FlowNetwork::alone_rate(const Flow& f) const {
  double rate = std::numeric_limits<double>::infinity();
  for (const LinkId link : f.route) rate = std::min(rate, links_state_[link].cap());
  return rate;
}

void FlowNetwork::next_search() {
  if (++search_ != 0) return;
  // Wrapped: no mark may equal a later search's by chance.
  for (Flow& f : flows_) f.mark = 0;
  for (LinkState& l : links_state_) l.mark = 0;
  search_ = 1;
}

void FlowNetwork::gather_component(std::span<const std::uint32_t> seeds) {
  next_search();
  component_.clear();
  const auto meet = [&](std::uint32_t k) {
    Flow& f = flows_[k];
    f.mark = search_;
    f.place = static_cast<std::uint32_t>(component_.size());
    component_.push_back(k);
    prefetch_links(f);
  };
  for (const std::uint32_t k : seeds)
    if (flows_[k].mark != search_) meet(k);
  // Breadth first over shared links: the order, like the links' lists, follows the events.
  for (std::size_t i = 0; i < component_.size(); ++i)
    for (const LinkId link : flows_[component_[i]].route)
      for (const std::uint32_t g : links_state_[link].flows)
        if (flows_[g].mark != search_) meet(g);
}

void FlowNetwork::recompute(double t) {
  ++recomputations_;
  flows_recomputed_ += component_.size();
  if (component_.size() == 1) {
    set_rate(component_[0], alone_rate(flows_[component_[0]]), t);
    return;
  }
  fill_rates();
  for (std::size_t i = 0; i < component_.size(); ++i) set_rate(component_[i], new_rate_[i], t);
}

void FlowNetwork::gather_links() {
  links_.clear();
  residual_.clear();
  unfixed_.clear();
  ours_.clear();
  new_rate_.assign(component_.size(), -1.0);
  cap_.assign(component_.size(), std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < component_.size(); ++i)
    for (const LinkId link : flows_[component_[i]].route) {
      LinkState& l = links_state_[link];
      if (l.flows.size() == 1) {
        cap_[i] = std::min(cap_[i], l.cap());  // its one flow's
        continue;
      }
      if (l.mark != search_) {
        l.mark = search_;
        l.slot = static_cast<std::uint32_t>(links_.size());
        links_.push_back(link);
        residual_.push_back(l.bandwidth);
        // The link's background flows count as unfixed for good: they take its share.
        unfixed_.push_back(l.background);
        ours_.push_back(0);
      }
      ++ours_[l.slot];
      ++unfixed_[l.slot];
    }
}

void FlowNetwork::fill_rates() {
  // Progressive filling over the links that two or more of the component's flows share; a link
  // that carries one flow is that flow's cap, a constraint of its own in the filling (fixed at it
  // when it is the least share left), which keeps the constraints to the shared links and the
  // flows. The constraint of the least share fixes its flows at it, the first of equal shares
  // first (a link's slot, then links + a flow's place for its cap).
  gather_links();
  if (links_.size() + component_.size() <= kScannedConstraints)
    fill_by_scan();
  else
    fill_by_heap();
}

void FlowNetwork::fix_flow(std::uint32_t g, double share, std::uint32_t s, bool queue) {
  new_rate_[flows_[g].place] = share;
  --unfixed_flows_;
  const auto later = std::greater<>();
  for (const LinkId link : flows_[g].route) {
    const LinkState& l = links_state_[link];
    if (l.flows.size() == 1) continue;  // its cap
    const std::uint32_t other = l.slot;
    residual_[other] = std::max(residual_[other] - share, 0.0);
    --unfixed_[other];
    if (--ours_[other] > 0 && other != s && queue) {
      heap_.emplace_back(residual_[other] / unfixed_[other], other);
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
}

void FlowNetwork::fill_by_scan() {
  // A few constraints (most components: two or three flows): each step looks at all of them for
  // the least share, which is what the heap would give, without its upkeep.
  const auto links = static_cast<std::uint32_t>(links_.size());
  const auto flows = static_cast<std::uint32_t>(component_.size());
  unfixed_flows_ = component_.size();
  while (unfixed_flows_ > 0) {
    double least = std::numeric_limits<double>::infinity();
    std::uint32_t at = 0;
    for (std::uint32_t s = 0; s < links; ++s) {
      if (ours_[s] == 0) continue;
      if (const double share = residual_[s] / unfixed_[s]; share < least) {
        least = share;
        at = s;
      }
    }
    for (std::uint32_t i = 0; i < flows; ++i)
      if (new_rate_[i] < 0.0 && cap_[i] < least) {
        least = cap_[i];
        at = links + i;
      }
    if (at >= links) {
      fix_flow(component_[at - links], least, at, false);
      continue;
    }
    for (const std::uint32_t g : links_state_[links_[at]].flows)
      if (new_rate_[flows_[g].place] < 0.0) fix_flow(g, least, at, false);
  }
}

void FlowNetwork::fill_by_heap() {
  // A link's share only grows as others fix their flows (they take at most its share), so an
  // entry whose share has moved is stale: a newer one is queued.
  const auto links = static_cast<std::uint32_t>(links_.size());
  heap_.clear();
  const auto later = std::greater<>();
  for (std::uint32_t s = 0; s < links; ++s) heap_.emplace_back(residual_[s] / unfixed_[s], s);
  for (std::uint32_t i = 0; i < component_.size(); ++i)
    if (cap_[i] != std::numeric_limits<double>::infinity()) heap_.emplace_back(cap_[i], links + i);
  std::make_heap(heap_.begin(), heap_.end(), later);
  unfixed_flows_ = component_.size();
  while (unfixed_flows_ > 0) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const auto [share, s] = heap_.back();
    heap_.pop_back();
    if (s >= links) {  // a flow's cap
      if (new_rate_[s - links] < 0.0) fix_flow(component_[s - links], share, s, true);
      continue;
    }
    if (ours_[s] == 0 || share != residual_[s] / unfixed_[s]) continue;
    for (const std::uint32_t g : links_state_[links_[s]].flows)
      if (new_rate_[flows_[g].place] < 0.0) fix_flow(g, share, s, true);
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
  const LinkState& l = links_state_[link];
  listener_->load(link, t,
                  LinkLoad{.messages = told_flows_[link] + l.background,
                           .background = l.background,
                           .rate = told_rate_[link],
                           .bandwidth = l.bandwidth});
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
  told_due_.clear();  // due, and not yet ended: their end comes at this instant
  while (!told_ends_.empty() && told_ends_.front().finish <= t) {
    std::pop_heap(told_ends_.begin(), told_ends_.end(), later);
    const ToldEnd e = told_ends_.back();
    told_ends_.pop_back();
    Told& told = told_[e.flow];
    if (!told.on || told.id != e.id || told.finish != e.finish) continue;  // rated since
    const Flow& f = flows_[e.flow];
    if (f.id == e.id && f.state == State::kMoving) {
      told_due_.push_back(e);
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
  for (const ToldEnd& e : told_due_) {
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
