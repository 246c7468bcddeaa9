#include "engine/network/xgft.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {

Xgft::Xgft(std::vector<std::uint32_t> m, std::vector<std::uint32_t> w, const std::string& what)
    : h_(static_cast<int>(m.size())), m_(std::move(m)), w_(std::move(w)) {
  if (h_ < 1 || h_ > kMaxHeight)
    throw InputError(
        fmt::format("{}: an XGFT needs a height of 1 to {}, got {}", what, kMaxHeight, h_));
  if (w_.size() != m_.size())
    throw InputError(
        fmt::format("{}: XGFT(h; m_1..m_h; w_1..w_h) needs h values of m and of w, "
                    "got {} and {}",
                    what, m_.size(), w_.size()));
  for (int j = 0; j < h_; ++j)
    if (m_[static_cast<std::size_t>(j)] < 1 || w_[static_cast<std::size_t>(j)] < 1)
      throw InputError(fmt::format("{}: XGFT arities must be >= 1 (m_{} = {}, w_{} = {})", what,
                                   j + 1, m_[static_cast<std::size_t>(j)], j + 1,
                                   w_[static_cast<std::size_t>(j)]));
  w_product_.assign(1, 1);
  for (int l = 0; l < h_; ++l)
    w_product_.push_back(w_product_.back() * w_[static_cast<std::size_t>(l)]);
  for (int l = 0; l <= h_; ++l) {
    long double n = 1;
    for (int j = 0; j < h_; ++j)
      n *= j < l ? w_[static_cast<std::size_t>(j)] : m_[static_cast<std::size_t>(j)];
    if (n > 1e9L)
      throw InputError(fmt::format("{}: the XGFT is too large (over 1e9 nodes a level)", what));
    nodes_.push_back(static_cast<std::uint64_t>(n));
  }
  for (int l = 0; l < h_; ++l) {
    cable_base_.push_back(cables_);
    cables_ += nodes_[static_cast<std::size_t>(l)] * w_[static_cast<std::size_t>(l)];
  }
  if (2 * cables_ >= (std::uint64_t{1} << 32))
    throw InputError(fmt::format("{}: the XGFT has too many links (at most 2^32)", what));
}

std::string Xgft::describe() const {
  return fmt::format("XGFT({}; {}; {})", h_, fmt::join(m_, ","), fmt::join(w_, ","));
}

std::uint64_t Xgft::switches() const {
  std::uint64_t s = 0;
  for (int l = 1; l <= h_; ++l) s += nodes_[static_cast<std::size_t>(l)];
  return s;
}

int Xgft::diameter() const {
  // Endpoints that differ in the top digit meet at level h (when m_h > 1).
  for (int l = h_; l >= 1; --l)
    if (m_[static_cast<std::size_t>(l - 1)] > 1) return 2 * l;
  return 0;
}

std::uint64_t Xgft::index_at(int level, const Digits& d) const {
  std::uint64_t index = 0;
  for (int j = h_ - 1; j >= 0; --j) {
    const std::uint32_t radix =
        j < level ? w_[static_cast<std::size_t>(j)] : m_[static_cast<std::size_t>(j)];
    index = index * radix + d[static_cast<std::size_t>(j)];
  }
  return index;
}

// Cable c between levels l and l+1 is (lower node, its up-port); link 2c goes up, 2c+1 down.
LinkId Xgft::up_link(int level, std::uint64_t lower, std::uint32_t port) const {
  const auto l = static_cast<std::size_t>(level);
  return static_cast<LinkId>(2 * (cable_base_[l] + lower * w_[l] + port));
}
LinkId Xgft::down_link(int level, std::uint64_t lower, std::uint32_t port) const {
  return up_link(level, lower, port) + 1;
}

