#pragma once
// Dragonflies (Kim, Dally, Scott, Abts; docs/models/network.md): g groups of a routers, each router
// with p endpoints, a link to every other router of its group, and h global links to other
// groups, the group's a h global ports spread evenly over the other groups (k = a h / (g - 1)
// links between any two). Group G's global port q (router q / h) leads to its (q / k)-th other
// group, in increasing order; the link's far end is that group's port for G in the same place
// among its k. Every endpoint has an injection and an ejection link to its router.
//
// Minimal routing: to the destination's router within a group, else to the router holding the
// global link to the destination's group (link d mod k of the k, d the destination endpoint),
// across it, then to the destination's router: at most 5 links. Valiant routing goes through an
// intermediate group first (minimally to it, then minimally on), chosen among the groups other
// than the source's and the destination's by a fixed pseudo-random function of the endpoint pair
// (a sample's random allocation varies which pairs meet); within a group it is minimal: at most 7
// links.
//
// Endpoint e = (G a + r) p + t. Links: injection 2e and ejection 2e + 1; then each group's local
// links, G a (a - 1) + r (a - 1) + (index of the other router among the a - 1); then the global
// ones, G a h + q.
#include <cstdint>
#include <string>

#include "engine/network/topology.hpp"

namespace collnoise {

enum class DragonflyRouting : std::uint8_t { kMinimal, kValiant };

class Dragonfly final : public Topology {
 public:
  /// Preconditions (checked: InputError naming `what`): p, a, h >= 1, 2 <= g <= a h + 1 with
  /// g - 1 dividing a h, g >= 3 for Valiant routing, under 2^32 links.
  Dragonfly(std::uint32_t p, std::uint32_t a, std::uint32_t h, std::uint32_t g,
            DragonflyRouting routing, const std::string& what);

  std::string describe() const override;
  std::string family() const override { return "dragonfly"; }
  std::uint64_t endpoints() const override { return endpoints_; }
  std::uint64_t switches() const override { return std::uint64_t{g_} * a_; }
  std::uint64_t links() const override;
  int diameter() const override;
  std::size_t route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const override;
  /// "injection: endpoint 5 -> group 0 router 2", "ejection: group 0 router 2 -> endpoint 5",
  /// "local: group 1 router 0 -> router 3", "global: group 1 port 4 (router 2) -> group 3".
  std::string link_name(LinkId link) const override;

  /// Global links between any two groups.
  std::uint32_t links_between_groups() const { return k_; }
  /// The group global link `link` (a global link's number) leads to.
  std::uint32_t global_target(LinkId link) const;

 private:
  std::uint32_t group_of(std::uint64_t endpoint) const {
    return static_cast<std::uint32_t>(endpoint / p_ / a_);
  }
  std::uint32_t router_of(std::uint64_t endpoint) const {
    return static_cast<std::uint32_t>(endpoint / p_ % a_);
  }
  LinkId local_link(std::uint32_t group, std::uint32_t from, std::uint32_t to) const;
  LinkId global_link(std::uint32_t group, std::uint32_t port) const {
    return static_cast<LinkId>(global_base_ + std::uint64_t{group} * a_ * h_ + port);
  }
  /// Group `from`'s port of its `j`-th link (of k) to group `to`, and that link's far port.
  std::uint32_t port_towards(std::uint32_t from, std::uint32_t to, std::uint32_t j) const;
  /// Appends the links from router `r` of group `group` to group `to` (not `group`), through
  /// its global link `j`; returns the router reached there.
  std::uint32_t cross(std::uint32_t group, std::uint32_t r, std::uint32_t to, std::uint32_t j,
                      std::span<LinkId> path, std::size_t& hops) const;

  std::uint32_t p_, a_, h_, g_, k_;
  DragonflyRouting routing_;
  std::uint64_t endpoints_, local_base_, global_base_;
};

}  // namespace collnoise
