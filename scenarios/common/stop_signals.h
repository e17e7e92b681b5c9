// SIGINT and SIGTERM as a stop request that a long command polls, instead of the default death
// that loses its results: `spotcheck run` finishes the seeds in flight and writes its summary and
// reports; `spotcheck redis` (IntegrationRequest::stop_requested) removes the run's keys. The
// handler (sigaction) only stores the signal number in a lock-free atomic: nothing that is not
// async-signal-safe runs in it. The previous dispositions come back when a StopSignals ends.
// A second signal either does nothing more (kSecondIgnored: a cleanup bounded by its command
// timeouts must finish) or gets the default action (kSecondKills: a stuck command can still be
// killed; nothing half-written is left, since outputs are renamed into place).
//
//   StopSignals signals(StopSignals::kSecondIgnored);      // installs the handlers
//   request.stop_requested = [] { return StopSignals::requested(); };
//   ... run ...; if (int s = StopSignals::requested()) exit code 128 + s
#pragma once

#include <csignal>

namespace spotcheck::scenarios {

class StopSignals {
 public:
  enum SecondSignal { kSecondIgnored, kSecondKills };
  explicit StopSignals(SecondSignal second);
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

}  // namespace spotcheck::scenarios
