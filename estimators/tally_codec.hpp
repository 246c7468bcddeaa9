#pragma once
// A tally as bytes, for moving it between MPI processes: chunks (accumulators, co-moments, raw
// values), histogram counts and top values, exactly (doubles as their bits). The layout itself is
// not encoded: both ends build it from the same run file.
#include <cstddef>
#include <span>
#include <vector>

#include "estimators/tally.hpp"

namespace collnoise {

std::vector<std::byte> encode_tally(const Tally& tally);

/// Adds an encoded tally into `into` (same layout). RuntimeFailure if the bytes do not fit the
/// layout or repeat a chunk `into` already holds.
void merge_encoded_tally(Tally& into, std::span<const std::byte> bytes);

}  // namespace collnoise
