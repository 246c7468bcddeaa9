#include "app/interrupt.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include "core/errors.hpp"
#include "core/stop_request.hpp"

namespace collnoise {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGUSR1};
struct sigaction g_previous[3];

extern "C" void on_signal(int number) {
  if (stop_requested()) {
    // Asked twice: stop now, the default way (the last checkpoint stays valid).
    std::signal(number, SIG_DFL);
    std::raise(number);
    return;
  }
  request_stop(number);
}

}  // namespace

InterruptHandlers::InterruptHandlers() {
  clear_stop_request();
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // file writes in progress carry on
  for (int k = 0; k < 3; ++k) sigaction(kSignals[k], &action, &g_previous[k]);
}

InterruptHandlers::~InterruptHandlers() {
  for (int k = 0; k < 3; ++k) sigaction(kSignals[k], &g_previous[k], nullptr);
}

bool InterruptHandlers::requested() {
  return stop_requested();
}

int InterruptHandlers::signal_number() {
  return stop_signal();
}

namespace {

// waitpid(child, options): the child's pid, 0 while it runs (WNOHANG); RuntimeFailure on error.
pid_t wait_once(pid_t child, int& status, int options, const char* what) {
  for (;;) {
    const pid_t got = ::waitpid(child, &status, options);
    if (got >= 0) return got;
    if (errno != EINTR)
      throw RuntimeFailure(fmt::format("waiting for {}: {}", what, std::strerror(errno)));
  }
}

}  // namespace

int wait_for_child(pid_t child, const char* what) {
  constexpr auto kPoll = std::chrono::milliseconds(50);
  int status = 0;
  while (wait_once(child, status, WNOHANG, what) == 0) {
    if (stop_requested()) {
      ::kill(child, SIGINT);
      bool ended = false;
      for (int k = 0; k < 100 && !ended; ++k) {
        std::this_thread::sleep_for(kPoll);
        ended = wait_once(child, status, WNOHANG, what) != 0;
      }
      if (!ended) {
        ::kill(child, SIGKILL);
        wait_once(child, status, 0, what);
      }
      // A child that had finished its work whole (exit 0) when the stop came leaves nothing
      // half done: what was asked for is written.
      if (ended && WIFEXITED(status) && WEXITSTATUS(status) == 0) return status;
      throw StopRequested();
    }
    std::this_thread::sleep_for(kPoll);
  }
  // The child may have ended of the same signal before the loop saw the request (a signal sent
  // to the whole process group): unless it finished its work (exit 0), this is a stop too.
  if (stop_requested() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) throw StopRequested();
  return status;
}

}  // namespace collnoise
