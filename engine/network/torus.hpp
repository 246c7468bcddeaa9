#pragma once
// k-ary n-cube tori (docs/models/network.md): endpoint numbers have n base-k digits; endpoints
// whose numbers differ by one (mod k) in exactly one digit are linked, one directed link each way
// (for k = 2 the two neighbours coincide: one cable). Routes are dimension order, lowest digit
// first, each dimension along the shorter way round its ring, ties to the positive direction. The
// endpoints are the routers: there are no switches, and injection links are not modelled (no two
// messages of one round share an endpoint's injection or ejection).
#include "engine/network/topology.hpp"

namespace collnoise {

class Torus final : public Topology {
 public:
  /// Preconditions (checked: InputError naming `what`): k >= 2, n >= 1, k^n <= 2^30.
  Torus(std::uint32_t k, std::uint32_t n, const std::string& what);

  std::string describe() const override;
  std::string family() const override;
  std::uint64_t endpoints() const override { return endpoints_; }
  std::uint64_t switches() const override { return 0; }
  std::uint64_t links() const override;
  std::uint64_t link_id_bound() const override { return 2 * endpoints_ * n_; }
  int diameter() const override { return static_cast<int>(n_ * (k_ / 2)); }
  std::size_t route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const override;
  /// "endpoint 5 -> 6 (dimension 0, +)": the link from an endpoint to its neighbour one step
  /// along a dimension's ring, in the + or - direction (for k = 2 the one cable is "+").
  std::string link_name(LinkId link) const override;

 private:
  // Link of endpoint e in dimension dim, direction + (0) or - (1).
  LinkId link(std::uint64_t e, std::uint32_t dim, bool negative) const {
    return static_cast<LinkId>((e * n_ + dim) * 2 + (negative ? 1 : 0));
  }

  std::uint32_t k_, n_;
  std::uint64_t endpoints_;
};

}  // namespace collnoise
