#pragma once
// A rank mapping file (network.mapping; docs/models/schedules.md, "Near and far rank pairs"):
// where each rank runs, one line per rank, `rank node switch` or `rank node switch endpoint`
// (whole numbers separated by spaces or tabs; every line the same), the endpoint being the
// node's on a topology (docs/models/contention.md, "Topologies and placement"); '#' starts a
// comment, blank lines are skipped. Every rank from 0 to the largest listed appears once, and a
// node sits on one switch and one endpoint. Kept apart from its one use (the near and
// far classes take the switches) so that a model of the network's links can read more of it.
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise {

struct RankMapping {
  std::vector<std::uint32_t> node_of;      ///< by rank
  std::vector<std::uint32_t> switch_of;    ///< by rank
  std::vector<std::uint32_t> endpoint_of;  ///< by rank; empty for a file of three columns
  std::string path;                        ///< the file read
};

/// The largest rank, node or switch id a mapping may name (the engine takes 2^30 ranks).
inline constexpr std::uint64_t kMaxMappingId = (std::uint64_t{1} << 30) - 1;

/// Reads a mapping file. InputError naming the file, and `file:line` with the line's text for a
/// line that is not three (or, like the first line, four) whole numbers up to kMaxMappingId, a
/// rank listed twice (naming the line that listed it first) or a node on a second switch or
/// endpoint; naming the file for a file without ranks or a rank missing below the largest
/// listed.
RankMapping read_rank_mapping(const std::string& path);

}  // namespace collnoise
