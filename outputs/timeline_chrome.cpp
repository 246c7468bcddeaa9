#include "outputs/timeline_chrome.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/stop_poll.hpp"
#include "outputs/atomic_file.hpp"

namespace collnoise {
namespace {

using nlohmann::json;

// The trace's events, each written as text as soon as it is made: a timeline of millions of
// spans never exists as one JSON tree (some 3 KB a span), only as its text (some 300 bytes).
// A stop request is polled between events.
class EventText {
 public:
  explicit EventText(std::string& text) : text_(text) {}
  void push_back(const json& event) {
    poll_.tick();
    if (!first_) text_ += ',';
    first_ = false;
    text_ += event.dump();
  }

 private:
  std::string& text_;
  bool first_ = true;
  StopPoll poll_;
};

constexpr const char* kNotShownNote = "the critical path passes through ranks not shown";

// Trace-event times are microseconds; the timeline's are nanoseconds.
double microseconds(double ns) {
  return ns / 1000.0;
}

int thread_id(TimelineLane lane, std::uint8_t index) {
  return static_cast<int>(lane) * 256 + index;
}

json metadata_event(const char* name, std::uint32_t pid, int tid, json args) {
  return {{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

// The processes (ranks) and threads (lanes) with their names and order. Every chosen rank has
// its CPU 0, spans or not, so that an idle rank still shows.
void add_names(const Timeline& timeline, EventText& events) {
  std::set<std::pair<std::uint32_t, int>> threads;
  for (const std::uint32_t rank : timeline.ranks) threads.insert({rank, 0});
  for (const TimelineSpan& s : timeline.spans) threads.insert({s.rank, thread_id(s.lane, s.index)});
  for (const std::uint32_t rank : timeline.ranks) {
    events.push_back(
        metadata_event("process_name", rank, 0, {{"name", fmt::format("rank {}", rank)}}));
    events.push_back(metadata_event("process_sort_index", rank, 0, {{"sort_index", rank}}));
  }
  if (is_chosen(timeline, timeline.last_rank))
    events.push_back(
        metadata_event("process_labels", timeline.last_rank, 0, {{"labels", "finished last"}}));
  for (const auto& [rank, tid] : threads) {
    const auto lane = static_cast<TimelineLane>(tid / 256);
    const auto index = static_cast<std::uint8_t>(tid % 256);
    events.push_back(metadata_event("thread_name", rank, tid, {{"name", lane_label(lane, index)}}));
    events.push_back(metadata_event("thread_sort_index", rank, tid, {{"sort_index", tid}}));
  }
}

json span_event(const TimelineSpan& s) {
  json event = {{"ph", "X"},
                {"name", span_kind_name(s.kind)},
                {"cat", s.critical ? "critical" : "span"},
                {"pid", s.rank},
                {"tid", thread_id(s.lane, s.index)},
                {"ts", microseconds(s.start_ns)},
                {"dur", microseconds(s.end_ns - s.start_ns)},
                {"args",
                 {{"rank", s.rank},
                  {"lane", lane_name(s.lane)},
                  {"index", s.index},
                  {"kind", span_kind_name(s.kind)},
                  {"op", s.op},
                  {"critical", s.critical},
                  {"start_ns", s.start_ns},
                  {"end_ns", s.end_ns}}}};
  if (s.critical)
    event["cname"] = "terrible";
  else if (s.kind == SpanKind::kNoise)
    event["cname"] = "grey";
  return event;
}

json message_args(const TimelineMessage& m) {
  return {{"from", m.from},
          {"to", m.to},
          {"send_op", m.send_op},
          {"bytes", m.bytes},
          {"tag", m.tag},
          {"sent_ns", m.sent_ns},
          {"arrived_ns", m.arrived_ns},
          {"critical", m.critical}};
}

// The spans of one rank by start time, with the latest end up to each one: the spans holding a
// time are found by walking back from the last one starting by then while that latest end
// reaches it (a few steps each, not every span of the rank).
struct RankSpans {
  std::vector<const TimelineSpan*> by_start;
  std::vector<double> latest_end;
};
using SpansByRank = std::map<std::uint32_t, RankSpans>;

SpansByRank index_spans(const Timeline& timeline) {
  SpansByRank index;
  for (const TimelineSpan& s : timeline.spans) index[s.rank].by_start.push_back(&s);
  for (auto& [rank, spans] : index) {
    std::stable_sort(
        spans.by_start.begin(), spans.by_start.end(),
        [](const TimelineSpan* a, const TimelineSpan* b) { return a->start_ns < b->start_ns; });
    double latest = -std::numeric_limits<double>::infinity();
    for (const TimelineSpan* s : spans.by_start)
      spans.latest_end.push_back(latest = std::max(latest, s->end_ns));
  }
  return index;
}

// The thread of the span of `rank` best holding time `ns`, CPU 0 when none holds it. A flow
// event binds to the slice enclosing it on its thread, so this is where the arrow starts or
// ends. Best: a span running at `ns` (start <= ns < end) rather than one ending then, serving
// operation `op` (a send's overhead or gap), on a NIC, and the innermost (latest start).
int flow_thread(const SpansByRank& index, std::uint32_t rank, double ns, const std::uint64_t* op) {
  const auto it = index.find(rank);
  if (it == index.end()) return 0;
  const RankSpans& spans = it->second;
  const auto after =
      std::upper_bound(spans.by_start.begin(), spans.by_start.end(), ns,
                       [](double t, const TimelineSpan* s) { return t < s->start_ns; });
  const TimelineSpan* best = nullptr;
  int best_score = -1;
  for (auto k = after - spans.by_start.begin();
       k-- > 0 && spans.latest_end[static_cast<std::size_t>(k)] >= ns;) {
    const TimelineSpan* s = spans.by_start[static_cast<std::size_t>(k)];
    if (s->end_ns < ns) continue;
    const int score = (ns < s->end_ns ? 4 : 0) + (op != nullptr && s->op == *op ? 2 : 0) +
                      (s->lane != TimelineLane::kCpu ? 1 : 0);
    if (score > best_score) {  // walking back: on a tie, the later start is kept
      best = s;
      best_score = score;
    }
  }
  return best == nullptr ? 0 : thread_id(best->lane, best->index);
}

void add_message(const Timeline& timeline, const SpansByRank& spans, std::size_t id,
                 const TimelineMessage& m, EventText& events) {
  const bool from_shown = is_chosen(timeline, m.from);
  const bool to_shown = is_chosen(timeline, m.to);
  const char* category = m.critical ? "message,critical" : "message";
  if (from_shown && to_shown) {
    events.push_back({{"ph", "s"},
                      {"name", "message"},
                      {"cat", category},
                      {"id", id},
                      {"pid", m.from},
                      {"tid", flow_thread(spans, m.from, m.sent_ns, &m.send_op)},
                      {"ts", microseconds(m.sent_ns)},
                      {"args", message_args(m)}});
    events.push_back({{"ph", "f"},
                      {"bp", "e"},
                      {"name", "message"},
                      {"cat", category},
                      {"id", id},
                      {"pid", m.to},
                      {"tid", flow_thread(spans, m.to, m.arrived_ns, nullptr)},
                      {"ts", microseconds(m.arrived_ns)}});
    return;
  }
  // A flow needs both ends drawn: a message to or from a rank not shown is a mark on the end
  // that is.
  const std::uint32_t rank = from_shown ? m.from : m.to;
  const double ns = from_shown ? m.sent_ns : m.arrived_ns;
  events.push_back({{"ph", "i"},
                    {"s", "t"},
                    {"name", from_shown ? fmt::format("message to rank {} (not shown)", m.to)
                                        : fmt::format("message from rank {} (not shown)", m.from)},
                    {"cat", category},
                    {"pid", rank},
                    {"tid", flow_thread(spans, rank, ns, from_shown ? &m.send_op : nullptr)},
                    {"ts", microseconds(ns)},
                    {"args", message_args(m)}});
}

json window_end(double ns) {
  return ns == 0 || std::isinf(ns) ? json(nullptr) : json(ns);
}

json other_data(const Timeline& timeline) {
  json data = {{"format", "collnoise timeline"},
               {"title", timeline.title},
               {"ranks_total", timeline.ranks_total},
               {"ranks", timeline.ranks},
               {"window_start_ns", timeline.window_start_ns},
               {"window_end_ns", window_end(timeline.window_end_ns)},
               {"completion_ns", timeline.completion_ns},
               {"last_rank", timeline.last_rank},
               {"path_leaves_chosen", timeline.path_leaves_chosen}};
  if (timeline.path_leaves_chosen) data["note"] = kNotShownNote;
  return data;
}

// A mark at the completion time carrying the title (and the note), seen in the viewer itself.
json completion_event(const Timeline& timeline) {
  json args = {{"title", timeline.title},
               {"completion_ns", timeline.completion_ns},
               {"last_rank", timeline.last_rank}};
  if (timeline.path_leaves_chosen) args["note"] = kNotShownNote;
  const std::uint32_t pid = is_chosen(timeline, timeline.last_rank) || timeline.ranks.empty()
                                ? timeline.last_rank
                                : timeline.ranks.front();
  return {{"ph", "i"},
          {"s", "g"},
          {"name", "completion"},
          {"cat", "completion"},
          {"pid", pid},
          {"tid", 0},
          {"ts", microseconds(timeline.completion_ns)},
          {"args", std::move(args)}};
}

}  // namespace

std::string chrome_trace_json(const Timeline& timeline) {
  if (const auto problem = timeline_problem(timeline); !problem.empty())
    throw RuntimeFailure("timeline '" + timeline.title + "': " + problem);
  // The keys in the order json::dump gives them (sorted), as when the trace was one tree.
  std::string text = R"({"displayTimeUnit":"ns","otherData":)" + other_data(timeline).dump() +
                     R"(,"traceEvents":[)";
  EventText events(text);
  add_names(timeline, events);
  for (const TimelineSpan& s : timeline.spans) events.push_back(span_event(s));
  const SpansByRank spans = index_spans(timeline);
  for (std::size_t i = 0; i < timeline.messages.size(); ++i)
    add_message(timeline, spans, i, timeline.messages[i], events);
  events.push_back(completion_event(timeline));
  text += "]}\n";
  return text;
}

void write_chrome_trace(const Timeline& timeline, const std::filesystem::path& path, bool force) {
  if (!force && std::filesystem::exists(path))
    throw InputError(fmt::format("output '{}' exists: use --force to overwrite it", path.string()));
  const std::string text = chrome_trace_json(timeline);
  write_file_atomically(path.string(), std::as_bytes(std::span(text.data(), text.size())));
}

}  // namespace collnoise
