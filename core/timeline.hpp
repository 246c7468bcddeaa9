#pragma once
// The timeline of one sample: what happened, on chosen ranks and in a time window, when one
// sample of a schedule (docs/models/schedules.md) is replayed. Every operation on every CPU and
// NIC of those ranks, every message from its send to its arrival, the noise that hit, and which
// of it lies on the sample's critical path. A plain value: the engine fills it while replaying
// the sample; writers (outputs/timeline_chrome.hpp, outputs/timeline_otf2.hpp) turn it into
// files that trace viewers open (docs/timelines.md).
//
// Times are simulated nanoseconds from the start of the sample (its time 0), as doubles.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace collnoise {

/// The resource a span occupies. A rank has one or more CPUs and, under LogGOPS, a send and a
/// receive side of its network interface (the gaps g and G are spent there).
enum class TimelineLane : std::uint8_t { kCpu, kSendNic, kReceiveNic };

/// What a span is.
enum class SpanKind : std::uint8_t {
  kCalc,             ///< a calc operation (its own duration, not the noise in it)
  kSendOverhead,     ///< the CPU's overhead o of a send
  kReceiveOverhead,  ///< the CPU's overhead o of a receive
  kSendGap,          ///< the send NIC busy with a message: g + (bytes - 1) G
  kReceiveGap,       ///< the receive NIC busy with a message: g + (bytes - 1) G
  kNoise,            ///< a detour: noise that took the lane away from its operation
  kRendezvousWait,   ///< a sender waiting for the receiver's match (rendezvous protocol)
};

/// One interval during which a lane of a rank was busy.
struct TimelineSpan {
  std::uint32_t rank = 0;  ///< the rank, in [0, Timeline::ranks_total)
  TimelineLane lane = TimelineLane::kCpu;
  std::uint8_t index = 0;  ///< which CPU (or NIC) of the rank: 0 unless it has several
  SpanKind kind = SpanKind::kCalc;
  bool critical = false;  ///< on the sample's critical path
  std::uint64_t op = 0;   ///< the operation it serves: its index within its rank
  double start_ns = 0;    ///< when it began (ns)
  double end_ns = 0;      ///< when it ended (ns), >= start_ns
};

/// One message, from the moment it leaves the sender to the moment it has arrived.
struct TimelineMessage {
  std::uint32_t from = 0;     ///< the sending rank
  std::uint32_t to = 0;       ///< the receiving rank
  std::uint64_t send_op = 0;  ///< the send operation: its index within the sender's operations
  std::uint64_t bytes = 0;    ///< the message's size (bytes)
  std::uint32_t tag = 0;      ///< the schedule's tag matching it to its receive
  double sent_ns = 0;         ///< when it left the sender (ns)
  double arrived_ns = 0;      ///< when it had arrived at the receiver (ns), >= sent_ns
  bool critical = false;      ///< on the sample's critical path
};

/// The timeline of one sample.
struct Timeline {
  /// What was replayed, e.g. "point 3, sample 17: recursive_doubling_allreduce, 64 ranks".
  std::string title;
  std::uint32_t ranks_total = 0;     ///< ranks in the schedule
  std::vector<std::uint32_t> ranks;  ///< the chosen ranks, strictly increasing, < ranks_total
  double window_start_ns = 0;        ///< the window shown begins here (ns)
  double window_end_ns = 0;          ///< and ends here (ns); 0 or +inf: at the sample's end
  double completion_ns = 0;          ///< the sample's completion time (ns)
  std::uint32_t last_rank = 0;       ///< the rank that finished last (at completion_ns)
  bool path_leaves_chosen = false;   ///< the critical path passes through ranks not in `ranks`
  /// The spans of the chosen ranks within the window (spans of other ranks, critical or not,
  /// are not held). On one lane of one rank, spans follow each other or nest (a noise span
  /// inside the operation it delays); they never overlap partially.
  std::vector<TimelineSpan> spans;
  /// The messages within the window with at least one end among the chosen ranks.
  std::vector<TimelineMessage> messages;
};

/// "calc", "send overhead", "receive overhead", "send gap", "receive gap", "noise",
/// "rendezvous wait".
std::string_view span_kind_name(SpanKind kind);

/// "CPU", "send NIC", "receive NIC".
std::string_view lane_name(TimelineLane lane);

/// A lane and its index as a viewer's thread name: "CPU 0", "send NIC 0", "receive NIC 1".
std::string lane_label(TimelineLane lane, std::uint8_t index);

/// Whether `rank` is one of the timeline's chosen ranks.
bool is_chosen(const Timeline& timeline, std::uint32_t rank);

/// The first way in which `timeline` breaks the promises above (ranks not increasing, a span
/// of a rank not chosen, a span ending before it starts, times not finite, a message with no
/// chosen end or arriving before it left, spans of one lane overlapping partially), in words;
/// empty when it keeps them all. The writers refuse a timeline that does not.
std::string timeline_problem(const Timeline& timeline);

/// The spans of one lane (same rank, lane and index), in the order their Enter and Leave events
/// are written: by start time, an enclosing span before the spans it holds.
std::vector<TimelineSpan> spans_in_order(std::vector<TimelineSpan> spans);

}  // namespace collnoise
