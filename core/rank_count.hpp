#pragma once
// Rank counts beyond 64 bits: the per-level path handles trees up to 2^127 ranks (N_1/2 of 1%
// exponential noise lies near 2^91), so counts are unsigned 128-bit integers.
#include <optional>
#include <string>
#include <string_view>

namespace collnoise {

__extension__ using RankCount = unsigned __int128;

/// Exact decimal text of a count.
std::string to_string(RankCount n);
/// Parses a non-empty string of decimal digits; nullopt on any other text or overflow.
std::optional<RankCount> parse_rank_count(std::string_view text);
/// Nearest double.
double to_double(RankCount n);
/// 2^k for 0 <= k <= 127.
constexpr RankCount pow2(int k) {
  return RankCount{1} << k;
}
/// floor(log2(n)) for n >= 1.
int floor_log2(RankCount n);

}  // namespace collnoise
