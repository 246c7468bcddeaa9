#include "estimators/tally.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {

Tally::Tally(TallyLayout layout) : layout_(std::move(layout)) {
  layout_.top_capacity.resize(layout_.metrics.size(), 0);
  histograms_ = layout_.histograms;
  for (std::size_t capacity : layout_.top_capacity) tops_.emplace_back(capacity);
}

void Tally::add_chunk(std::uint64_t index, std::span<const double> rows) {
  const std::size_t width = layout_.metrics.size();
  ChunkTally chunk;
  chunk.metrics.resize(width);
  chunk.pairs.resize(layout_.pairs.size());
  const std::size_t count = width == 0 ? 0 : rows.size() / width;
  for (std::size_t s = 0; s < count; ++s) {
    const double* row = rows.data() + s * width;
    for (std::size_t m = 0; m < width; ++m) {
      chunk.metrics[m].add(row[m]);
      tops_[m].add(row[m]);
    }
    for (std::size_t p = 0; p < layout_.pairs.size(); ++p)
      chunk.pairs[p].add(row[layout_.pairs[p].first], row[layout_.pairs[p].second]);
    for (auto& h : histograms_)
      if (h.metric) h.histogram.add(row[*h.metric]);
    if (layout_.keep_raw) chunk.raw.push_back(row[0]);
  }
  insert_chunk(index, std::move(chunk));
}

void Tally::insert_chunk(std::uint64_t index, ChunkTally chunk) {
  if (!chunks_.emplace(index, std::move(chunk)).second)
    throw RuntimeFailure(fmt::format("chunk {} was tallied twice", index));
}

void Tally::merge_order_free(const Tally& other) {
  if (other.histograms_.size() != histograms_.size() || other.tops_.size() != tops_.size())
    throw RuntimeFailure("cannot merge tallies of different layouts");
  for (std::size_t h = 0; h < histograms_.size(); ++h)
    histograms_[h].histogram.merge(other.histograms_[h].histogram);
  for (std::size_t m = 0; m < tops_.size(); ++m) tops_[m].merge(other.tops_[m]);
}

void Tally::refuse_overlap(const Tally& other) const {
  for (const auto& entry : other.chunks_)
    if (chunks_.contains(entry.first))
      throw RuntimeFailure(fmt::format("chunk {} was tallied twice", entry.first));
}

void Tally::merge(const Tally& other) {
  // Refuse before touching anything, so a failed merge leaves this tally as it was.
  refuse_overlap(other);
  merge_order_free(other);
  for (const auto& [index, chunk] : other.chunks_) insert_chunk(index, chunk);
}

void Tally::merge(Tally&& other) {
  refuse_overlap(other);
  merge_order_free(other);
  chunks_.merge(other.chunks_);
}

std::vector<Histogram*> Tally::extra_histograms() {
  std::vector<Histogram*> extras;
  for (auto& h : histograms_)
    if (!h.metric) extras.push_back(&h.histogram);
  return extras;
}

std::size_t Tally::metric_index(const std::string& name) const {
  for (std::size_t m = 0; m < layout_.metrics.size(); ++m)
    if (layout_.metrics[m] == name) return m;
  throw RuntimeFailure(fmt::format("no metric '{}' in this tally", name));
}

Accumulator Tally::total(std::size_t metric) const {
  Accumulator acc;
  for (const auto& [index, chunk] : chunks_) acc.merge(chunk.metrics[metric]);
  return acc;
}

CoMoment Tally::pair_total(std::size_t pair) const {
  CoMoment c;
  for (const auto& [index, chunk] : chunks_) c.merge(chunk.pairs[pair]);
  return c;
}

std::vector<double> Tally::raw() const {
  std::vector<double> values;
  for (const auto& [index, chunk] : chunks_)
    values.insert(values.end(), chunk.raw.begin(), chunk.raw.end());
  return values;
}

std::uint64_t Tally::samples() const {
  std::uint64_t n = 0;
  for (const auto& [index, chunk] : chunks_)
    if (!chunk.metrics.empty()) n += chunk.metrics[0].count;
  return n;
}

const Histogram* Tally::histogram_of(std::size_t metric) const {
  for (const auto& h : histograms_)
    if (h.metric == metric) return &h.histogram;
  return nullptr;
}

const Histogram* Tally::histogram_named(const std::string& name) const {
  for (const auto& h : histograms_)
    if (h.name == name) return &h.histogram;
  return nullptr;
}

}  // namespace collnoise
