// The simulated processes of a run as its trace names them: each process.add event adds one, so
// the n-th is ProcessId n (the `node` of the store's events) and its routing_id is the RoutingId
// messages name (`to`, `from`).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "replay/story/trace_line.h"

namespace spotcheck::replay {

class ProcessNames {
 public:
  // Takes a process.add event; any other is ignored.
  void read(const TraceLine& line);

  // "" when the trace has not named the process.
  std::string of_pid(std::optional<std::int64_t> pid) const;
  std::string of_rid(std::optional<std::int64_t> rid) const;
  std::optional<std::int64_t> rid_of(const std::string& name) const;
  // Where the process was added (its ProcessId), for ordering; nullopt when unknown.
  std::optional<std::size_t> pid_of(const std::string& name) const;
  bool is_process(std::int64_t rid) const { return _by_rid.count(rid) > 0; }

 private:
  std::vector<std::string> _by_pid;
  std::map<std::int64_t, std::string> _by_rid;
  std::map<std::string, std::int64_t> _rid_by_name;
};

}  // namespace spotcheck::replay
