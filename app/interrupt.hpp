#pragma once
// Checkpoint-and-stop on SIGINT, SIGTERM and SIGUSR1 (the signal mpirun forwards to every
// process, docs/cli.md): the first signal only raises a flag, which the sampling loop polls
// between chunks; a second one ends the process the default way. app/main.cpp installs them for
// every command, so every long phase of every command polls the request (core/stop_request.hpp)
// and ends with exit code 3.
#include <sys/types.h>

namespace collnoise {

class InterruptHandlers {
 public:
  InterruptHandlers();   ///< installs the handlers
  ~InterruptHandlers();  ///< restores the previous ones
  InterruptHandlers(const InterruptHandlers&) = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;

  /// Whether a stop was asked for (async-signal-safe flag).
  static bool requested();
  /// The signal number that asked, 0 if none.
  static int signal_number();
};

/// Waits for child process `child` to end and returns its waitpid status, polling the stop
/// request every 50 ms meanwhile: once a stop is requested the child is asked to stop with
/// SIGINT (Python then runs its `finally` clauses: its temporary files are removed), given 5 s,
/// then killed, and StopRequested is thrown, unless the child then ended with exit 0 (its work
/// was done whole: a figure renamed into place): its status is returned. RuntimeFailure naming
/// `what` when waitpid fails.
int wait_for_child(pid_t child, const char* what);

}  // namespace collnoise
