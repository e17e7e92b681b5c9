#include "scenarios/integration/stop_signals.h"

#include <atomic>
#include <cassert>

namespace spotcheck::scenarios::integration {

namespace {

std::atomic<int> g_requested{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free atomic");

extern "C" void on_stop_signal(int signal_number) {
  int expected = 0;
  g_requested.compare_exchange_strong(expected, signal_number);  // the first signal wins
}

}  // namespace

StopSignals::StopSignals() {
  g_requested.store(0);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // blocking calls resume; the run polls the flag
  [[maybe_unused]] const int int_rc = sigaction(SIGINT, &action, &_old_int);
  [[maybe_unused]] const int term_rc = sigaction(SIGTERM, &action, &_old_term);
  assert(int_rc == 0);
  assert(term_rc == 0);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &_old_int, nullptr);
  sigaction(SIGTERM, &_old_term, nullptr);
}

int StopSignals::requested() { return g_requested.load(); }

}  // namespace spotcheck::scenarios::integration
