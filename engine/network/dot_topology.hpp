#pragma once
// A user's network from a file in LogGOPSim's annotated dot format (docs/models/topology-files.md),
// read as LogGOPSim reads it (its TopoGraph, src/LogGOPSim/Network.hpp) so that a file written
// for LogGOPSim gives the same endpoints, links and routes here:
//
// - a digraph, parsed by Graphviz's cgraph; a node whose name starts with a capital 'H' is a host
//   (an endpoint), every other node a switch;
// - endpoint r is the r-th host in cgraph's node walk, the order of first appearance in the file;
// - links are the edges, numbered 0, 1, ... over the nodes in that walk and, at each node, its
//   out-edges in cgraph's order: by their heads' place in the walk, parallel edges (separate
//   links) as written; so the out-links of a node are consecutive numbers;
// - an edge's `comment` lists destination hosts (separated by commas, spaces, tabs or newlines;
//   "*" or empty for none): at the edge's tail, a message for one of them leaves through this
//   edge, the first out-edge listing a host winning; a node with exactly one out-edge always
//   takes it.
//
// Where LogGOPSim crashes, loops or silently loses edges, the file is refused (InputError, one
// line naming the file, and `file:line` where a light scan of the text finds the line): an
// undirected graph, fewer than 2 hosts, a comment naming an unknown node or a switch, a node on
// some route with several out-edges and no entry for the destination, a routing loop, a bad
// `bandwidth` or `latency`. Every host pair's route is checked when the file is read, so a bad
// file is refused at once rather than mid-run.
//
// Routing tables. Each node with more than one out-edge keeps its entries (destination host,
// link), the first listing of each host, either dense (a link for every host, 4 bytes a host)
// when it lists at least half the hosts, or sparse (8 bytes an entry, sorted by host, found by
// binary search) otherwise: never more than 8 bytes per entry of the file's comments, and in a
// fat tree, where every switch lists every host, 4 bytes a host a switch (16 MiB for 16384
// hosts and 256 switches). A route costs one look-up per hop (about 15 ns for a 4-hop route)
// and allocates nothing. Besides: 4 bytes a link (its head), 20 bytes a node besides its name, and
// 8 bytes a link for each of `bandwidth` and `latency` when the file declares it.
//
// Checking the routes walks, for each destination, every host's route until it meets a node
// already known to reach that destination, keeping each node's distance (which gives diameter()
// exactly): O(hosts x nodes) steps, a host whose uplink leads to a known node in one. Measured
// (one core, loaded): a generated XGFT(2; 64,64; 1,64) file, 4096 hosts, 128 switches and
// 3.5 MB, is read in 0.13 s, 0.03 s of it the check; XGFT(2; 128,128; 1,128), 16384 hosts, 256
// switches and 28 MB, in 1.3 s (0.5 s the check, the rest cgraph's parse) and 100 MB. Reading is
// serialised (cgraph's parser and its error hook are process-wide); the object is immutable and
// may be shared between threads.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/network/topology.hpp"

namespace collnoise {

class DotTopology final : public Topology {
 public:
  /// Hosts at most 2^30, links fewer than 2^32 (both far above what cgraph can hold in memory).
  static constexpr std::uint64_t kMaxHosts = std::uint64_t{1} << 30;

  /// Reads and checks the file at `path`. InputError naming the file (and line) otherwise.
  static DotTopology read(const std::string& path);

  /// "dot file 'fat.dot' (16 hosts, 4 switches)", the file named without its directories.
  std::string describe() const override;
  std::string family() const override { return "dot file"; }
  std::uint64_t endpoints() const override { return host_node_.size(); }
  std::uint64_t switches() const override { return names_.size() - host_node_.size(); }
  std::uint64_t links() const override { return head_.size(); }
  int diameter() const override { return diameter_; }
  std::size_t route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const override;

  /// The file's path, as given.
  const std::string& path() const { return path_; }
  /// Endpoint `endpoint`'s node name ("H0").
  const std::string& host_name(std::uint64_t endpoint) const {
    return names_[host_node_[endpoint]];
  }
  /// The link for messages: "S0 -> H1", and "S0 -> H1 (parallel 2)" for the second of
  /// parallel edges.
  std::string link_name(LinkId link) const override;
  /// The edge's `bandwidth` attribute (bytes per ns, that is GB/s; > 0 and finite), if set.
  std::optional<double> bandwidth(LinkId link) const { return attribute(bandwidth_, link); }
  std::optional<double> link_bandwidth(LinkId link) const override { return bandwidth(link); }
  std::optional<double> link_latency(LinkId link) const override { return latency(link); }
  bool has_link_latencies() const override { return !latency_.empty(); }
  /// The edge's `latency` attribute (ns; >= 0 and finite), if set.
  std::optional<double> latency(LinkId link) const { return attribute(latency_, link); }

 private:
  friend class DotReader;  // builds and checks it (dot_topology.cpp)

  static constexpr LinkId kNoLink = ~LinkId{0};
  struct Entry {
    std::uint32_t host;
    LinkId link;
  };
  /// How a node routes: by its one out-link, by a link per host, by sorted entries, or not at
  /// all (no out-edge, or none listing a host).
  enum class TableKind : std::uint8_t { kNone, kSingle, kDense, kSparse };
  struct Table {
    std::uint64_t offset = 0;  ///< into dense_ (kDense) or sparse_ (kSparse)
    std::uint32_t size = 0;    ///< entries of a sparse table
    TableKind kind = TableKind::kNone;
  };

  DotTopology() = default;
  static std::optional<double> attribute(const std::vector<double>& values, LinkId link);
  /// The link a message for host `host` leaves node `node` by, or kNoLink.
  LinkId next_link(std::uint32_t node, std::uint32_t host) const;
  std::uint32_t tail_of(LinkId link) const;
  /// 1 for the first edge from its tail to its head, 2 for the second, ...
  std::uint32_t parallel_ordinal(LinkId link) const;

  std::string path_;
  std::vector<std::string> names_;           ///< every node, in walk order
  std::vector<std::uint32_t> host_node_;     ///< endpoint -> node
  std::vector<std::uint32_t> first_link_;    ///< node -> its first out-link; one past the end
  std::vector<std::uint32_t> head_;          ///< link -> the node it leads to
  std::vector<Table> tables_;                ///< node -> its routing table
  std::vector<LinkId> dense_;                ///< a host's link (kNoLink: none) per dense table
  std::vector<Entry> sparse_;                ///< sorted by host within each sparse table
  std::vector<double> bandwidth_, latency_;  ///< per link, NaN where unset; empty if undeclared
  int diameter_ = 0;
};

/// DotTopology::read.
inline DotTopology read_dot_topology(const std::string& path) {
  return DotTopology::read(path);
}

}  // namespace collnoise
