// The owner-lease and admission windows of every host run, from its lease events: each
// lease.registered / lease.renewed opens a window from its own instant to the lease's ExpiresAt
// (the store's clock) and to the admission deadline it gives (the node's local clock), both read
// onto virtual time; the window is cut by the host run's next lease event, by the loss of its
// lease, or by the end of its process run (kill, exit).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "replay/diagram/clock_readings.h"
#include "replay/story/trace_line.h"

namespace spotcheck::replay {

struct LeaseWindow {
  std::string node;
  std::string owner;
  std::int64_t lease_gen = 0;
  std::uint64_t index = 0;  // the lease event
  std::int64_t from_us = 0;
  std::int64_t lease_until_us = 0;      // ExpiresAt on virtual time
  std::int64_t admission_until_us = 0;  // the admission deadline on virtual time
  std::int64_t expires_ms = 0;          // as the event gave them
  std::int64_t deadline_us = 0;
  std::optional<std::int64_t> cut_us;  // nullopt: still open at the end of what was read
  std::string cut_by;                  // "renewed", "lease lost", "kill", "exit"
};

class LeaseWindows {
 public:
  // Lease events, and the kills and exits that end a node's windows. `clocks` has read the lines
  // before this one (it knows the node's host run).
  void read(const TraceLine& line, const ClockReadings& clocks);
  // Every window, its ends read onto virtual time through `clocks` (once every line was read).
  std::vector<LeaseWindow> windows(const ClockReadings& clocks) const;

 private:
  struct Opened {
    LeaseWindow window;
    std::int64_t run = 0;
    std::int64_t store_now_ms = 0;
    std::int64_t local_before_us = 0;
  };
  void cut(const TraceLine& line, bool (*matches)(const Opened&, const TraceLine&), const char* by);

  std::vector<Opened> _opened;
};

}  // namespace spotcheck::replay
