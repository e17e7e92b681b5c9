#include "impl/location/authority/capacity.h"

#include <limits>

#include "impl/check/check.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/limits.h"

namespace spotcheck::location {

namespace {

std::int64_t effective_limit(std::uint32_t limit) {
  SPOTCHECK_ASSERT(limit <= records::kLimitMax);
  return limit == 0 ? static_cast<std::int64_t>(records::kSlotsMax) : static_cast<std::int64_t>(limit);
}

CapacityChange change(store::Key key, std::int64_t delta, std::int64_t max, std::string_view mesh,
                      std::string_view rid, std::string counter, std::string spot_kind,
                      std::string stable_type) {
  SPOTCHECK_ASSERT(delta != 0);
  return CapacityChange{store::Increment{std::move(key), delta, 0, max}, std::string(mesh),
                        std::string(rid), std::move(counter), std::move(spot_kind),
                        std::move(stable_type)};
}

}  // namespace

records::AllocationCapacity capacity_for(records::ObjectKind kind, std::string_view stable_type) {
  if (kind == records::ObjectKind::kActor) {
    return records::AllocationCapacity{1, 0, std::nullopt};
  }
  return records::AllocationCapacity{0, 1,
                                     records::SpotTypeSlot{kind, std::string(stable_type), 1}};
}

bool has_capability(const records::MeshNodeDescriptorRecord& node, records::ObjectKind kind,
                    std::string_view stable_type) {
  SPOTCHECK_ASSERT(node.object_capabilities.size() <= records::kCapabilityEntriesMax);
  for (const records::ObjectCapability& capability : node.object_capabilities) {
    if (capability.object_kind == kind && capability.stable_type == stable_type) {
      return true;
    }
  }
  return false;
}

std::int64_t actors_limit(const records::MeshNodeDescriptorRecord& node) {
  return effective_limit(node.capacity.actors.limit);
}

std::int64_t spots_limit(const records::MeshNodeDescriptorRecord& node) {
  return effective_limit(node.capacity.spots.limit);
}

std::int64_t spot_type_limit(const records::MeshNodeDescriptorRecord& node,
                             records::ObjectKind kind, std::string_view stable_type) {
  SPOTCHECK_ASSERT(records::is_spot(kind));
  for (const records::ObjectCapability& capability : node.object_capabilities) {
    if (capability.object_kind == kind && capability.stable_type == stable_type) {
      return effective_limit(capability.limit);
    }
  }
  return effective_limit(0);
}

std::vector<CapacityChange> secure_capacity(const records::AllocationCapacity& capacity,
                                            const records::MeshNodeDescriptorRecord& target) {
  SPOTCHECK_ASSERT(capacity.actors > 0 || capacity.spots > 0);
  const std::string& mesh = target.mesh_name;
  const std::string& rid = target.routing_id_hex;
  std::vector<CapacityChange> changes;
  if (capacity.actors > 0) {
    changes.push_back(change(keys::capacity_actors(mesh, rid), capacity.actors,
                             actors_limit(target), mesh, rid, "actors", "", ""));
  }
  if (capacity.spots > 0) {
    changes.push_back(change(keys::capacity_spots(mesh, rid), capacity.spots, spots_limit(target),
                             mesh, rid, "spots", "", ""));
  }
  if (capacity.spot_type.has_value() && capacity.spot_type->count > 0) {
    const records::SpotTypeSlot& slot = *capacity.spot_type;
    changes.push_back(change(
        keys::capacity_spot_type(mesh, rid, slot.object_kind, slot.stable_type), slot.count,
        spot_type_limit(target, slot.object_kind, slot.stable_type), mesh, rid, "spot-type",
        std::string(records::to_string(slot.object_kind)), slot.stable_type));
  }
  SPOTCHECK_ASSERT(!changes.empty());
  return changes;
}

std::vector<CapacityChange> release_capacity(const records::Allocation& allocation) {
  const records::AllocationCapacity& capacity = allocation.capacity;
  SPOTCHECK_ASSERT(capacity.actors > 0 || capacity.spots > 0);
  const std::string& mesh = allocation.descriptor.mesh_name;
  const std::string& rid = allocation.descriptor.routing_id_hex;
  // Releasing never hits the upper bound, whatever a node's limit became since.
  constexpr std::int64_t kNoUpperBound = std::numeric_limits<std::int64_t>::max();
  std::vector<CapacityChange> changes;
  if (capacity.actors > 0) {
    changes.push_back(change(keys::capacity_actors(mesh, rid), -static_cast<std::int64_t>(capacity.actors),
                             kNoUpperBound, mesh, rid, "actors", "", ""));
  }
  if (capacity.spots > 0) {
    changes.push_back(change(keys::capacity_spots(mesh, rid), -static_cast<std::int64_t>(capacity.spots),
                             kNoUpperBound, mesh, rid, "spots", "", ""));
  }
  if (capacity.spot_type.has_value() && capacity.spot_type->count > 0) {
    const records::SpotTypeSlot& slot = *capacity.spot_type;
    changes.push_back(change(keys::capacity_spot_type(mesh, rid, slot.object_kind, slot.stable_type),
                             -static_cast<std::int64_t>(slot.count), kNoUpperBound, mesh, rid,
                             "spot-type", std::string(records::to_string(slot.object_kind)),
                             slot.stable_type));
  }
  SPOTCHECK_ASSERT(!changes.empty());
  return changes;
}

}  // namespace spotcheck::location
