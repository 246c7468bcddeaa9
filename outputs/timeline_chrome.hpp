#pragma once
// A timeline (core/timeline.hpp) as a Chrome trace-event JSON file: the format the Perfetto UI
// (ui.perfetto.dev, "Open trace file") and chrome://tracing open (docs/timelines.md).
//
// One process per rank (pid = the rank, named "rank N"), one thread per lane: tid = index for
// CPU `index`, 256 + index for send NIC `index`, 512 + index for receive NIC `index` (named
// "CPU 0", "send NIC 0", ...). Each span is a complete event ("ph": "X"), its name the span's
// kind, `ts` and `dur` in microseconds, its args the rank, lane, index, operation, kind,
// critical flag and the exact times in nanoseconds; critical spans have the category "critical"
// and the colour "terrible" (red), noise the colour "grey". A message between two chosen ranks
// is a flow ("s" at the sender, "f" with "bp": "e" at the receiver, one id per message); a
// message with one end not shown is an instant event ("ph": "i") at the end that is. The title,
// the chosen ranks, the window, the completion time and, when the critical path leaves the
// chosen ranks, a note saying so, are in "otherData" and in the args of an instant event
// "completion" on the rank that finished last.
#include <filesystem>
#include <string>

#include "core/timeline.hpp"

namespace collnoise {

/// The trace-event JSON of `timeline` (the text written by write_chrome_trace), built event by
/// event as text (no JSON tree of the whole trace). RuntimeFailure if the timeline breaks its
/// promises (timeline_problem); StopRequested once a stop is requested (core/stop_request.hpp).
std::string chrome_trace_json(const Timeline& timeline);

/// Writes `timeline` to `path`, atomically (outputs/atomic_file.hpp). An existing file is an
/// InputError unless `force`, and is then replaced. RuntimeFailure on a failed write or a
/// timeline that breaks its promises.
void write_chrome_trace(const Timeline& timeline, const std::filesystem::path& path, bool force);

}  // namespace collnoise
