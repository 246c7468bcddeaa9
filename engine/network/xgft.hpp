#pragma once
// Extended generalized fat-trees XGFT(h; m_1..m_h; w_1..w_h) (Öhring et al.;
// docs/models/network.md). A node at level l (0 = endpoints) has a label of h digits: digit j
// ranges over m_j for j > l and over w_j for j <= l. Nodes at levels l and l+1 are linked iff their
// labels agree in every digit but digit l+1. Routes go up to the lowest level L at which source and
// destination agree on all digits above L, choosing at level l the up-port floor(d / (w_1 ... w_l))
// mod w_(l+1) for destination endpoint index d (D-mod-K), then down along the unique path. Endpoint
// index: d = d_1 + m_1 (d_2 + m_2 (d_3 + ...)).
#include <array>
#include <vector>

#include "engine/network/topology.hpp"

namespace collnoise {

class Xgft final : public Topology {
 public:
  static constexpr int kMaxHeight = 8;

  /// Preconditions (checked: InputError naming `what`): 1 <= h <= 8, m_j >= 1, w_j >= 1, sizes
  /// within 2^32 links.
  Xgft(std::vector<std::uint32_t> m, std::vector<std::uint32_t> w, const std::string& what);

  std::string describe() const override;
  std::string family() const override { return "fat-tree"; }
  std::uint64_t endpoints() const override { return nodes_[0]; }
  std::uint64_t switches() const override;
  std::uint64_t links() const override { return 2 * cables_; }
  int diameter() const override;
  std::size_t route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const override;
  /// "up: endpoint 5 -> level-1 switch 2 (up-port 1)", "down: level-2 switch 0 -> level-1
  /// switch 3 (up-port 0)": the cable's lower and upper node, by their index among their
  /// level's nodes, and the lower node's up-port it takes.
  std::string link_name(LinkId link) const override;

  int height() const { return h_; }
  /// Nodes at level l.
  std::uint64_t nodes_at(int level) const { return nodes_[static_cast<std::size_t>(level)]; }

 private:
  using Digits = std::array<std::uint32_t, kMaxHeight>;
  /// Index of a level-l node among that level's nodes (mixed radix of its digits).
  std::uint64_t index_at(int level, const Digits& digits) const;
  LinkId up_link(int level, std::uint64_t lower, std::uint32_t port) const;
  LinkId down_link(int level, std::uint64_t lower, std::uint32_t port) const;

  int h_;
  std::vector<std::uint32_t> m_, w_;
  std::vector<std::uint64_t> nodes_;       ///< per level 0..h
  std::vector<std::uint64_t> w_product_;   ///< w_1 ... w_l, l = 0..h
  std::vector<std::uint64_t> cable_base_;  ///< first cable between levels l and l+1
  std::uint64_t cables_ = 0;
};

}  // namespace collnoise
