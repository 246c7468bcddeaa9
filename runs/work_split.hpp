#pragma once
// Who samples which chunks (docs/models/streams.md). A point's chunks are split into contiguous,
// disjoint shares: first among the parts of a job array (--part i/n), then among the MPI processes
// that run one part. The results depend only on which chunks were done, so any split gives the same
// bits once the shares are merged.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace collnoise {

/// Part `index` of `count` (1-based) of a job array; 1/1 is the whole run.
struct PartSpec {
  std::uint64_t index = 1;
  std::uint64_t count = 1;
  bool whole() const { return count == 1; }
  bool operator==(const PartSpec&) const = default;
};

/// Parses "i/n" with 1 <= i <= n. InputError naming the text otherwise.
PartSpec parse_part(const std::string& text);
std::string to_string(const PartSpec& part);

/// Chunks [begin, end) of the part, out of `chunks`: part i takes [floor((i-1)C/n), floor(iC/n)).
struct ChunkRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool contains(std::uint64_t c) const { return c >= begin && c < end; }
};
ChunkRange part_range(std::uint64_t chunks, const PartSpec& part);

/// The contiguous share of process `rank` of `size` in a list of chunks: the first
/// (k mod size) processes take one more.
std::span<const std::uint64_t> process_share(std::span<const std::uint64_t> chunks, int rank,
                                             int size);

}  // namespace collnoise
