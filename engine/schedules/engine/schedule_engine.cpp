#include "engine/schedules/engine/schedule_engine.hpp"

#include "engine/schedules/engine/schedule_engine_impl.hpp"

namespace collnoise {

ScheduleEngineMemory::ScheduleEngineMemory()
    : buffers_(std::make_unique<schedule_detail::EngineBuffers>()) {}
ScheduleEngineMemory::~ScheduleEngineMemory() = default;
ScheduleEngineMemory::ScheduleEngineMemory(ScheduleEngineMemory&&) noexcept = default;
ScheduleEngineMemory& ScheduleEngineMemory::operator=(ScheduleEngineMemory&&) noexcept = default;

std::size_t ScheduleEngineMemory::bytes() const {
  const schedule_detail::EngineBuffers& b = *buffers_;
  return (b.rank_lines.capacity() + b.counter_lines.capacity()) *
             sizeof(schedule_detail::CacheLine) +
         b.matches.capacity_bytes() + b.queue.capacity_bytes() +
         b.fresh.capacity() * sizeof(b.fresh[0]);
}

void ScheduleEngineMemory::on_progress(std::function<void(std::uint64_t events)> report) {
  buffers_->on_progress = std::move(report);
}

double estimated_engine_bytes(double ranks, double operations, double ready_at_start) {
  // The queue takes its blocks 2 MiB at a time.
  constexpr double kQueueSlabs = 4.0 * 1024 * 1024;
  // Operations ready at the start are listed as they are read, not queued; the receives among
  // them wait in the match lists (16 bytes each, twice that while their array grows).
  return 4.0 * operations + 144.0 * ranks + 32.0 * ready_at_start + kQueueSlabs;
}

}  // namespace collnoise
