#include "engine/network/simple_network.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace collnoise {

SimpleNetwork::SimpleNetwork(const Topology& topology, std::span<const std::uint32_t> endpoint_of,
                             std::span<const std::uint32_t> background_load)
    : topology_(topology),
      endpoint_of_(endpoint_of),
      background_(background_load),
      on_link_(topology.link_id_bound()),
      path_(static_cast<std::size_t>(std::max(topology.diameter(), 1))) {}

void SimpleNetwork::advance(Flight& f, double t) const {
  // LogGOPSim's floor at every touch: a slower message loses up to a ten-thousandth per touch.
  f.left -= static_cast<std::int64_t>(std::floor((t - f.last) * kScale / f.congestion));
  f.last = t;
}

std::uint32_t SimpleNetwork::new_flight() {
  if (!free_.empty()) {
    const std::uint32_t k = free_.back();
    free_.pop_back();
    return k;
  }
  flights_.emplace_back();
  return static_cast<std::uint32_t>(flights_.size() - 1);
}

void SimpleNetwork::forget(std::uint64_t id, std::uint32_t k) {
  index_.erase(id);
  flights_[k].route.clear();
  free_.push_back(k);
}

void SimpleNetwork::poll_due(double t) {
  // Those due before `t` are past (starts come in time order); those due at `t` are polled in
  // the order of their starts. Polling one again at the same instant changes nothing (it moves
  // no bytes in no time, and no other message's touch at `t` moves its bytes either), so each is
  // polled at its first start of the instant only, and kept in due_now_ until the instant ends:
  // a later start at `t` polls only what has come due since (a message of 0 bytes started then).
  // Polling all of them at every start made a round of N starts at one instant cost N^2.
  if (t != due_instant_) {
    due_now_.clear();
    due_instant_ = t;
  }
  const auto later = std::greater<>();
  while (!due_.empty() && due_.front().at < t) {
    std::pop_heap(due_.begin(), due_.end(), later);
    due_.pop_back();
  }
  const std::size_t first_new = due_now_.size();
  while (!due_.empty() && due_.front().at == t) {
    std::pop_heap(due_.begin(), due_.end(), later);
    due_now_.push_back(due_.back());
    due_.pop_back();
  }
  due_polls_ += due_now_.size() - first_new;
  for (std::size_t i = first_new; i < due_now_.size(); ++i) {
    const FlightOf* at = index_.find(due_now_[i].id);
    if (at == nullptr || flights_[at->flight].gone) continue;
    const std::uint32_t k = at->flight;
    advance(flights_[k], t);
    if (flights_[k].left <= 0) leave(k, t);
  }
}

void SimpleNetwork::start(std::uint64_t id, std::uint32_t from, std::uint32_t to,
                          std::uint64_t bytes, double t) {
  poll_due(t);
  const std::uint32_t k = new_flight();
  index_.insert(FlightOf{.key = id, .flight = k});
  const std::size_t hops = topology_.route(endpoint(from), endpoint(to), path_);
  Flight& f = flights_[k];
  f.left = static_cast<std::int64_t>(static_cast<double>(bytes) * kScale);
  f.last = t;
  f.congestion = 1;
  f.gone = f.polled = f.out = false;
  f.arrival = f.released = 0.0;
  f.route.assign(path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(hops));
  prefetch_links(f);
  for (const LinkId link : f.route) {
    auto& on = on_link_[link];
    const std::uint32_t count = count_on(link, on.size());
    f.congestion = std::max(f.congestion, count + 1);
    for (const std::uint32_t m : on) {
      advance(flights_[m], t);
      // At most one step per message: after it, its congestion is above this link's count.
      if (flights_[m].congestion == count) ++flights_[m].congestion;
    }
    on.push_back(k);
    if (listener_ != nullptr) [[unlikely]] {
      listener_->carried(link, bytes);
      tell(link, t);
    }
  }
  due_.push_back(Due{.at = t + static_cast<double>(bytes), .order = starts_++, .id = id});
  std::push_heap(due_.begin(), due_.end(), std::greater<>());
}

void SimpleNetwork::leave(std::uint32_t k, double t) {
  std::vector<std::uint32_t>& touched = touched_;
  touched.clear();
  prefetch_links(flights_[k]);
  for (const LinkId link : flights_[k].route) {
    auto& on = on_link_[link];
    for (const std::uint32_t m : on) {
      if (m == k) continue;
      advance(flights_[m], t);
      touched.push_back(m);
    }
    on.erase(std::find(on.begin(), on.end(), k));
    if (listener_ != nullptr) [[unlikely]]
      tell(link, t);
  }
  // Each counted again once, in increasing order, as a set would give them.
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (const std::uint32_t m : touched) {
    Flight& other = flights_[m];
    other.congestion = 0;
    for (const LinkId link : other.route)
      other.congestion = std::max(other.congestion, count_on(link, on_link_[link].size()));
  }
  flights_[k].gone = true;
}

void SimpleNetwork::prefetch_links(const Flight& f) const {
  // The links' lists at once, not one miss after another: a message's links are far apart.
  for (const LinkId link : f.route) __builtin_prefetch(&on_link_[link]);
}

void SimpleNetwork::tell(LinkId link, double t) const {
  listener_->load(link, t,
                  LinkLoad{.messages = count_on(link, on_link_[link].size()),
                           .background = background_.empty() ? 0 : background_[link],
                           .rate = 0.0,
                           .bandwidth = 1.0});
}

NetworkPoll SimpleNetwork::poll(std::uint64_t id, double t, std::uint64_t) {
  const FlightOf* at = index_.find(id);
  if (at == nullptr) return {.kind = NetworkPoll::Kind::kLeft, .at = t, .emerged = t, .left = t};
  const std::uint32_t k = at->flight;
  Flight& f = flights_[k];
  if (!f.polled) {
    f.polled = true;
    f.arrival = t;
  }
  if (!f.gone) {
    advance(f, t);
    if (f.left > 0) {
      ++repolls_;
      return {.kind = NetworkPoll::Kind::kAgain,
              .at = t + std::ceil(static_cast<double>(f.left) / kScale)};
    }
    leave(k, t);
  }
  // Polled again while its receiver was busy: it left at the first poll that found it out.
  if (!f.out) {
    f.out = true;
    f.released = t;
  }
  return {.kind = NetworkPoll::Kind::kLeft, .at = t, .emerged = f.arrival, .left = f.released};
}

void SimpleNetwork::taken(std::uint64_t id) {
  if (const FlightOf* at = index_.find(id); at != nullptr) forget(id, at->flight);
}

}  // namespace collnoise
