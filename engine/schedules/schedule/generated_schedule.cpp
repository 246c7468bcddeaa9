#include "engine/schedules/schedule/generated_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"

namespace collnoise {

GeneratedSchedule::GeneratedSchedule(std::uint32_t ranks, RankFold fold,
                                     std::vector<RankClass> classes,
                                     const std::vector<RankRun>& runs)
    : ranks_(ranks), fold_(fold), classes_(std::move(classes)), class_offset_(classes_.size(), 0) {
  std::uint32_t next_rank = 0;
  for (const RankRun& r : runs) {
    if (r.begin != next_rank || r.end <= r.begin || r.period == 0 ||
        r.first_class + r.period > classes_.size())
      throw RuntimeFailure("a generated schedule's layout does not cover its ranks in order");
    Run run{r, operations_, 0};
    for (std::uint32_t j = 0; j < r.period; ++j) {
      class_offset_[r.first_class + j] = run.period_ops;
      run.period_ops += classes_[r.first_class + j].program.ops_of(0);
    }
    const std::uint32_t n = r.end - r.begin;
    operations_ += std::uint64_t{n / r.period} * run.period_ops;
    for (std::uint32_t j = 0; j < n % r.period; ++j)
      operations_ += classes_[r.first_class + j].program.ops_of(0);
    runs_.push_back(run);
    next_rank = r.end;
  }
  if (next_rank != ranks_)
    throw RuntimeFailure("a generated schedule's layout does not cover its ranks in order");
  for (const RankClass& c : classes_) {
    cpus_ = std::max(cpus_, c.program.cpus());
    nics_ = std::max(nics_, c.program.nics());
  }
}

GeneratedSchedule::GeneratedSchedule(std::uint32_t ranks, std::vector<RankClass> classes,
                                     std::vector<std::uint32_t> class_of)
    : ranks_(ranks),
      classes_(std::move(classes)),
      class_offset_(classes_.size(), 0),
      class_of_(std::move(class_of)) {
  if (class_of_.size() != ranks_ || ranks_ == 0)
    throw RuntimeFailure("a generated schedule's table does not cover its ranks");
  first_of_.reserve(ranks_);
  for (const std::uint32_t c : class_of_) {
    if (c >= classes_.size())
      throw RuntimeFailure("a generated schedule's table names a class it does not have");
    first_of_.push_back(operations_);
    operations_ += classes_[c].program.ops_of(0);
  }
  for (const RankClass& c : classes_) {
    cpus_ = std::max(cpus_, c.program.cpus());
    nics_ = std::max(nics_, c.program.nics());
  }
}

std::uint64_t GeneratedSchedule::memory_bytes() const {
  std::uint64_t bytes = sizeof(*this) + runs_.capacity() * sizeof(Run) +
                        class_offset_.capacity() * sizeof(std::uint64_t) +
                        class_of_.capacity() * sizeof(std::uint32_t) +
                        first_of_.capacity() * sizeof(std::uint64_t);
  for (const RankClass& c : classes_)
    bytes += c.program.memory_bytes() + c.peers.capacity() * sizeof(PeerRule);
  return bytes;
}

std::uint64_t GeneratedSchedule::ready_at_start() const {
  std::vector<std::uint64_t> ready(classes_.size(), 0);
  for (std::size_t c = 0; c < classes_.size(); ++c)
    for (std::uint32_t k = 0; k < classes_[c].program.ops_of(0); ++k)
      ready[c] += classes_[c].program.dependencies(k) == 0;
  std::uint64_t total = 0;
  if (!class_of_.empty()) {
    for (const std::uint32_t c : class_of_) total += ready[c];
    return total;
  }
  for (const Run& run : runs_) {
    const std::uint32_t n = run.ranks.end - run.ranks.begin;
    for (std::uint32_t j = 0; j < run.ranks.period; ++j)
      total += ready[run.ranks.first_class + j] *
               (n / run.ranks.period + (j < n % run.ranks.period ? 1U : 0U));
  }
  return total;
}

Schedule GeneratedSchedule::materialize() const {
  ScheduleBuilder b;
  for (std::uint32_t r = 0; r < ranks_; ++r) b.append_rank(view(r));
  return b.finish();
}

}  // namespace collnoise
