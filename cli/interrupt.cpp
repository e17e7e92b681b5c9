#include "cli/interrupt.h"

#include <signal.h>

namespace spotcheck::cli {

namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler stores into it");

struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

extern "C" void on_interrupt(int signal_number) {
  int expected = 0;
  g_signal.compare_exchange_strong(expected, signal_number);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

const std::atomic<int>& InterruptGuard::signal() const { return g_signal; }

}  // namespace spotcheck::cli
