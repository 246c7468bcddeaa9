#pragma once
// The chunk loop shared by every sampled model (docs/models/streams.md). A point's samples are cut
// into chunks of a fixed size; chunk c holds samples [c * size, (c + 1) * size) and is simulated
// and tallied as a unit, so the result of a point depends only on which chunks were done, never on
// who did them: threads, MPI processes, job-array parts or interrupted sittings.
#include <cstdint>
#include <vector>

#include "engine/study.hpp"
#include "runs/run_file.hpp"
#include "runs/work_split.hpp"

namespace collnoise {

/// Chunk size and count of a point.
struct ChunkPlan {
  std::uint64_t chunk_size = 1;
  std::uint64_t samples = 0;
  std::uint64_t chunks() const { return (samples + chunk_size - 1) / chunk_size; }
  /// Samples in chunk c.
  std::uint64_t count(std::uint64_t c) const {
    return std::min(chunk_size, samples - c * chunk_size);
  }
};

ChunkPlan chunk_plan(const RunSpec& run, const SampledStudy& study);

/// An empty tally of the point's layout.
Tally empty_tally(const RunSpec& run, const SampledStudy& study);

/// Simulates and tallies the given chunks, in order, into `tally`. `progress` receives the
/// number of samples done in this call so far.
void sample_chunks(const SampledStudy& study, const ChunkPlan& plan,
                   const std::vector<std::uint64_t>& chunks, int threads, Tally& tally,
                   const SampleProgress& progress = {});

/// Samples in chunks [range.begin, range.end) of the plan (a part's share of a point).
std::uint64_t samples_in(const ChunkPlan& plan, const ChunkRange& range);

/// Every chunk of the point.
std::vector<std::uint64_t> all_chunks(const ChunkPlan& plan);

}  // namespace collnoise
