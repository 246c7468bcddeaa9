#pragma once
// A timeline (core/timeline.hpp) as an OTF2 archive, the trace format of Score-P that Vampir,
// otf2-print and other tools read (docs/timelines.md).
//
// The archive is a directory holding traces.otf2 (the anchor file to open), traces.def (the
// global definitions) and traces/ (one event file per location). Timestamps are integer
// nanoseconds (timer resolution 1e9 ticks per second, offset 0: the sample's start), rounded to
// the nearest nanosecond. One location group (a process, "rank N") per chosen rank, one
// location per lane ("CPU 0", "send NIC 0", "receive NIC 0"; every rank has its CPU 0); one
// region per span kind; each span an Enter and a Leave on its lane's location, the Enter
// carrying the attributes "critical" (1 on the critical path) and "operation" (its index within
// its rank). Messages between chosen ranks are MpiSend and MpiRecv events on the CPU 0 locations
// of their ends, in a communicator of the chosen ranks (its rank i is the i-th chosen rank),
// with the schedule's tag and the message's bytes, and the attributes "critical" and
// "operation" (the send's index). A message with one end not shown is a parameter event
// ("message to a rank not shown" or "message from a rank not shown", valued with that rank's
// number) on the end that is. The title, the completion time, the rank that finished last and
// the note on the critical path leaving the chosen ranks are the archive's description and its
// properties COLLNOISE::TITLE, COLLNOISE::COMPLETION_NS, COLLNOISE::LAST_RANK,
// COLLNOISE::RANKS_TOTAL, COLLNOISE::PATH_LEAVES_CHOSEN (otf2-print -I shows them).
#include <filesystem>
#include <string>

#include "core/timeline.hpp"

namespace collnoise {

/// The name of the anchor file inside an archive written by write_otf2.
inline constexpr const char* kOtf2AnchorName = "traces.otf2";

/// Whether this build writes OTF2 archives (CMake option COLLNOISE_OTF2, on by default).
bool otf2_supported();

/// Whether `directory` holds exactly what write_otf2 writes, and nothing else: traces.otf2 and
/// traces.def (regular files) and traces/ (a folder of event and definition files, "<n>.evt",
/// "<n>.def"). Only such a folder may be replaced: anything else in it would be lost.
bool is_collnoise_otf2_archive(const std::filesystem::path& directory);

/// InputError naming `archive` (for `role`, "--otf2") unless it may be written: it does not
/// exist, or it is an archive collnoise wrote (is_collnoise_otf2_archive) and `force`. A regular
/// file, a link, a special file or a folder holding anything else is refused, --force or not.
void check_otf2_target(const std::filesystem::path& archive, bool force,
                       const std::string& role = "--otf2");

/// Writes `timeline` as the OTF2 archive directory `archive`: built in a temporary directory
/// beside it, then renamed into place, so that the archive appears whole or not at all. An
/// existing `archive` is replaced only if `force` and it is an archive collnoise wrote
/// (check_otf2_target: InputError otherwise), after the new one is complete; a missing or
/// read-only parent directory is an InputError. A stop request (core/stop_request.hpp) is
/// polled while the archive is built: StopRequested, the temporary directory removed.
/// RuntimeFailure on a failed write (the temporary directory is removed), a timeline that breaks
/// its promises, or a build without OTF2 (otf2_supported()).
void write_otf2(const Timeline& timeline, const std::filesystem::path& archive, bool force);

}  // namespace collnoise
