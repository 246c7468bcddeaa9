#pragma once
// A point's tally in a result (or part, or checkpoint) file: the per-chunk accumulators that
// make merging exact, the folded totals for readers, histograms and top values (layout:
// docs/hdf5-layout.md).
#include "estimators/tally.hpp"
#include "outputs/hdf5.hpp"

namespace collnoise {

/// Writes `tally` under `group` (which it fills with datasets and subgroups).
void write_tally(const h5::Group& group, const Tally& tally, std::uint64_t chunk_size);

/// Reads a tally written by write_tally into an empty tally of the expected layout. InputError
/// naming `where` if the stored metrics, pairs or histogram edges differ from the layout's.
Tally read_tally(const h5::Group& group, const TallyLayout& layout, const std::string& where);

}  // namespace collnoise
