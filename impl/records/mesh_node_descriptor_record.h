// MeshNode descriptor record (spec §3.4, §4): key mesh_node_preimage(mesh_name, routing_id_hex).
// Top-level ownerId/leaseGeneration/descriptorRevision are copies of the descriptor's fields:
// held once here, written twice by encode(), checked equal by decode (kInconsistent).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/records/enums.h"
#include "impl/records/limits.h"
#include "impl/records/record_error.h"

namespace spotcheck::records {

// objectCapabilities[] entry. Array order is kept as given (it is data, not sorted).
struct ObjectCapability {
  ObjectKind object_kind = ObjectKind::kActor;
  std::string stable_type;  // identity text
  CapabilityPolicy policy = CapabilityPolicy::kUnspecified;
  bool has_snapshot_adapter = false;
  std::uint32_t limit = 0;  // 0..2^31-1, 0 = unlimited

  friend bool operator==(const ObjectCapability&, const ObjectCapability&) = default;
};

// capacity.actors / capacity.spots: {active, reserved, limit}, each 0..2^31-1.
struct CapacityUsage {
  std::uint32_t active = 0;
  std::uint32_t reserved = 0;
  std::uint32_t limit = 0;

  friend bool operator==(const CapacityUsage&, const CapacityUsage&) = default;
};

// capacity.spotTypes[] entry (userSpot | instanceSpot only; Entry Spot is not counted).
struct SpotTypeUsage {
  ObjectKind object_kind = ObjectKind::kUserSpot;
  std::string stable_type;  // identity text
  std::uint32_t active = 0;
  std::uint32_t reserved = 0;
  std::uint32_t limit = 0;

  friend bool operator==(const SpotTypeUsage&, const SpotTypeUsage&) = default;
};

struct DescriptorCapacity {
  CapacityUsage actors;
  CapacityUsage spots;
  std::vector<SpotTypeUsage> spot_types;  // <= 1,024 entries, order kept

  friend bool operator==(const DescriptorCapacity&, const DescriptorCapacity&) = default;
};

struct ActivationConcurrency {
  std::uint32_t active = 0;  // 0..2^31-1
  std::uint32_t limit = 0;   // 0..2^31-1

  friend bool operator==(const ActivationConcurrency&, const ActivationConcurrency&) = default;
};

// ChannelName -> weight 0..10000. std::less<> on std::string orders by unsigned byte value,
// which is the canonical key order; <= 1,024 entries.
using ChannelWeights = std::map<std::string, std::uint32_t, std::less<>>;

struct MeshNodeDescriptorRecord {
  std::string mesh_name;                   // identity text
  std::string routing_id_hex;              // lowercase hex
  std::uint64_t lifecycle_generation = 0;  // 1..2^63-2
  std::uint64_t descriptor_revision = 0;   // 1..2^63-1
  std::string endpoint;                    // non-empty UTF-8
  std::optional<std::string> entry_spot_id;  // identity text; null unless objectRole is server,
                                             // required when it is
  ChannelWeights channel_weights;
  std::uint64_t application_version = 0;   // 0..2^63-1 (decimal string)
  std::vector<ObjectCapability> object_capabilities;  // <= 1,024 entries
  ObjectRole object_role = ObjectRole::kNone;
  std::uint32_t placement_weight = kWeightDefault;  // 0..10000
  DescriptorCapacity capacity;
  ActivationConcurrency activation_concurrency;
  std::optional<std::string> maintenance_wave;  // identity text or null
  DescriptorState state = DescriptorState::kPreparing;
  std::string security_identity;           // UTF-8, may be empty
  std::string owner_id;                    // identity text
  std::uint64_t lease_generation = 0;      // 1..2^63-2
  std::int64_t updated_at_epoch_ms = 0;    // 0..2^63-1

  friend bool operator==(const MeshNodeDescriptorRecord&,
                         const MeshNodeDescriptorRecord&) = default;
};

std::optional<RecordError> validate(const MeshNodeDescriptorRecord& record);
std::string encode(const MeshNodeDescriptorRecord& record);
RecordResult<std::string> encode_checked(const MeshNodeDescriptorRecord& record);
RecordResult<MeshNodeDescriptorRecord> decode_mesh_node_descriptor_record(std::string_view bytes);
std::string key_preimage(const MeshNodeDescriptorRecord& record);

}  // namespace spotcheck::records
