#pragma once
// Progress for people and for batch logs, read from a ProgressTracker by one thread of its own
// (the sampling threads never wait for it, nor for the output it writes).
//
// - bar: one line redrawn in place four times a second, for a terminal;
// - lines: a line every `every_s` seconds (default 60), each starting with the local time in ISO
//   8601 with its UTC offset ("2026-05-01T14:03:12+02:00"), for a log file and `tail -f`:
//
//     2026-05-01T14:03:12+02:00 collnoise: progress 37.2% of the estimated work; 4/12 points
//     done; point 5: 3000/10000 samples; elapsed 0:10:01; ETA 0:16:57; 52.1 samples/s
//
// Both show the fraction of the estimated cost done, the points done, the units done in the point
// under way, the time elapsed in this sitting, the ETA and the point's rate. The ETA scales the
// cost left by the pace measured so far (seconds of this sitting per estimated core-second done
// in it), so a cost model that is off by a constant factor still gives a right ETA; before any
// work is done it is the estimate over the cores. The run's start line (the estimated work) and
// a closing line (lines mode) are printed once each.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>

#include "runs/progress_tracker.hpp"

namespace collnoise {

enum class ProgressMode { kNone, kBar, kLines };

/// "none", "bar", "lines" (as --progress takes them).
std::string to_string(ProgressMode mode);

/// The time `t` in local time, ISO 8601 with the UTC offset: "2026-05-01T14:03:12+02:00".
std::string local_timestamp(std::chrono::system_clock::time_point t);

/// Seconds as h:mm:ss ("0:03:07", "27:46:40"), days beyond two days ("3d 04:05:06").
std::string clock_duration(double seconds);

struct ProgressDisplayOptions {
  ProgressMode mode = ProgressMode::kLines;
  double every_s = 60.0;      ///< seconds between lines (lines mode), > 0
  double bar_every_s = 0.25;  ///< seconds between redraws of the bar
  int cores = 1;              ///< cores the run uses (the ETA before anything is measured)
  int bar_width = 80;         ///< columns of the terminal (bar mode)
  /// Where text goes (stderr in the command): lines end in '\n'; the bar is redrawn with "\r".
  std::function<void(std::string_view)> sink;
  /// Clocks, replaceable in tests.
  std::function<std::chrono::steady_clock::time_point()> steady = std::chrono::steady_clock::now;
  std::function<std::chrono::system_clock::time_point()> wall = std::chrono::system_clock::now;
};

class ProgressDisplay {
 public:
  ProgressDisplay(const ProgressTracker& tracker, ProgressDisplayOptions options);
  /// Stops the thread, if it runs (also when the run ends by an exception).
  ~ProgressDisplay();
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  /// Prints `start_line` (the estimated work; timestamped in lines mode) and starts the clock.
  void start(const std::string& start_line);
  /// Starts the thread that calls poll() (every bar_every_s in bar mode, every_s in lines mode).
  void run_in_background();
  /// Prints what is due at the steady clock's now: a line when the interval has passed (lines),
  /// the bar (bar). Called by the thread, or by a test in its place.
  void poll();
  /// Stops the thread; lines mode: a last line (done, or where the run stopped), bar mode: the
  /// bar is cleared.
  void finish(bool completed);

  /// Prints a line of its own (a warning during the run, `line` without its newline), from any
  /// thread: the bar is cleared first and drawn again below it, so the two never share a line.
  void message(std::string_view line);

  /// The status text at `now` (no timestamp): what lines and the bar show.
  std::string status(std::chrono::steady_clock::time_point now) const;

 private:
  std::string bar_text(std::chrono::steady_clock::time_point now) const;
  void stop_thread();

  const ProgressTracker& tracker_;
  ProgressDisplayOptions options_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point next_line_;
  bool bar_shown_ = false;
  bool finished_ = false;
  std::mutex mutex_;  // held by the thread but while it sleeps, and by message()
  std::condition_variable_any wake_;
  std::jthread thread_;
};

}  // namespace collnoise
