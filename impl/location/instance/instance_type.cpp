#include "impl/location/instance/instance_type.h"

#include "impl/location/placement/placement.h"

namespace spotcheck::location::instance {

std::set<std::string> available_instance_types(const std::vector<NodeView>& nodes) {
  std::set<std::string> types;
  for (const NodeView& node : nodes) {
    for (const records::ObjectCapability& capability : node.descriptor.object_capabilities) {
      if (capability.object_kind != records::ObjectKind::kInstanceSpot) {
        continue;
      }
      const PlacementRequest request{records::ObjectKind::kInstanceSpot, capability.stable_type, {}};
      if (is_placement_candidate(node, request)) {
        types.insert(capability.stable_type);
      }
    }
  }
  return types;
}

TypeChoice choose_instance_type(const std::optional<std::string>& requested, const std::vector<NodeView>& nodes) {
  if (requested.has_value()) {
    return TypeChoice{InstanceOutcomeKind::kCreated, *requested};
  }
  const std::set<std::string> types = available_instance_types(nodes);
  if (types.empty()) {
    return TypeChoice{InstanceOutcomeKind::kNotFound, {}};
  }
  if (types.size() >= 2) {
    return TypeChoice{InstanceOutcomeKind::kInvalidOperation, {}};
  }
  return TypeChoice{InstanceOutcomeKind::kCreated, *types.begin()};
}

}  // namespace spotcheck::location::instance
