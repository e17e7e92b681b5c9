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

std::string_view to_string(InstanceOutcomeKind kind) {
  switch (kind) {
    case InstanceOutcomeKind::kCreated:
      return "created";
    case InstanceOutcomeKind::kDelivered:
      return "delivered";
    case InstanceOutcomeKind::kRoute:
      return "route";
    case InstanceOutcomeKind::kTypeMismatch:
      return "type_mismatch";
    case InstanceOutcomeKind::kNotFound:
      return "not_found";
    case InstanceOutcomeKind::kInvalidOperation:
      return "invalid_operation";
    case InstanceOutcomeKind::kNotConfigured:
      return "not_configured";
    case InstanceOutcomeKind::kFailed:
      return "failed";
    case InstanceOutcomeKind::kDeadlineExceeded:
      return "deadline_exceeded";
    case InstanceOutcomeKind::kSpotMoving:
      return "spot_moving";
    case InstanceOutcomeKind::kStoreError:
      return "store_error";
  }
  return "unknown";
}

std::optional<InstanceOutcomeKind> parse_instance_outcome_kind(std::string_view text) {
  constexpr int kKinds = static_cast<int>(InstanceOutcomeKind::kSpotMoving) + 1;  // the last kind
  for (int i = 0; i < kKinds; ++i) {
    const auto kind = static_cast<InstanceOutcomeKind>(i);
    if (to_string(kind) == text) {
      return kind;
    }
  }
  return std::nullopt;
}

}  // namespace spotcheck::location::instance
