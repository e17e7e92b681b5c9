// The lanes of a story's diagram: one per node the story involves (in the order the run added
// them), then one per store server its arrows reach (the Location Store's first).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "replay/story/process_names.h"
#include "reports/sequence_diagram.h"

namespace spotcheck::replay {

class DiagramLanes {
 public:
  DiagramLanes(const std::vector<std::string>& nodes, const std::set<std::int64_t>& store_rids,
               const ProcessNames& names);

  std::optional<std::size_t> of_node(const std::string& node) const;
  std::optional<std::size_t> of_rid(std::int64_t rid) const;
  const std::vector<reports::DiagramLane>& lanes() const { return _lanes; }
  // The lane's name, or the RoutingId's when it has no lane.
  std::string name_of_rid(std::int64_t rid) const;

 private:
  void add(std::string name, bool store, std::optional<std::int64_t> rid);

  std::vector<reports::DiagramLane> _lanes;
  std::map<std::string, std::size_t> _by_node;
  std::map<std::int64_t, std::size_t> _by_rid;
};

// The story's nodes in the order the run added them (ProcessId), unknown names last by name.
std::vector<std::string> nodes_in_run_order(std::vector<std::string> nodes, const ProcessNames& names);

}  // namespace spotcheck::replay
