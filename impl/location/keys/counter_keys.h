// Store keys of the Framework's counters: the generation sequences (§3.1, §3.2) and the per-node
// capacity counters (§3.3, §4).
//
// These are framework-internal keys, not §3.4 public records: like the public preimages they are
// UTF-8 segments separated by one \0 byte, under prefixes ("counter", "capacity") that no public
// record preimage uses, so a provider may store them beside the records. A counter value is the
// decimal ASCII of a signed 64-bit integer kept by store::Increment (absent counts as 0).
#pragma once

#include <string>
#include <string_view>

#include "impl/records/enums.h"

namespace spotcheck::location::keys {

// "counter\0lease-generation": issues LeaseGeneration (§3.1).
std::string lease_generation_counter();
// "counter\0object-generation": the store-wide monotonic sequence issuing ObjectGeneration (§3.4).
std::string object_generation_counter();

// Which per-node capacity counter.
enum class CapacityCounterKind { kActors, kSpots, kSpotType };

// "capacity\0{MeshName}\0{hex(RoutingId)}\0actors"
std::string capacity_actors(std::string_view mesh_name, std::string_view routing_id_hex);
// "capacity\0{MeshName}\0{hex(RoutingId)}\0spots"
std::string capacity_spots(std::string_view mesh_name, std::string_view routing_id_hex);
// "capacity\0{MeshName}\0{hex(RoutingId)}\0spot-type\0{objectKind}\0{stableType}"
std::string capacity_spot_type(std::string_view mesh_name, std::string_view routing_id_hex,
                               records::ObjectKind spot_kind, std::string_view stable_type);

// The key range [begin, end) of every MeshNode descriptor of one mesh:
// "mesh-node\0{MeshName}\0" .. "mesh-node\0{MeshName}\1".
std::string mesh_node_range_begin(std::string_view mesh_name);
std::string mesh_node_range_end(std::string_view mesh_name);
// The key range of every authority row: "authority\0" .. "authority\1".
std::string authority_range_begin();
std::string authority_range_end();

}  // namespace spotcheck::location::keys
