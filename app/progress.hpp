#pragma once
// How `collnoise run` shows its progress on stderr (runs/progress_display.hpp): --progress
// auto|none|bar|lines and --progress-every. Auto draws a bar when stderr is a terminal and
// writes timestamped lines otherwise (a batch job's log); --quiet means none unless --progress
// is given. Under MPI only rank 0 shows progress (of every process).
#include <memory>
#include <string>

#include "runs/progress_display.hpp"

namespace collnoise {

/// The mode `requested` ("auto", "none", "bar", "lines"; empty: not given) comes to.
/// Precondition: `requested` is one of those (the command line checks).
ProgressMode progress_mode(const std::string& requested, bool quiet, bool stderr_is_terminal);

/// A display on stderr, or none (mode none, or not rank 0).
std::unique_ptr<ProgressDisplay> progress_on_stderr(const ProgressTracker& tracker,
                                                    ProgressMode mode, double every_s, int cores);

}  // namespace collnoise
