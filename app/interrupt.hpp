#pragma once
// Checkpoint-and-stop on SIGINT, SIGTERM and SIGUSR1 (the signal mpirun forwards to every
// process, docs/cli.md): the first signal only raises a flag, which the sampling loop polls
// between chunks; a second one ends the process the default way.
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

}  // namespace collnoise
