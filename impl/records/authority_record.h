// Authority record (spec §3.2, §3.3, §3.4): key authority_preimage(kind, id). The key (kind and
// Id) is not stored in the value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/records/enums.h"
#include "impl/records/keys.h"
#include "impl/records/record_error.h"

namespace spotcheck::records {

// allocation.descriptor: the MeshNode descriptor key parts.
struct AllocationDescriptor {
  std::string mesh_name;       // identity text
  std::string routing_id_hex;  // lowercase hex

  friend bool operator==(const AllocationDescriptor&, const AllocationDescriptor&) = default;
};

// allocation.capacity.spotType: the Spot kind/stable type slot this allocation secured.
struct SpotTypeSlot {
  ObjectKind object_kind = ObjectKind::kUserSpot;  // equals allocation.objectKind
  std::string stable_type;                         // equals allocation.stableType
  std::uint32_t count = 0;                         // 0..2^31-1

  friend bool operator==(const SpotTypeSlot&, const SpotTypeSlot&) = default;
};

// allocation.capacity: slot counts 0..2^31-1; spot_type is null for an actor and present for a
// Spot; at least one positive slot (spec §3.3).
struct AllocationCapacity {
  std::uint32_t actors = 0;
  std::uint32_t spots = 0;
  std::optional<SpotTypeSlot> spot_type;

  friend bool operator==(const AllocationCapacity&, const AllocationCapacity&) = default;
};

struct Allocation {
  AllocationState state = AllocationState::kReserved;
  ObjectKind object_kind = ObjectKind::kActor;
  std::string stable_type;  // identity text
  AllocationDescriptor descriptor;
  std::uint64_t descriptor_lifecycle_generation = 0;  // 1..2^63-2
  AllocationCapacity capacity;

  friend bool operator==(const Allocation&, const Allocation&) = default;
};

struct PendingCreation {
  std::string reservation_id;             // identity text
  std::string request_content_reference;  // identity text
  std::string request_sha256;             // 64 lowercase hex
  std::uint64_t request_encoded_size = 0; // 0..1 MiB, a JSON number

  friend bool operator==(const PendingCreation&, const PendingCreation&) = default;
};

struct AuthorityRecord {
  std::string payload;  // raw bytes; base64 (standard alphabet, padded) in JSON
  std::uint64_t object_generation = 0;           // 1..2^63-2
  std::uint64_t authority_owner_generation = 0;  // 1..2^63-2
  std::string owner_id;                          // identity text
  std::uint64_t owner_lease_generation = 0;      // 1..2^63-2
  Allocation allocation;
  std::optional<PendingCreation> pending_creation;  // null when absent

  friend bool operator==(const AuthorityRecord&, const AuthorityRecord&) = default;
};

std::optional<RecordError> validate(const AuthorityRecord& record);
std::string encode(const AuthorityRecord& record);
RecordResult<std::string> encode_checked(const AuthorityRecord& record);
RecordResult<AuthorityRecord> decode_authority_record(std::string_view bytes);

// The authority key segment of an object kind: actor -> kActor, every Spot kind -> kSpot.
constexpr AuthorityKind authority_kind(ObjectKind kind) {
  return kind == ObjectKind::kActor ? AuthorityKind::kActor : AuthorityKind::kSpot;
}

}  // namespace spotcheck::records
