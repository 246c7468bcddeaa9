#include "runs/sampling_driver.hpp"

#include <algorithm>
#include <numeric>

namespace collnoise {

ChunkPlan chunk_plan(const RunSpec& run, const SampledStudy& study) {
  ChunkPlan plan;
  plan.chunk_size = run.chunk_size > 0 ? run.chunk_size : study.default_chunk_size();
  plan.samples = run.samples;
  return plan;
}

std::uint64_t samples_in(const ChunkPlan& plan, const ChunkRange& range) {
  const auto end_of = [&](std::uint64_t chunk) {
    return std::min(plan.samples, chunk * plan.chunk_size);
  };
  return range.end > range.begin ? end_of(range.end) - end_of(range.begin) : 0;
}

Tally empty_tally(const RunSpec& run, const SampledStudy& study) {
  TallyLayout layout = study.layout(run.output.histogram_bins, run.output.histogram_spacing);
  layout.keep_raw = run.output.raw_samples;
  return Tally(std::move(layout));
}

std::vector<std::uint64_t> all_chunks(const ChunkPlan& plan) {
  std::vector<std::uint64_t> chunks(plan.chunks());
  std::iota(chunks.begin(), chunks.end(), std::uint64_t{0});
  return chunks;
}

void sample_chunks(const SampledStudy& study, const ChunkPlan& plan,
                   const std::vector<std::uint64_t>& chunks, int threads, Tally& tally,
                   const SampleProgress& progress) {
  const std::size_t width = tally.layout().metrics.size();
  std::vector<double> rows;
  const std::vector<Histogram*> extra = tally.extra_histograms();
  // A chunk counts into its own copies of the extra histograms, added to the tally only when it
  // is complete: a chunk abandoned half way (a stop request) leaves no trace.
  std::vector<Histogram> chunk_extra;
  std::vector<Histogram*> chunk_targets;
  for (const Histogram* h : extra) chunk_extra.push_back(*h);
  for (auto& h : chunk_extra) chunk_targets.push_back(&h);
  std::uint64_t done = 0;
  for (const std::uint64_t c : chunks) {
    const std::uint64_t count = plan.count(c);
    rows.assign(count * width, 0.0);
    for (auto& h : chunk_extra) h.clear();
    study.simulate(c * plan.chunk_size, rows, chunk_targets, threads);
    for (std::size_t h = 0; h < extra.size(); ++h) extra[h]->merge(chunk_extra[h]);
    tally.add_chunk(c, rows);
    done += count;
    if (progress) progress(done);
  }
}

}  // namespace collnoise
