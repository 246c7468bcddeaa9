#pragma once
// Match-queue statistics of one replayed schedule sample (docs/timelines.md, "Match-queue
// statistics"): per rank, the length of its posted-receive queue and of its unexpected-message
// queue, sampled as LogGOPSim's --qstat samples them (its LIST_MATCH build):
//   - the unexpected queue's length at every receive the rank posts, before the receive searches
//     it (so before the message it takes leaves it, and whether or not it takes one);
//   - the posted queue's length at every message the rank takes in (when its CPU and NIC are free
//     and the message has left the network: the moment it is matched), before the message
//     searches it.
// A wildcard receive (any source, any tag) is an entry like any other. The engine's records
// (MessageSeen::matched, ReceiveSeen::matched) say which queue every event leaves an entry in,
// or takes one from, so the recorder keeps each queue's length itself: the engine is unchanged.
// LogGOPSim keeps only the largest of these samples; the mean and the histogram are of the same
// samples.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/schedules/engine/engine_observer.hpp"
#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/paths/timeline_recorder.hpp"

namespace collnoise {

/// The rule above in one line, for the files that hold the statistics.
inline constexpr const char* kQueueSampleRule =
    "LogGOPSim's --qstat: the unexpected queue's length at each receive posted, the posted "
    "queue's at each message taken in, both before the search (so before the entry matched "
    "leaves, or the new one joins)";

/// The lengths one queue of one rank had at its samples (entries: receives or messages).
struct QueueLengths {
  /// histogram[n]: the samples at which the queue held n entries; histogram.size() is max + 1,
  /// empty when there was no sample.
  std::vector<std::uint64_t> histogram;
  std::uint64_t samples() const;
  std::uint64_t max() const { return histogram.empty() ? 0 : histogram.size() - 1; }
  /// The mean length over the samples; 0 without samples.
  double mean() const;
};

/// One rank's two queues.
struct RankQueueLengths {
  QueueLengths posted;      ///< sampled at each message the rank takes in
  QueueLengths unexpected;  ///< sampled at each receive the rank posts
};

/// The engine observer (engine/schedules/engine/engine_observer.hpp) that samples every rank's
/// two queues. Holds two counters and two histograms per rank; its results do not depend on
/// anything but the run (one replay is one thread).
class QueueStatsRecorder {
 public:
  static constexpr bool kActive = true;

  void begin(std::uint32_t ranks, std::uint32_t cpus, std::uint32_t nics);
  void calc(const CalcSeen&) {}
  void send(const SendSeen&) {}
  void message(const MessageSeen& m);
  void receive(const ReceiveSeen& r);
  void rendezvous(const RendezvousSeen&) {}

  /// Every rank's queues, by rank (as many as the schedule has).
  std::span<const RankQueueLengths> result() const { return ranks_; }
  /// The entries each rank's queues hold now (at the end of a run: receives never matched,
  /// messages never taken).
  std::uint64_t posted_now(std::uint32_t rank) const { return posted_now_[rank]; }
  std::uint64_t unexpected_now(std::uint32_t rank) const { return unexpected_now_[rank]; }

 private:
  std::vector<RankQueueLengths> ranks_;
  std::vector<std::uint64_t> posted_now_;
  std::vector<std::uint64_t> unexpected_now_;
};

/// What ScheduleStudy::replay observes when it also samples the queues: the critical path and
/// the timeline (as replays always do) and the queues. Its engine instances are compiled in
/// queue_stats.cpp.
using ReplayObservers = BothObservers<CriticalPathRecorder, TimelineRecorder>;
using QueueReplayObservers = BothObservers<ReplayObservers, QueueStatsRecorder>;

}  // namespace collnoise
