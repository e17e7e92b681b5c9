// Closed value sets of the public records (spec §3.3, §3.4, §4) and their JSON spellings.
#pragma once

#include <optional>
#include <string_view>

namespace spotcheck::records {

// allocation.objectKind, objectCapabilities[].objectKind, spotTypes[].objectKind.
// No Entry Spot: an Entry Spot's Actor counts as an actor (§4).
enum class ObjectKind { kActor, kUserSpot, kInstanceSpot };
// allocation.state
enum class AllocationState { kReserved, kActive };
// MeshNode / ClientServer / fanout publisher descriptor state
enum class DescriptorState { kPreparing, kServing, kRelocating, kRelocated, kDraining, kStopped, kError };
// MeshNode descriptor objectRole
enum class ObjectRole { kNone, kClient, kServer };
// objectCapabilities[].policy
enum class CapabilityPolicy { kUnspecified, kDisabled, kRecreate, kSnapshot };

std::string_view to_string(ObjectKind value);        // actor | userSpot | instanceSpot
std::string_view to_string(AllocationState value);   // reserved | active
std::string_view to_string(DescriptorState value);   // preparing | serving | ... | error
std::string_view to_string(ObjectRole value);        // none | client | server
std::string_view to_string(CapabilityPolicy value);  // unspecified | disabled | recreate | snapshot

// Exact, case-sensitive parse of the JSON spelling; nullopt for anything else.
std::optional<ObjectKind> parse_object_kind(std::string_view text);
std::optional<AllocationState> parse_allocation_state(std::string_view text);
std::optional<DescriptorState> parse_descriptor_state(std::string_view text);
std::optional<ObjectRole> parse_object_role(std::string_view text);
std::optional<CapabilityPolicy> parse_capability_policy(std::string_view text);

constexpr bool is_spot(ObjectKind kind) { return kind != ObjectKind::kActor; }

}  // namespace spotcheck::records
