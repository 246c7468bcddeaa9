#include "engine/network/congestion.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/stop_request.hpp"

namespace collnoise {
namespace {

// Buffers reused from sample to sample on each thread: routing allocates nothing per message.
struct Workspace {
  std::vector<std::uint32_t> background_load;
  std::vector<std::uint32_t> app_load;
  std::vector<LinkId> paths;
  std::vector<std::size_t> path_length;
  std::vector<std::uint32_t> app_cost, both_cost;
  std::vector<double> clean, quiet, perturbed, before;
};

Workspace& workspace() {
  thread_local Workspace w;
  return w;
}

}  // namespace

CongestionModel::CongestionModel(std::shared_ptr<const Topology> topology, NetworkPattern pattern,
                                 double rho, std::optional<StageNoise> os_noise)
    : topology_(std::move(topology)), pattern_(pattern), os_noise_(std::move(os_noise)) {
  const std::uint64_t e = topology_->endpoints();
  perturbing_ = background_endpoints(rho, e);
  processes_ = e - perturbing_;
  if (active_processes() < 2)
    throw InputError(fmt::format(
        "network.rho = {} leaves {} application process(es) on {}: the collective needs two", rho,
        processes_, topology_->describe()));
}

std::uint64_t CongestionModel::active_processes() const {
  return pattern_ == NetworkPattern::kButterfly ? std::bit_floor(processes_) : processes_;
}

int CongestionModel::rounds() const {
  const std::uint64_t p = active_processes();
  return p <= 1 ? 0 : static_cast<int>(std::bit_width(p - 1));
}

std::vector<CongestionModel::Message> CongestionModel::round_messages(int round) const {
  std::vector<Message> out;
  const std::uint64_t bit = std::uint64_t{1} << round;
  const std::uint64_t p = active_processes();
  switch (pattern_) {
    case NetworkPattern::kBinomialBroadcast:
      for (std::uint64_t i = 0; i < bit && i + bit < p; ++i)
        out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + bit)});
      break;
    case NetworkPattern::kBinomialReduce:
      for (std::uint64_t i = bit; i < p; i += 2 * bit)
        out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i - bit)});
      break;
    case NetworkPattern::kButterfly:
      for (std::uint64_t i = 0; i < p; ++i)
        out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i ^ bit)});
      break;
  }
  return out;
}

NetworkAllocation CongestionModel::draw_allocation(std::uint64_t key) const {
  return draw_network_allocation(topology_->endpoints(), perturbing_, key);
}

NetworkSample CongestionModel::sample(std::uint64_t key) const {
  const NetworkAllocation allocation = draw_allocation(key);
  std::vector<double> delays;
  if (os_noise_ && os_noise_->scale > 0.0) {
    Pcg32 stream = make_stream(hash_combine(key, 2));
    delays.resize(static_cast<std::size_t>(rounds()) * active_processes());
    for (double& d : delays) d = os_noise_->scale * os_noise_->eta->isf(stream.next_uniform());
  }
  return evaluate(allocation, delays);
}

NetworkSample CongestionModel::evaluate(const NetworkAllocation& allocation,
                                        const std::vector<double>& os_delays) const {
  Workspace& w = workspace();
  const auto bound = static_cast<std::size_t>(topology_->link_id_bound());
  const auto diameter = static_cast<std::size_t>(std::max(topology_->diameter(), 1));
  w.background_load.assign(bound, 0);
  w.app_load.assign(bound, 0);
  w.paths.resize(diameter);
  for (const auto& [src, dst] : allocation.background) {
    const std::size_t n = topology_->route(src, dst, w.paths);
    for (std::size_t k = 0; k < n; ++k) ++w.background_load[w.paths[k]];
  }
  const std::uint64_t p = active_processes();
  w.clean.assign(p, 0.0);
  w.quiet.assign(p, 0.0);
  w.perturbed.assign(p, 0.0);
  const auto delay = [&](int round, std::uint32_t process) {
    return os_delays.empty() ? 0.0 : os_delays[static_cast<std::size_t>(round) * p + process];
  };
  for (int r = 0; r < rounds(); ++r) {
    throw_if_stop_requested();
    const std::vector<Message> messages = round_messages(r);
    w.paths.resize(messages.size() * diameter);
    w.path_length.resize(messages.size());
    for (std::size_t m = 0; m < messages.size(); ++m) {
      std::span<LinkId> path(w.paths.data() + m * diameter, diameter);
      w.path_length[m] = topology_->route(allocation.process_endpoint[messages[m].from],
                                          allocation.process_endpoint[messages[m].to], path);
      for (std::size_t k = 0; k < w.path_length[m]; ++k) ++w.app_load[path[k]];
    }
    // Each message's cost alone with the application, and with the background too.
    w.app_cost.resize(messages.size());
    w.both_cost.resize(messages.size());
    for (std::size_t m = 0; m < messages.size(); ++m) {
      const LinkId* path = w.paths.data() + m * diameter;
      std::uint32_t app = 0, both = 0;
      for (std::size_t k = 0; k < w.path_length[m]; ++k) {
        app = std::max(app, w.app_load[path[k]]);
        both = std::max(both, w.app_load[path[k]] + w.background_load[path[k]]);
      }
      w.app_cost[m] = app;
      w.both_cost[m] = both;
    }
    const bool exchange = pattern_ == NetworkPattern::kButterfly;
    // Each evaluation updates its own times from this round's senders.
    const auto step = [&](std::vector<double>& t, std::size_t m, double cost, double extra) {
      const Message& msg = messages[m];
      const double sent = (exchange ? w.before[msg.from] : t[msg.from]) + extra;
      double& at = t[msg.to];
      at = pattern_ == NetworkPattern::kBinomialBroadcast ? sent + cost : std::max(at, sent + cost);
    };
    for (auto* times : {&w.clean, &w.quiet, &w.perturbed}) {
      if (exchange) w.before = *times;  // both directions of a pair read the round's start
      for (std::size_t m = 0; m < messages.size(); ++m) {
        const double cost = times == &w.perturbed ? w.both_cost[m] : w.app_cost[m];
        step(*times, m, cost, times == &w.clean ? 0.0 : delay(r, messages[m].from));
      }
    }
    for (std::size_t m = 0; m < messages.size(); ++m)
      for (std::size_t k = 0; k < w.path_length[m]; ++k) --w.app_load[w.paths[m * diameter + k]];
  }
  const auto finish = [&](const std::vector<double>& t) {
    return pattern_ == NetworkPattern::kBinomialReduce ? t[0]
                                                       : *std::max_element(t.begin(), t.end());
  };
  return {finish(w.quiet), finish(w.perturbed), finish(w.clean)};
}

}  // namespace collnoise