std::size_t Xgft::route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const {
  // A level-l node (u_1..u_l, x_(l+1)..x_h) has index U_l + W_l X_l, U_l the mixed-radix value of
  // its w-digits, W_l = w_1..w_l, and X_l that of its m-digits x_(l+1)..x_h. Keeping U and the
  // suffixes X of source and destination makes every hop a multiply-add.
  Digits s{}, d{};
  std::array<std::uint64_t, kMaxHeight + 1> s_suffix{}, d_suffix{};
  // Endpoints are below 2^32 (checked at construction): 32-bit divisions are cheaper.
  auto a = static_cast<std::uint32_t>(src);
  auto b = static_cast<std::uint32_t>(dst);
  for (int j = 0; j < h_; ++j) {
    const auto radix = m_[static_cast<std::size_t>(j)];
    s[static_cast<std::size_t>(j)] = static_cast<std::uint32_t>(a % radix);
    d[static_cast<std::size_t>(j)] = static_cast<std::uint32_t>(b % radix);
    a /= radix;
    b /= radix;
  }
  for (int j = h_ - 1; j >= 0; --j) {
    const auto radix = m_[static_cast<std::size_t>(j)];
    s_suffix[static_cast<std::size_t>(j)] =
        s_suffix[static_cast<std::size_t>(j) + 1] * radix + s[static_cast<std::size_t>(j)];
    d_suffix[static_cast<std::size_t>(j)] =
        d_suffix[static_cast<std::size_t>(j) + 1] * radix + d[static_cast<std::size_t>(j)];
  }
  int top = 0;  // lowest level above which the labels agree
  for (int j = h_ - 1; j >= 0; --j)
    if (s[static_cast<std::size_t>(j)] != d[static_cast<std::size_t>(j)]) {
      top = j + 1;
      break;
    }
  std::array<std::uint64_t, kMaxHeight + 1> u_prefix{};  // U_l along the way up
  std::array<std::uint32_t, kMaxHeight> ports{};
  auto quotient = static_cast<std::uint32_t>(dst);  // floor(dst / W_l)
  for (int l = 0; l < top; ++l) {  // up: digit l+1 becomes the chosen port (D-mod-K)
    const auto lu = static_cast<std::size_t>(l);
    const std::uint32_t port = quotient % w_[lu];
    ports[lu] = port;
    quotient /= w_[lu];
    path[lu] = up_link(l, u_prefix[lu] + w_product_[lu] * s_suffix[lu], port);
    u_prefix[lu + 1] = u_prefix[lu] + w_product_[lu] * port;
  }
  // Down: from level l+1 to l, the lower node keeps the ports below l and takes the
  // destination's digits from l+1 on; the cable's up-port is the port chosen at level l.
  for (int l = top - 1; l >= 0; --l) {
    const auto lu = static_cast<std::size_t>(l);
    path[static_cast<std::size_t>(2 * top - 1 - l)] =
        down_link(l, u_prefix[lu] + w_product_[lu] * d_suffix[lu], ports[lu]);
  }
  return static_cast<std::size_t>(2 * top);
}

std::string Xgft::link_name(LinkId link) const {
  const std::uint64_t cable = link / 2;
  std::size_t l = cable_base_.size() - 1;  // the levels l, l+1 the cable joins
  while (l > 0 && cable_base_[l] > cable) --l;
  const std::uint64_t at = cable - cable_base_[l];
  const std::uint64_t lower = at / w_[l];
  const auto port = static_cast<std::uint32_t>(at % w_[l]);
  // The upper node has the lower one's digits but digit l+1, which is the port: its index keeps
  // the lower's w-digits below and m-digits above it (index_at).
  const std::uint64_t below = lower % w_product_[l];
  const std::uint64_t above = lower / w_product_[l] / m_[l];
  const std::uint64_t upper = below + w_product_[l] * port + w_product_[l + 1] * above;
  const auto node = [](std::size_t level, std::uint64_t index) {
    return level == 0 ? fmt::format("endpoint {}", index)
                      : fmt::format("level-{} switch {}", level, index);
  };
  if (link % 2 == 0)
    return fmt::format("up: {} -> {} (up-port {})", node(l, lower), node(l + 1, upper), port);
  return fmt::format("down: {} -> {} (up-port {})", node(l + 1, upper), node(l, lower), port);
}

}  // namespace collnoise
