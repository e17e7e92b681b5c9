#include "impl/records/authority_record.h"

#include <array>

#include "impl/check/check.h"
#include "impl/records/canonical_json_reader.h"
#include "impl/records/canonical_json_writer.h"
#include "impl/records/record_codec_common.h"
#include "impl/records/validate.h"

namespace spotcheck::records {
namespace {

constexpr std::array<std::string_view, 8> kTopKeys{
    "allocation", "authorityOwnerGeneration", "objectGeneration", "ownerId",
    "ownerLeaseGeneration", "payload", "pendingCreation", "recordVersion"};
constexpr ObjectSchema kTop{"", kTopKeys};

constexpr std::array<std::string_view, 6> kAllocationKeys{
    "capacity", "descriptor", "descriptorLifecycleGeneration", "objectKind", "stableType",
    "state"};
constexpr ObjectSchema kAllocation{"allocation", kAllocationKeys};

constexpr std::array<std::string_view, 3> kCapacityKeys{"actors", "spotType", "spots"};
constexpr ObjectSchema kCapacity{"allocation.capacity", kCapacityKeys};

constexpr std::array<std::string_view, 3> kSpotTypeKeys{"count", "objectKind", "stableType"};
constexpr ObjectSchema kSpotType{"allocation.capacity.spotType", kSpotTypeKeys};

constexpr std::array<std::string_view, 2> kDescriptorKeys{"meshName", "routingIdHex"};
constexpr ObjectSchema kDescriptor{"allocation.descriptor", kDescriptorKeys};

constexpr std::array<std::string_view, 4> kPendingKeys{
    "requestContentReference", "requestEncodedSize", "requestSha256", "reservationId"};
constexpr ObjectSchema kPending{"pendingCreation", kPendingKeys};

std::optional<RecordError> validate_capacity(const Allocation& allocation) {
  const AllocationCapacity& capacity = allocation.capacity;
  if (auto error = check_range("allocation.capacity.actors", capacity.actors, 0, kSlotsMax)) {
    return error;
  }
  if (auto error = check_range("allocation.capacity.spots", capacity.spots, 0, kSlotsMax)) {
    return error;
  }
  std::uint64_t positive_slots = (capacity.actors > 0 ? 1 : 0) + (capacity.spots > 0 ? 1 : 0);
  if (!is_spot(allocation.object_kind)) {
    if (capacity.spot_type) {
      return detail::inconsistent("allocation.capacity.spotType", "must be null for an actor");
    }
  } else {
    if (!capacity.spot_type) {
      return detail::inconsistent("allocation.capacity.spotType", "required for a Spot");
    }
    const SpotTypeSlot& slot = *capacity.spot_type;
    if (slot.object_kind != allocation.object_kind) {
      return detail::inconsistent("allocation.capacity.spotType.objectKind",
                                  "differs from allocation.objectKind");
    }
    if (slot.stable_type != allocation.stable_type) {
      return detail::inconsistent("allocation.capacity.spotType.stableType",
                                  "differs from allocation.stableType");
    }
    if (auto error = check_range("allocation.capacity.spotType.count", slot.count, 0, kSlotsMax)) {
      return error;
    }
    positive_slots += slot.count > 0 ? 1 : 0;
  }
  if (positive_slots == 0) {
    return detail::inconsistent("allocation.capacity", "a secured bundle needs a positive slot");
  }
  return std::nullopt;
}

std::optional<RecordError> validate_allocation(const Allocation& allocation) {
  if (auto error = check_identity("allocation.stableType", allocation.stable_type)) {
    return error;
  }
  if (auto error = check_identity("allocation.descriptor.meshName",
                                  allocation.descriptor.mesh_name)) {
    return error;
  }
  if (auto error = check_routing_id_hex("allocation.descriptor.routingIdHex",
                                        allocation.descriptor.routing_id_hex)) {
    return error;
  }
  if (auto error = check_generation("allocation.descriptorLifecycleGeneration",
                                    allocation.descriptor_lifecycle_generation)) {
    return error;
  }
  return validate_capacity(allocation);
}

std::optional<RecordError> validate_pending(const PendingCreation& pending) {
  if (auto error = check_identity("pendingCreation.reservationId", pending.reservation_id)) {
    return error;
  }
  if (auto error = check_identity("pendingCreation.requestContentReference",
                                  pending.request_content_reference)) {
    return error;
  }
  if (auto error = check_sha256_hex("pendingCreation.requestSha256", pending.request_sha256)) {
    return error;
  }
  return check_range("pendingCreation.requestEncodedSize", pending.request_encoded_size, 0,
                     kCreationRequestBytesMax);
}

void write_allocation(CanonicalJsonWriter& w, const Allocation& allocation) {
  w.begin_object();
  w.key("capacity");
  w.begin_object();
  w.key("actors");
  w.number_value(allocation.capacity.actors);
  w.key("spotType");
  if (allocation.capacity.spot_type) {
    const SpotTypeSlot& slot = *allocation.capacity.spot_type;
    w.begin_object();
    w.key("count");
    w.number_value(slot.count);
    w.key("objectKind");
    w.string_value(to_string(slot.object_kind));
    w.key("stableType");
    w.string_value(slot.stable_type);
    w.end_object();
  } else {
    w.null_value();
  }
  w.key("spots");
  w.number_value(allocation.capacity.spots);
  w.end_object();
  w.key("descriptor");
  w.begin_object();
  w.key("meshName");
  w.string_value(allocation.descriptor.mesh_name);
  w.key("routingIdHex");
  w.string_value(allocation.descriptor.routing_id_hex);
  w.end_object();
  w.key("descriptorLifecycleGeneration");
  w.decimal_string_value(allocation.descriptor_lifecycle_generation);
  w.key("objectKind");
  w.string_value(to_string(allocation.object_kind));
  w.key("stableType");
  w.string_value(allocation.stable_type);
  w.key("state");
  w.string_value(to_string(allocation.state));
  w.end_object();
}

void write_pending(CanonicalJsonWriter& w, const std::optional<PendingCreation>& pending) {
  if (!pending) {
    w.null_value();
    return;
  }
  w.begin_object();
  w.key("requestContentReference");
  w.string_value(pending->request_content_reference);
  w.key("requestEncodedSize");
  w.number_value(pending->request_encoded_size);
  w.key("requestSha256");
  w.string_value(pending->request_sha256);
  w.key("reservationId");
  w.string_value(pending->reservation_id);
  w.end_object();
}

void read_capacity(CanonicalJsonReader& r, AllocationCapacity& capacity) {
  if (!r.begin_object(kCapacity.path)) {
    return;
  }
  if (r.key(kCapacity, 0)) {
    capacity.actors = static_cast<std::uint32_t>(r.number("allocation.capacity.actors", kSlotsMax));
  }
  if (r.key(kCapacity, 1) && !r.consume_null() && r.begin_object(kSpotType.path)) {
    SpotTypeSlot& slot = capacity.spot_type.emplace();
    if (r.key(kSpotType, 0)) {
      slot.count = static_cast<std::uint32_t>(r.number("allocation.capacity.spotType.count",
                                                       kSlotsMax));
    }
    if (r.key(kSpotType, 1)) {
      slot.object_kind = r.enum_value<ObjectKind>("allocation.capacity.spotType.objectKind",
                                                  parse_object_kind);
    }
    if (r.key(kSpotType, 2)) {
      slot.stable_type = r.string("allocation.capacity.spotType.stableType");
    }
    r.end_object(kSpotType);
  }
  if (r.key(kCapacity, 2)) {
    capacity.spots = static_cast<std::uint32_t>(r.number("allocation.capacity.spots", kSlotsMax));
  }
  r.end_object(kCapacity);
}

void read_allocation(CanonicalJsonReader& r, Allocation& allocation) {
  if (!r.begin_object(kAllocation.path)) {
    return;
  }
  if (r.key(kAllocation, 0)) {
    read_capacity(r, allocation.capacity);
  }
  if (r.key(kAllocation, 1) && r.begin_object(kDescriptor.path)) {
    if (r.key(kDescriptor, 0)) {
      allocation.descriptor.mesh_name = r.string("allocation.descriptor.meshName");
    }
    if (r.key(kDescriptor, 1)) {
      allocation.descriptor.routing_id_hex = r.string("allocation.descriptor.routingIdHex");
    }
    r.end_object(kDescriptor);
  }
  if (r.key(kAllocation, 2)) {
    allocation.descriptor_lifecycle_generation =
        r.decimal_string("allocation.descriptorLifecycleGeneration", kRevisionMax);
  }
  if (r.key(kAllocation, 3)) {
    allocation.object_kind = r.enum_value<ObjectKind>("allocation.objectKind", parse_object_kind);
  }
  if (r.key(kAllocation, 4)) {
    allocation.stable_type = r.string("allocation.stableType");
  }
  if (r.key(kAllocation, 5)) {
    allocation.state =
        r.enum_value<AllocationState>("allocation.state", parse_allocation_state);
  }
  r.end_object(kAllocation);
}

void read_pending(CanonicalJsonReader& r, std::optional<PendingCreation>& out) {
  if (r.consume_null() || !r.begin_object(kPending.path)) {
    return;
  }
  PendingCreation& pending = out.emplace();
  if (r.key(kPending, 0)) {
    pending.request_content_reference = r.string("pendingCreation.requestContentReference");
  }
  if (r.key(kPending, 1)) {
    pending.request_encoded_size =
        r.number("pendingCreation.requestEncodedSize", kCreationRequestBytesMax);
  }
  if (r.key(kPending, 2)) {
    pending.request_sha256 = r.string("pendingCreation.requestSha256");
  }
  if (r.key(kPending, 3)) {
    pending.reservation_id = r.string("pendingCreation.reservationId");
  }
  r.end_object(kPending);
}

}  // namespace

std::optional<RecordError> validate(const AuthorityRecord& record) {
  if (auto error = check_generation("objectGeneration", record.object_generation)) {
    return error;
  }
  if (auto error = check_generation("authorityOwnerGeneration",
                                    record.authority_owner_generation)) {
    return error;
  }
  if (auto error = check_identity("ownerId", record.owner_id)) {
    return error;
  }
  if (auto error = check_generation("ownerLeaseGeneration", record.owner_lease_generation)) {
    return error;
  }
  if (auto error = validate_allocation(record.allocation)) {
    return error;
  }
  if (record.pending_creation) {
    return validate_pending(*record.pending_creation);
  }
  return std::nullopt;
}

std::string encode(const AuthorityRecord& record) {
  CanonicalJsonWriter w(640 + record.payload.size() / 3 * 4 + record.owner_id.size() +
              record.allocation.stable_type.size() * 2 +
              record.allocation.descriptor.mesh_name.size() +
              record.allocation.descriptor.routing_id_hex.size());
  w.begin_object();
  w.key("allocation");
  write_allocation(w, record.allocation);
  w.key("authorityOwnerGeneration");
  w.decimal_string_value(record.authority_owner_generation);
  w.key("objectGeneration");
  w.decimal_string_value(record.object_generation);
  w.key("ownerId");
  w.string_value(record.owner_id);
  w.key("ownerLeaseGeneration");
  w.decimal_string_value(record.owner_lease_generation);
  w.key("payload");
  w.base64_value(record.payload);
  w.key("pendingCreation");
  write_pending(w, record.pending_creation);
  w.key("recordVersion");
  w.number_value(kRecordVersion);
  w.end_object();
  SPOTCHECK_ASSERT(w.depth() == 0);
  return w.take();
}

RecordResult<std::string> encode_checked(const AuthorityRecord& record) {
  return detail::encode_checked_impl(record);
}

RecordResult<AuthorityRecord> decode_authority_record(std::string_view bytes) {
  if (auto error = detail::check_record_size(bytes)) {
    return std::move(*error);
  }
  CanonicalJsonReader r(bytes);
  AuthorityRecord record;
  r.begin_object("");
  if (r.key(kTop, 0)) {
    read_allocation(r, record.allocation);
  }
  if (r.key(kTop, 1)) {
    record.authority_owner_generation = r.decimal_string("authorityOwnerGeneration", kRevisionMax);
  }
  if (r.key(kTop, 2)) {
    record.object_generation = r.decimal_string("objectGeneration", kRevisionMax);
  }
  if (r.key(kTop, 3)) {
    record.owner_id = r.string("ownerId");
  }
  if (r.key(kTop, 4)) {
    record.owner_lease_generation = r.decimal_string("ownerLeaseGeneration", kRevisionMax);
  }
  if (r.key(kTop, 5)) {
    record.payload = r.base64("payload");
  }
  if (r.key(kTop, 6)) {
    read_pending(r, record.pending_creation);
  }
  if (r.key(kTop, 7)) {
    r.record_version("recordVersion");
  }
  r.end_object(kTop);
  return detail::finish_decode(r, bytes, std::move(record));
}

}  // namespace spotcheck::records
