// SIGINT and SIGTERM during a long command: the first one asks the command to stop at its next
// safe point (a campaign finishes the seeds in flight, prints the summary of the seeds that
// finished and writes its reports); the handler only stores the signal number. A second signal
// gets the default action (SA_RESETHAND), so a stuck command can still be killed.
#pragma once

#include <atomic>

namespace spotcheck::cli {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers
  ~InterruptGuard();  // restores the previous ones
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // 0, or the first signal that arrived.
  const std::atomic<int>& signal() const;
};

// The exit status of a command stopped by a signal: 128 + its number (130 SIGINT, 143 SIGTERM).
inline int exit_code_for_signal(int signal_number) { return 128 + signal_number; }

}  // namespace spotcheck::cli
