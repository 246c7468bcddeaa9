#include "app/interrupt.hpp"

#include <csignal>

namespace collnoise {
namespace {

volatile std::sig_atomic_t g_signal = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGUSR1};
struct sigaction g_previous[3];

extern "C" void on_signal(int number) {
  if (g_signal != 0) {
    // Asked twice: stop now, the default way (the last checkpoint stays valid).
    std::signal(number, SIG_DFL);
    std::raise(number);
    return;
  }
  g_signal = number;
}

}  // namespace

InterruptHandlers::InterruptHandlers() {
  g_signal = 0;
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
  return g_signal != 0;
}

int InterruptHandlers::signal_number() {
  return g_signal;
}

}  // namespace collnoise
