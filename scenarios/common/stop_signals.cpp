#include "scenarios/common/stop_signals.h"

#include <atomic>

#include "impl/check/check.h"

namespace spotcheck::scenarios {

namespace {

std::atomic<int> g_requested{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free atomic");

extern "C" void on_stop_signal(int signal_number) {
  int expected = 0;
  g_requested.compare_exchange_strong(expected, signal_number);  // the first signal wins
}

}  // namespace

StopSignals::StopSignals(SecondSignal second) {
  g_requested.store(0);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Blocking calls resume; the command polls the flag. SA_RESETHAND: the second signal finds the
  // default disposition.
  action.sa_flags = SA_RESTART | (second == kSecondKills ? SA_RESETHAND : 0);
  [[maybe_unused]] const int int_rc = sigaction(SIGINT, &action, &_old_int);
  [[maybe_unused]] const int term_rc = sigaction(SIGTERM, &action, &_old_term);
  SPOTCHECK_ASSERT_ABORT(int_rc == 0);
  SPOTCHECK_ASSERT_ABORT(term_rc == 0);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &_old_int, nullptr);
  sigaction(SIGTERM, &_old_term, nullptr);
}

int StopSignals::requested() { return g_requested.load(); }

}  // namespace spotcheck::scenarios
