#include "replay/story/process_names.h"

#include <algorithm>

#include "impl/platform/event_kinds.h"

namespace spotcheck::replay {

void ProcessNames::read(const TraceLine& line) {
  if (line.kind != kinds::kProcessAdd) {
    return;
  }
  _by_pid.push_back(line.node);
  if (const auto rid = number_field(line, "routing_id")) {
    _by_rid[*rid] = line.node;
    _rid_by_name[line.node] = *rid;
  }
}

std::string ProcessNames::of_pid(std::optional<std::int64_t> pid) const {
  return pid && *pid >= 0 && static_cast<std::size_t>(*pid) < _by_pid.size() ? _by_pid[static_cast<std::size_t>(*pid)]
                                                                             : "";
}

std::string ProcessNames::of_rid(std::optional<std::int64_t> rid) const {
  const auto it = rid ? _by_rid.find(*rid) : _by_rid.end();
  return it == _by_rid.end() ? "" : it->second;
}

std::optional<std::int64_t> ProcessNames::rid_of(const std::string& name) const {
  const auto it = _rid_by_name.find(name);
  return it == _rid_by_name.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
}

std::optional<std::size_t> ProcessNames::pid_of(const std::string& name) const {
  const auto it = std::find(_by_pid.begin(), _by_pid.end(), name);
  return it == _by_pid.end() ? std::nullopt
                             : std::optional<std::size_t>(static_cast<std::size_t>(it - _by_pid.begin()));
}

}  // namespace spotcheck::replay
