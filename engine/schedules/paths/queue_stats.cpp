#include "engine/schedules/paths/queue_stats.hpp"

#include <numeric>

// The engine instances of a replay that samples the queues (engine/schedules/engine/noisy_run.hpp
// says why each observer's are compiled in a file of their own).
#include "engine/schedules/engine/noisy_run_impl.hpp"

namespace collnoise {
namespace {

// One sample of a queue holding `length` entries.
void count(QueueLengths& q, std::uint64_t length) {
  if (q.histogram.size() <= length) q.histogram.resize(length + 1, 0);
  ++q.histogram[length];
}

}  // namespace

std::uint64_t QueueLengths::samples() const {
  return std::accumulate(histogram.begin(), histogram.end(), std::uint64_t{0});
}

double QueueLengths::mean() const {
  // From the histogram's exact integer sums: the same bits however the samples came.
  std::uint64_t n = 0, sum = 0;
  for (std::size_t length = 0; length < histogram.size(); ++length) {
    n += histogram[length];
    sum += histogram[length] * length;
  }
  return n == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(n);
}

void QueueStatsRecorder::begin(std::uint32_t ranks, std::uint32_t, std::uint32_t) {
  ranks_.assign(ranks, RankQueueLengths{});
  posted_now_.assign(ranks, 0);
  unexpected_now_.assign(ranks, 0);
}

void QueueStatsRecorder::message(const MessageSeen& m) {
  // LogGOPSim records the posted queue's size before it searches it for this message.
  count(ranks_[m.host].posted, posted_now_[m.host]);
  if (m.matched)
    --posted_now_[m.host];
  else
    ++unexpected_now_[m.host];
}

void QueueStatsRecorder::receive(const ReceiveSeen& r) {
  // LogGOPSim records the unexpected queue's size before the receive searches it.
  count(ranks_[r.host].unexpected, unexpected_now_[r.host]);
  if (r.matched)
    --unexpected_now_[r.host];
  else
    ++posted_now_[r.host];
}

template ScheduleRun run_noisy<Schedule, QueueReplayObservers>(const Schedule&, const ScheduleNet&,
                                                               const ScheduleNoiseSpec&, NoiseKeys,
                                                               ScheduleEngineMemory&,
                                                               QueueReplayObservers&,
                                                               std::span<const double>);
template ScheduleRun run_noisy<GeneratedSchedule, QueueReplayObservers>(
    const GeneratedSchedule&, const ScheduleNet&, const ScheduleNoiseSpec&, NoiseKeys,
    ScheduleEngineMemory&, QueueReplayObservers&, std::span<const double>);

}  // namespace collnoise
