#include "app/interrupt.hpp"

#include <csignal>

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

}  // namespace collnoise
