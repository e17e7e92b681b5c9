#include "replay/diagram/diagram_lanes.h"

#include <algorithm>
#include <limits>

#include "replay/diagram/message_log.h"

namespace spotcheck::replay {

namespace {

std::string store_name(std::int64_t rid) {
  if (rid == location_store_rid()) {
    return "Location Store";
  }
  if (rid == relocation_store_rid()) {
    return "Relocation Store";
  }
  return "store " + std::to_string(rid);
}

}  // namespace

DiagramLanes::DiagramLanes(const std::vector<std::string>& nodes, const std::set<std::int64_t>& store_rids,
                           const ProcessNames& names) {
  for (const std::string& node : nodes) {
    add(node, false, names.rid_of(node));
  }
  // The set is in RoutingId order: the Location Store's server, then the Relocation Store's.
  for (const std::int64_t rid : store_rids) {
    add(store_name(rid), true, rid);
  }
}

void DiagramLanes::add(std::string name, bool store, std::optional<std::int64_t> rid) {
  const std::size_t lane = _lanes.size();
  if (!store) {
    _by_node[name] = lane;
  }
  if (rid.has_value()) {
    _by_rid[*rid] = lane;
  }
  _lanes.push_back(reports::DiagramLane{std::move(name), store});
}

std::optional<std::size_t> DiagramLanes::of_node(const std::string& node) const {
  const auto it = _by_node.find(node);
  return it == _by_node.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

std::optional<std::size_t> DiagramLanes::of_rid(std::int64_t rid) const {
  const auto it = _by_rid.find(rid);
  return it == _by_rid.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

std::string DiagramLanes::name_of_rid(std::int64_t rid) const {
  const auto lane = of_rid(rid);
  return lane.has_value() ? _lanes[*lane].name : "endpoint " + std::to_string(rid);
}

std::vector<std::string> nodes_in_run_order(std::vector<std::string> nodes, const ProcessNames& names) {
  auto rank = [&](const std::string& node) {
    return std::make_pair(names.pid_of(node).value_or(std::numeric_limits<std::size_t>::max()), node);
  };
  std::sort(nodes.begin(), nodes.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

}  // namespace spotcheck::replay
