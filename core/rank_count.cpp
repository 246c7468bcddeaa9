#include "core/rank_count.hpp"

#include <algorithm>

namespace collnoise {

std::string to_string(RankCount n) {
  if (n == 0) return "0";
  std::string digits;
  while (n > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::optional<RankCount> parse_rank_count(std::string_view text) {
  if (text.empty()) return std::nullopt;
  RankCount value = 0;
  const RankCount max = ~RankCount{0};
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<unsigned>(c - '0');
    if (value > (max - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

double to_double(RankCount n) {
  const auto hi = static_cast<std::uint64_t>(n >> 64);
  const auto lo = static_cast<std::uint64_t>(n);
  return static_cast<double>(hi) * 0x1.0p64 + static_cast<double>(lo);
}

int floor_log2(RankCount n) {
  const auto hi = static_cast<std::uint64_t>(n >> 64);
  if (hi != 0) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<std::uint64_t>(n));
}

}  // namespace collnoise
