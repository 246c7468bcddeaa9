#pragma once
// Interconnection networks for the network-noise model (docs/models/network.md; Hoefler, Schneider,
// Lumsdaine): endpoints, switches, directed links (one each way per cable) numbered 0..links-1,
// and a deterministic route between any two endpoints as a sequence of link numbers.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace collnoise {

using LinkId = std::uint32_t;

class Topology {
 public:
  virtual ~Topology() = default;

  virtual std::string describe() const = 0;
  /// The family, for grouping results: "fat-tree", "2-D torus", ...
  virtual std::string family() const = 0;
  virtual std::uint64_t endpoints() const = 0;
  /// Switches (0 for a direct network such as a torus, whose routers are the endpoints).
  virtual std::uint64_t switches() const = 0;
  /// Directed links.
  virtual std::uint64_t links() const = 0;
  /// Link numbers lie in [0, link_id_bound()) (a few may be unused).
  virtual std::uint64_t link_id_bound() const { return links(); }
  /// Hops of the longest route between two endpoints.
  virtual int diameter() const = 0;
  /// Writes the links of the route from endpoint src to endpoint dst into `path` (at least
  /// diameter() long) and returns how many. No allocation: the hot loop calls this per message.
  virtual std::size_t route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const = 0;
  /// The link's own bandwidth, bytes per ns, where the topology gives one (a dot file's
  /// `bandwidth`); none: the model's default.
  virtual std::optional<double> link_bandwidth(LinkId) const { return std::nullopt; }
  /// The link's own latency, ns, where the topology gives one (a dot file's `latency`); none: 0.
  virtual std::optional<double> link_latency(LinkId) const { return std::nullopt; }
  /// Whether any link has a latency of its own (link_latency): else none is looked up.
  virtual bool has_link_latencies() const { return false; }
  /// The link as the family names its parts, for tables of links (docs/timelines.md, "Link
  /// load"): a fat tree's level, switch and port, a torus's dimension and direction, a
  /// dragonfly's injection, ejection, local or global link, a dot file's edge "A -> B".
  /// Precondition: link < link_id_bound().
  virtual std::string link_name(LinkId link) const = 0;
};

}  // namespace collnoise
