#include "app/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>
#include <cstdio>

namespace collnoise {
namespace {

int terminal_columns() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

}  // namespace

ProgressMode progress_mode(const std::string& requested, bool quiet, bool stderr_is_terminal) {
  if (requested == "none" || (requested.empty() && quiet)) return ProgressMode::kNone;
  if (requested == "bar") return ProgressMode::kBar;
  if (requested == "lines") return ProgressMode::kLines;
  return stderr_is_terminal ? ProgressMode::kBar : ProgressMode::kLines;
}

std::unique_ptr<ProgressDisplay> progress_on_stderr(const ProgressTracker& tracker,
                                                    ProgressMode mode, double every_s, int cores) {
  if (mode == ProgressMode::kNone) return nullptr;
  ProgressDisplayOptions options;
  options.mode = mode;
  options.every_s = every_s;
  options.cores = cores;
  options.bar_width = terminal_columns();
  // One write per line or redraw, flushed at once: a log shows it as soon as it is due.
  options.sink = [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  };
  return std::make_unique<ProgressDisplay>(tracker, std::move(options));
}

}  // namespace collnoise
