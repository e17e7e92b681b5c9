// The clocks a trace's deadlines are written in, read back onto virtual time (the diagram's
// axis). A node's local clock (`deadline_us`) is read wherever an event of the node states its
// local time (`now_us`); the Location Store's clock (`expires_ms`) wherever the store applied a
// write (store.applied: `store_now_ms` at the event's virtual time). A time is mapped through the
// reading nearest to it, so clock drift costs at most microseconds.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "replay/story/trace_line.h"

namespace spotcheck::replay {

class ClockReadings {
 public:
  void read(const TraceLine& line);

  // Host runs of a node are counted by its `start` events (1 from the first); a reading belongs
  // to the run it was taken in. The run a node is in after the lines read so far:
  std::int64_t run_of(const std::string& node) const;

  // When `node`'s local clock (in host run `run`) showed `local_us`, through the reading nearest
  // to virtual time `near_us`; nullopt without a reading of that run.
  std::optional<std::int64_t> virtual_of_local(const std::string& node, std::int64_t run, std::int64_t local_us,
                                               std::int64_t near_us) const;
  // When the Location Store's clock showed `store_ms`, through the reading nearest to `near_us`.
  std::optional<std::int64_t> virtual_of_store_ms(std::int64_t store_ms, std::int64_t near_us) const;

 private:
  struct Reading {
    std::int64_t virtual_us;
    std::int64_t clock_us;  // the clock's reading then
  };
  static std::optional<std::int64_t> through_nearest(const std::vector<Reading>& readings, std::int64_t clock_us,
                                                     std::int64_t near_us);

  std::map<std::string, std::int64_t> _runs;
  std::map<std::pair<std::string, std::int64_t>, std::vector<Reading>> _local;  // (node, run) -> readings
  std::vector<Reading> _store;
};

}  // namespace spotcheck::replay
