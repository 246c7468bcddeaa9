#include "engine/network/dragonfly.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"

namespace collnoise {

Dragonfly::Dragonfly(std::uint32_t p, std::uint32_t a, std::uint32_t h, std::uint32_t g,
                     DragonflyRouting routing, const std::string& what)
    : p_(p), a_(a), h_(h), g_(g), k_(0), routing_(routing), endpoints_(0) {
  if (p < 1 || a < 1 || h < 1)
    throw InputError(fmt::format(
        "{}: a dragonfly needs p, a, h >= 1 (endpoints a router, routers a group, global links "
        "a router), got p = {}, a = {}, h = {}",
        what, p, a, h));
  const std::uint64_t ports = std::uint64_t{a} * h;
  if (g < 2 || g > ports + 1 || ports % (g - 1) != 0)
    throw InputError(fmt::format(
        "{}: a dragonfly of {} global ports a group needs 2 <= g <= {} groups with g - 1 dividing "
        "{} (the same number of links between any two groups), got g = {}",
        what, ports, ports + 1, ports, g));
  if (routing == DragonflyRouting::kValiant && g < 3)
    throw InputError(fmt::format(
        "{}: Valiant routing needs an intermediate group: at least 3 groups, got {}", what, g));
  k_ = static_cast<std::uint32_t>(ports / (g - 1));
  endpoints_ = std::uint64_t{g} * a * p;
  local_base_ = 2 * endpoints_;
  global_base_ = local_base_ + std::uint64_t{g} * a * (a - 1);
  if (global_base_ + std::uint64_t{g} * ports > (std::uint64_t{1} << 32))
    throw InputError(fmt::format("{}: the dragonfly is too large (over 2^32 links)", what));
}

std::string Dragonfly::describe() const {
  return fmt::format("dragonfly({}, {}, {}, {}{})", p_, a_, h_, g_,
                     routing_ == DragonflyRouting::kValiant ? "; valiant" : "");
}

std::uint64_t Dragonfly::links() const {
  return global_base_ + std::uint64_t{g_} * a_ * h_;
}

int Dragonfly::diameter() const {
  // Injection and ejection, a local link in each group passed (none with one router a group)
  // and the global links between.
  const int local = a_ > 1 ? 1 : 0;
  if (routing_ == DragonflyRouting::kValiant) return 2 + 3 * local + 2;
  return 2 + 2 * local + 1;
}

LinkId Dragonfly::local_link(std::uint32_t group, std::uint32_t from, std::uint32_t to) const {
  const std::uint32_t other = to < from ? to : to - 1;
  return static_cast<LinkId>(local_base_ + (std::uint64_t{group} * a_ + from) * (a_ - 1) + other);
}

std::uint32_t Dragonfly::port_towards(std::uint32_t from, std::uint32_t to, std::uint32_t j) const {
  const std::uint32_t index = to < from ? to : to - 1;  // among `from`'s other groups
  return index * k_ + j;
}

std::uint32_t Dragonfly::global_target(LinkId link) const {
  const std::uint64_t at = link - global_base_;
  const auto group = static_cast<std::uint32_t>(at / (std::uint64_t{a_} * h_));
  const auto index = static_cast<std::uint32_t>(at % (std::uint64_t{a_} * h_) / k_);
  return index < group ? index : index + 1;
}

std::uint32_t Dragonfly::cross(std::uint32_t group, std::uint32_t r, std::uint32_t to,
                               std::uint32_t j, std::span<LinkId> path, std::size_t& hops) const {
  const std::uint32_t port = port_towards(group, to, j);
  if (port / h_ != r) path[hops++] = local_link(group, r, port / h_);
  path[hops++] = global_link(group, port);
  return port_towards(to, group, j) / h_;
}

std::size_t Dragonfly::route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const {
  if (src == dst) return 0;
  std::size_t hops = 0;
  path[hops++] = static_cast<LinkId>(2 * src);
  const std::uint32_t from = group_of(src), to = group_of(dst);
  std::uint32_t r = router_of(src);
  const auto j = static_cast<std::uint32_t>(dst % k_);
  if (from != to) {
    if (routing_ == DragonflyRouting::kValiant) {
      // A fixed mix of the pair (splitmix64's finaliser) picks one of the g - 2 other groups.
      std::uint64_t x = src * 0x9E3779B97F4A7C15ULL ^ (dst + 0x632BE59BD9B4E019ULL);
      x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
      x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
      x ^= x >> 31;
      auto via = static_cast<std::uint32_t>(x % (g_ - 2));
      if (via >= std::min(from, to)) ++via;
      if (via >= std::max(from, to)) ++via;
      r = cross(from, r, via, j, path, hops);
      r = cross(via, r, to, j, path, hops);
    } else {
      r = cross(from, r, to, j, path, hops);
    }
  }
  if (r != router_of(dst)) path[hops++] = local_link(to, r, router_of(dst));
  path[hops++] = static_cast<LinkId>(2 * dst + 1);
  return hops;
}

std::string Dragonfly::link_name(LinkId link) const {
  if (link < local_base_) {
    const std::uint64_t e = link / 2;
    const std::string router = fmt::format("group {} router {}", group_of(e), router_of(e));
    if (link % 2 == 0) return fmt::format("injection: endpoint {} -> {}", e, router);
    return fmt::format("ejection: {} -> endpoint {}", router, e);
  }
  if (link < global_base_) {
    const std::uint64_t at = link - local_base_;
    const std::uint64_t router = at / (a_ - 1);  // G a + from
    const auto other = static_cast<std::uint32_t>(at % (a_ - 1));
    const auto from = static_cast<std::uint32_t>(router % a_);
    return fmt::format("local: group {} router {} -> router {}", router / a_, from,
                       other < from ? other : other + 1);
  }
  const std::uint64_t at = link - global_base_;
  const std::uint64_t port = at % (std::uint64_t{a_} * h_);
  return fmt::format("global: group {} port {} (router {}) -> group {}",
                     at / (std::uint64_t{a_} * h_), port, port / h_, global_target(link));
}

}  // namespace collnoise
