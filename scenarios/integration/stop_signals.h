// SIGINT and SIGTERM as a stop request that a run polls (IntegrationRequest::stop_requested),
// instead of the default death that leaves a run's keys in Redis. The handler (sigaction) only
// stores the signal number in a lock-free atomic: nothing that is not async-signal-safe runs in
// it. While a StopSignals lives, a second signal does nothing more (cleanup is bounded by the
// command timeouts); the previous dispositions come back when it ends.
//
//   StopSignals signals;                      // installs the handlers
//   request.stop_requested = [] { return StopSignals::requested(); };
//   ... run ...; if (int s = StopSignals::requested()) exit code 128 + s
#pragma once

#include <csignal>

namespace spotcheck::scenarios::integration {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The first SIGINT or SIGTERM received since the StopSignals began, or 0.
  static int requested();

 private:
  struct sigaction _old_int {};
  struct sigaction _old_term {};
};

// The exit status of a process ended by `signal_number` (128 + n, as a shell reports it).
inline int exit_status_for_signal(int signal_number) { return 128 + signal_number; }

}  // namespace spotcheck::scenarios::integration
