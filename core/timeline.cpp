#include "core/timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace collnoise {

std::string_view span_kind_name(SpanKind kind) {
  switch (kind) {
    case SpanKind::kCalc:
      return "calc";
    case SpanKind::kSendOverhead:
      return "send overhead";
    case SpanKind::kReceiveOverhead:
      return "receive overhead";
    case SpanKind::kSendGap:
      return "send gap";
    case SpanKind::kReceiveGap:
      return "receive gap";
    case SpanKind::kNoise:
      return "noise";
    case SpanKind::kRendezvousWait:
      return "rendezvous wait";
  }
  return "unknown";
}

std::string_view lane_name(TimelineLane lane) {
  switch (lane) {
    case TimelineLane::kCpu:
      return "CPU";
    case TimelineLane::kSendNic:
      return "send NIC";
    case TimelineLane::kReceiveNic:
      return "receive NIC";
  }
  return "unknown";
}

std::string lane_label(TimelineLane lane, std::uint8_t index) {
  return fmt::format("{} {}", lane_name(lane), index);
}

bool is_chosen(const Timeline& timeline, std::uint32_t rank) {
  return std::binary_search(timeline.ranks.begin(), timeline.ranks.end(), rank);
}

std::vector<TimelineSpan> spans_in_order(std::vector<TimelineSpan> spans) {
  // Equal starts: the longer span encloses the shorter one, so it is entered first.
  std::stable_sort(spans.begin(), spans.end(), [](const TimelineSpan& a, const TimelineSpan& b) {
    return std::tie(a.start_ns, b.end_ns) < std::tie(b.start_ns, a.end_ns);
  });
  return spans;
}

namespace {

using LaneKey = std::tuple<std::uint32_t, TimelineLane, std::uint8_t>;

std::string span_problem(const Timeline& timeline, const TimelineSpan& s) {
  if (!is_chosen(timeline, s.rank))
    return fmt::format("a span of rank {}, which is not among the chosen ranks", s.rank);
  if (!std::isfinite(s.start_ns) || !std::isfinite(s.end_ns) || s.end_ns < s.start_ns)
    return fmt::format("a span of rank {} from {} ns to {} ns", s.rank, s.start_ns, s.end_ns);
  return {};
}

std::string message_problem(const Timeline& timeline, const TimelineMessage& m) {
  if (m.from >= timeline.ranks_total || m.to >= timeline.ranks_total)
    return fmt::format("a message from rank {} to rank {} of {} ranks", m.from, m.to,
                       timeline.ranks_total);
  if (!is_chosen(timeline, m.from) && !is_chosen(timeline, m.to))
    return fmt::format("a message from rank {} to rank {}, neither of them chosen", m.from, m.to);
  if (!std::isfinite(m.sent_ns) || !std::isfinite(m.arrived_ns) || m.arrived_ns < m.sent_ns)
    return fmt::format("a message from rank {} to rank {} sent at {} ns, arrived at {} ns", m.from,
                       m.to, m.sent_ns, m.arrived_ns);
  return {};
}

// Spans of one lane nest or follow each other: walk them in order with the stack of the spans
// still open.
std::string nesting_problem(const std::vector<TimelineSpan>& lane) {
  std::vector<const TimelineSpan*> open;
  for (const TimelineSpan& s : spans_in_order(lane)) {
    while (!open.empty() && open.back()->end_ns <= s.start_ns) open.pop_back();
    if (!open.empty() && s.end_ns > open.back()->end_ns)
      return fmt::format("two spans of rank {} on {} overlap partially ({}-{} ns and {}-{} ns)",
                         s.rank, lane_label(s.lane, s.index), open.back()->start_ns,
                         open.back()->end_ns, s.start_ns, s.end_ns);
    open.push_back(&s);
  }
  return {};
}

}  // namespace

std::string timeline_problem(const Timeline& timeline) {
  for (std::size_t i = 0; i < timeline.ranks.size(); ++i) {
    if (timeline.ranks[i] >= timeline.ranks_total)
      return fmt::format("rank {} chosen of {} ranks", timeline.ranks[i], timeline.ranks_total);
    if (i > 0 && timeline.ranks[i] <= timeline.ranks[i - 1])
      return "the chosen ranks are not strictly increasing";
  }
  std::map<LaneKey, std::vector<TimelineSpan>> lanes;
  for (const TimelineSpan& s : timeline.spans) {
    if (auto problem = span_problem(timeline, s); !problem.empty()) return problem;
    lanes[{s.rank, s.lane, s.index}].push_back(s);
  }
  for (const TimelineMessage& m : timeline.messages)
    if (auto problem = message_problem(timeline, m); !problem.empty()) return problem;
  for (const auto& [key, spans] : lanes)
    if (auto problem = nesting_problem(spans); !problem.empty()) return problem;
  return {};
}

}  // namespace collnoise
