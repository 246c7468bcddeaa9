#include "engine/schedules/paths/timeline_recorder.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <tuple>

#include "core/stop_poll.hpp"

namespace collnoise {
namespace {

std::uint64_t cpu_key(std::uint32_t rank, std::uint8_t cpu) {
  return std::uint64_t{rank} << 8 | cpu;
}

TimelineLane lane_of(PathLane lane) {
  switch (lane) {
    case PathLane::kSendNic:
      return TimelineLane::kSendNic;
    case PathLane::kReceiveNic:
      return TimelineLane::kReceiveNic;
    default:
      return TimelineLane::kCpu;
  }
}

bool overlaps(double a0, double a1, double b0, double b1) {
  return std::max(a0, b0) < std::min(a1, b1);
}

}  // namespace

TimelineRecorder::TimelineRecorder(std::vector<std::uint32_t> ranks) : ranks_(std::move(ranks)) {}

void TimelineRecorder::begin(std::uint32_t ranks, std::uint32_t, std::uint32_t) {
  ranks_total_ = ranks;
  chosen_.assign(ranks, 0);
  for (const std::uint32_t r : ranks_)
    if (r < ranks) chosen_[r] = 1;
  spans_.clear();
  messages_.clear();
  cpu_free_.clear();
  send_index_.clear();
  message_at_.clear();
}

void TimelineRecorder::occupy(std::uint32_t rank, TimelineLane lane, std::uint8_t index,
                              SpanKind kind, std::uint64_t op, double start, double work,
                              double end) {
  spans_.push_back(TimelineSpan{rank, lane, index, kind, false, op, start, end});
  const double work_end = start + work;
  if (end > work_end)
    spans_.push_back(
        TimelineSpan{rank, lane, index, SpanKind::kNoise, false, op, std::min(work_end, end), end});
  if (lane == TimelineLane::kCpu) cpu_free_[cpu_key(rank, index)] = end;
}

void TimelineRecorder::calc(const CalcSeen& c) {
  if (!chosen(c.host)) return;
  occupy(c.host, TimelineLane::kCpu, c.cpu, SpanKind::kCalc, c.index, c.start, c.length, c.end);
}

void TimelineRecorder::send(const SendSeen& s) {
  if (chosen(s.host)) {
    occupy(s.host, TimelineLane::kCpu, s.cpu, SpanKind::kSendOverhead, s.index, s.start, s.overhead,
           s.cpu_end);
    spans_.push_back(TimelineSpan{s.host, TimelineLane::kSendNic, s.nic, SpanKind::kSendGap, false,
                                  s.index, s.start, s.nic_end});
  }
  if (chosen(s.host) || chosen(s.peer)) {
    message_at_[s.op] = messages_.size();
    messages_.push_back(
        TimelineMessage{s.host, s.peer, s.index, s.bytes, s.tag, s.start, s.arrival, false});
    if (chosen(s.peer) || !s.eager) send_index_[s.op] = s.index;
  }
}

void TimelineRecorder::message(const MessageSeen& m) {
  if (const auto at = message_at_.find(m.send); at != message_at_.end()) {
    // On a shared network the message was in it until the network let it go: its arrow ends
    // then, not at its LogGP arrival (both 0 without a network).
    if (m.left > 0.0) messages_[at->second].arrived_ns = m.left;
    message_at_.erase(at);
  }
  if (!chosen(m.host)) return;
  const auto found = send_index_.find(m.send);
  const std::uint64_t index = found != send_index_.end() ? found->second : 0;
  if (m.eager && found != send_index_.end()) send_index_.erase(found);
  occupy(m.host, TimelineLane::kCpu, m.cpu, SpanKind::kReceiveOverhead, index, m.start, m.overhead,
         m.cpu_end);
  spans_.push_back(TimelineSpan{m.host, TimelineLane::kReceiveNic, m.nic, SpanKind::kReceiveGap,
                                false, index, m.start, m.nic_end});
}

void TimelineRecorder::rendezvous(const RendezvousSeen& r) {
  if (!chosen(r.sender)) return;
  // The sender's CPU is held from its last occupation's end until its receive takes the message.
  const auto free = cpu_free_.find(cpu_key(r.sender, r.cpu));
  const double from = free != cpu_free_.end() ? free->second : 0.0;
  if (r.time <= from) return;
  const auto found = send_index_.find(r.send);
  const std::uint64_t index = found != send_index_.end() ? found->second : 0;
  spans_.push_back(TimelineSpan{r.sender, TimelineLane::kCpu, r.cpu, SpanKind::kRendezvousWait,
                                false, index, from, r.time});
  cpu_free_[cpu_key(r.sender, r.cpu)] = r.time;
}

Timeline TimelineRecorder::result(const CriticalPath& path, double window_start, double window_end,
                                  std::string title) const {
  Timeline t;
  t.title = std::move(title);
  t.ranks_total = ranks_total_;
  t.ranks = ranks_;
  t.window_start_ns = window_start;
  t.window_end_ns = window_end;
  t.completion_ns = path.completion;
  t.last_rank = path.last_ranks.empty() ? 0 : path.last_ranks.front();
  const double end = std::isfinite(window_end) ? window_end : INFINITY;
  // The path's segments by rank: a span is compared with its rank's segments only (comparing
  // every span with every segment took minutes at a hundred thousand ranks shown).
  std::vector<const PathSegment*> by_rank;
  for (const PathSegment& g : path.segments) by_rank.push_back(&g);
  std::stable_sort(by_rank.begin(), by_rank.end(),
                   [](const PathSegment* a, const PathSegment* b) { return a->rank < b->rank; });
  const auto segments_of = [&](std::uint32_t rank) {
    const auto lo =
        std::lower_bound(by_rank.begin(), by_rank.end(), rank,
                         [](const PathSegment* g, std::uint32_t r) { return g->rank < r; });
    const auto hi = std::upper_bound(
        lo, by_rank.end(), rank, [](std::uint32_t r, const PathSegment* g) { return r < g->rank; });
    return std::span<const PathSegment* const>(lo, hi);
  };
  StopPoll poll;  // millions of spans at many ranks shown: a stop request ends the work
  for (TimelineSpan s : spans_) {
    poll.tick();
    if (s.end_ns < window_start || s.start_ns > end) continue;
    for (const PathSegment* g : segments_of(s.rank))
      if (g->lane != PathLane::kWire && lane_of(g->lane) == s.lane &&
          overlaps(g->start, g->end, s.start_ns, s.end_ns))
        s.critical = true;
    t.spans.push_back(s);
  }
  for (TimelineMessage m : messages_) {
    poll.tick();
    if (m.arrived_ns < window_start || m.sent_ns > end) continue;
    for (const PathSegment* g : segments_of(m.from))
      if (g->lane == PathLane::kWire && g->index == m.send_op) m.critical = true;
    t.messages.push_back(m);
  }
  for (const PathSegment& g : path.segments)
    if (!chosen(g.rank)) t.path_leaves_chosen = true;
  return t;
}

}  // namespace collnoise
