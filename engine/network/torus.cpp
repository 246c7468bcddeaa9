#include "engine/network/torus.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {

Torus::Torus(std::uint32_t k, std::uint32_t n, const std::string& what)
    : k_(k), n_(n), endpoints_(1) {
  if (k < 2 || n < 1)
    throw InputError(
        fmt::format("{}: a k-ary n-cube needs k >= 2 and n >= 1, got k = {}, n = {}", what, k, n));
  for (std::uint32_t i = 0; i < n; ++i) {
    endpoints_ *= k;
    if (endpoints_ > (std::uint64_t{1} << 30))
      throw InputError(fmt::format("{}: the torus is too large (over 2^30 endpoints)", what));
  }
}

std::string Torus::describe() const {
  return fmt::format("{}-ary {}-cube", k_, n_);
}

std::string Torus::family() const {
  return fmt::format("{}-D torus", n_);
}

std::uint64_t Torus::links() const {
  // One cable each way round each ring position; a ring of two has a single cable.
  return endpoints_ * n_ * (k_ == 2 ? 1 : 2);
}

std::size_t Torus::route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const {
  std::size_t hops = 0;
  std::uint64_t here = src;
  std::uint64_t place = 1;  // k^dim
  for (std::uint32_t dim = 0; dim < n_; ++dim, place *= k_) {
    const auto a = static_cast<std::uint32_t>((here / place) % k_);
    const auto b = static_cast<std::uint32_t>((dst / place) % k_);
    const std::uint32_t forward = (b + k_ - a) % k_;  // steps in the positive direction
    const bool negative = forward > k_ - forward;     // ties go the positive way
    const std::uint32_t steps = negative ? k_ - forward : forward;
    std::uint32_t digit = a;
    for (std::uint32_t s = 0; s < steps; ++s) {
      // For k = 2 both directions share the one cable: record it as the positive link.
      path[hops++] = link(here, dim, negative && k_ > 2);
      const std::uint32_t next = negative ? (digit + k_ - 1) % k_ : (digit + 1) % k_;
      here = here - static_cast<std::uint64_t>(digit) * place +
             static_cast<std::uint64_t>(next) * place;
      digit = next;
    }
  }
  return hops;
}

std::string Torus::link_name(LinkId link) const {
  const std::uint64_t e = link / 2 / n_;
  const auto dim = static_cast<std::uint32_t>(link / 2 % n_);
  const bool negative = link % 2 == 1;
  std::uint64_t place = 1;  // k^dim
  for (std::uint32_t d = 0; d < dim; ++d) place *= k_;
  const auto digit = static_cast<std::uint32_t>(e / place % k_);
  const std::uint32_t next = negative ? (digit + k_ - 1) % k_ : (digit + 1) % k_;
  const std::uint64_t to = e - std::uint64_t{digit} * place + std::uint64_t{next} * place;
  return fmt::format("endpoint {} -> {} (dimension {}, {})", e, to, dim, negative ? "-" : "+");
}

}  // namespace collnoise
