// Capacity accounting in the Location Store (spec §3.3, §4).
//
// Each MeshNode (MeshName, RoutingId) has store counters: actors, spots, and one per
// (spotKind, stableType). An authority row's allocation.capacity names the slots it holds on its
// allocation.descriptor node, Reserved or Active alike. Every authority write that creates,
// moves or removes a row changes those counters in the same all-or-nothing request, so at every
// store state
//     counter(node, c) == sum of allocation.capacity[c] over the authority rows placed on node.
// Securing is a bounded store::Increment (max = the node's limit, 0 = unlimited = 2^31-1), so a
// full node makes the whole write Conflict{kBoundExceeded}; releasing decrements with min 0.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/records/authority_record.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

// The slots one object needs (§3.3): an Actor 1 actor slot; a User/Instance Spot 1 spot slot
// plus 1 slot of its (kind, stable type).
records::AllocationCapacity capacity_for(records::ObjectKind kind, std::string_view stable_type);

// One counter change of one write, described for events.
struct CapacityChange {
  store::Increment increment;
  std::string mesh_name;
  std::string routing_id_hex;
  std::string counter;  // "actors" | "spots" | "spot-type"
  std::string spot_kind;    // for "spot-type": userSpot | instanceSpot; else empty
  std::string stable_type;  // for "spot-type"; else empty
};

// The counter changes that secure `capacity` on `target` (positive deltas, bounded by limits).
std::vector<CapacityChange> secure_capacity(const records::AllocationCapacity& capacity,
                                            const records::MeshNodeDescriptorRecord& target);
// The counter changes that release `allocation`'s capacity on its node (negative, min 0).
std::vector<CapacityChange> release_capacity(const records::Allocation& allocation);

// The node registered an object capability for (kind, stable type) (§7: the target must have
// registered the requested stable type).
bool has_capability(const records::MeshNodeDescriptorRecord& node, records::ObjectKind kind,
                    std::string_view stable_type);

// Effective limits: a limit of 0 means unlimited (2^31-1 slots).
std::int64_t actors_limit(const records::MeshNodeDescriptorRecord& node);
std::int64_t spots_limit(const records::MeshNodeDescriptorRecord& node);
std::int64_t spot_type_limit(const records::MeshNodeDescriptorRecord& node,
                             records::ObjectKind kind, std::string_view stable_type);

}  // namespace spotcheck::location
