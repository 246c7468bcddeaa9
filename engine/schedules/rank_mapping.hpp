#pragma once
// A rank mapping file (network.mapping; docs/models/schedules.md, "Near and far rank pairs"):
// where each rank runs, one line per rank, `rank node switch` (whole numbers separated by spaces
// or tabs); '#' starts a comment, blank lines are skipped. Every rank from 0 to the largest
// listed appears once, and a node sits on one switch. Kept apart from its one use (the near and
// far classes take the switches) so that a model of the network's links can read more of it.
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise {

struct RankMapping {
  std::vector<std::uint32_t> node_of;    ///< by rank
  std::vector<std::uint32_t> switch_of;  ///< by rank
  std::string path;                      ///< the file read
};

/// The largest rank, node or switch id a mapping may name (the engine takes 2^30 ranks).
inline constexpr std::uint64_t kMaxMappingId = (std::uint64_t{1} << 30) - 1;

/// Reads a mapping file. InputError naming the file, and `file:line` with the line's text for a
/// line that is not three whole numbers up to kMaxMappingId, a rank listed twice (naming the
/// line that listed it first) or a node on a second switch; naming the file for a file without
/// ranks or a rank missing below the largest listed.
RankMapping read_rank_mapping(const std::string& path);

}  // namespace collnoise
