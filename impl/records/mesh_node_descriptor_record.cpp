#include "impl/records/mesh_node_descriptor_record.h"

#include <array>
#include <optional>
#include <string>
#include <utility>

#include "impl/check/check.h"
#include "impl/records/canonical_json_reader.h"
#include "impl/records/canonical_json_writer.h"
#include "impl/records/descriptor_envelope.h"
#include "impl/records/keys.h"
#include "impl/records/record_codec_common.h"
#include "impl/records/validate.h"

namespace spotcheck::records {
namespace {

constexpr std::array<std::string_view, 19> kDescriptorKeys{
    "activationConcurrency", "applicationVersion", "capacity",           "channelWeights",
    "descriptorRevision",    "endpoint",           "entrySpotId",        "leaseGeneration",
    "lifecycleGeneration",   "maintenanceWave",    "meshName",           "objectCapabilities",
    "objectRole",            "ownerId",            "placementWeight",    "routingIdHex",
    "securityIdentity",      "state",              "updatedAtEpochMs"};
constexpr ObjectSchema kDescriptor{"descriptor", kDescriptorKeys};

constexpr std::array<std::string_view, 2> kConcurrencyKeys{"active", "limit"};
constexpr ObjectSchema kConcurrency{"descriptor.activationConcurrency", kConcurrencyKeys};

constexpr std::array<std::string_view, 3> kCapacityKeys{"actors", "spotTypes", "spots"};
constexpr ObjectSchema kCapacity{"descriptor.capacity", kCapacityKeys};

constexpr std::array<std::string_view, 3> kUsageKeys{"active", "limit", "reserved"};
constexpr ObjectSchema kActorsUsage{"descriptor.capacity.actors", kUsageKeys};
constexpr ObjectSchema kSpotsUsage{"descriptor.capacity.spots", kUsageKeys};

constexpr std::array<std::string_view, 5> kSpotTypeKeys{"active", "limit", "objectKind",
                                                        "reserved", "stableType"};
constexpr ObjectSchema kSpotType{"descriptor.capacity.spotTypes[]", kSpotTypeKeys};

constexpr std::array<std::string_view, 5> kCapabilityKeys{"hasSnapshotAdapter", "limit",
                                                          "objectKind", "policy", "stableType"};
constexpr ObjectSchema kCapability{"descriptor.objectCapabilities[]", kCapabilityKeys};

std::optional<RecordError> at_entry(std::optional<RecordError> error, std::size_t index) {
  if (error) {
    error->message += " (entry " + std::to_string(index) + ")";
  }
  return error;
}

std::optional<RecordError> validate_usage(std::string_view field, const CapacityUsage& usage) {
  if (auto error = check_range(field, usage.active, 0, kSlotsMax)) {
    return error;
  }
  if (auto error = check_range(field, usage.reserved, 0, kSlotsMax)) {
    return error;
  }
  return check_range(field, usage.limit, 0, kLimitMax);
}

std::optional<RecordError> validate_capacity(const DescriptorCapacity& capacity) {
  if (auto error = validate_usage("descriptor.capacity.actors", capacity.actors)) {
    return error;
  }
  if (auto error = validate_usage("descriptor.capacity.spots", capacity.spots)) {
    return error;
  }
  if (capacity.spot_types.size() > kSpotTypeEntriesMax) {
    return RecordError{RecordErrorKind::kTooLarge,
                       "descriptor.capacity.spotTypes: " +
                           std::to_string(capacity.spot_types.size()) + " entries > 1024"};
  }
  for (std::size_t i = 0; i < capacity.spot_types.size(); ++i) {
    const SpotTypeUsage& entry = capacity.spot_types[i];
    if (!is_spot(entry.object_kind)) {
      return at_entry(RecordError{RecordErrorKind::kInvalidEnum,
                                  "descriptor.capacity.spotTypes[].objectKind: must be userSpot "
                                  "or instanceSpot"},
                      i);
    }
    if (auto error = check_identity("descriptor.capacity.spotTypes[].stableType",
                                    entry.stable_type)) {
      return at_entry(std::move(error), i);
    }
    const CapacityUsage usage{entry.active, entry.reserved, entry.limit};
    if (auto error = validate_usage("descriptor.capacity.spotTypes[]", usage)) {
      return at_entry(std::move(error), i);
    }
  }
  return std::nullopt;
}

std::optional<RecordError> validate_capabilities(const std::vector<ObjectCapability>& entries) {
  if (entries.size() > kCapabilityEntriesMax) {
    return RecordError{RecordErrorKind::kTooLarge, "descriptor.objectCapabilities: " +
                                                       std::to_string(entries.size()) +
                                                       " entries > 1024"};
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (auto error = check_identity("descriptor.objectCapabilities[].stableType",
                                    entries[i].stable_type)) {
      return at_entry(std::move(error), i);
    }
    if (auto error = check_range("descriptor.objectCapabilities[].limit", entries[i].limit, 0,
                                 kLimitMax)) {
      return at_entry(std::move(error), i);
    }
  }
  return std::nullopt;
}

std::optional<RecordError> validate_channel_weights(const ChannelWeights& weights) {
  if (weights.size() > kChannelWeightEntriesMax) {
    return RecordError{RecordErrorKind::kTooLarge, "descriptor.channelWeights: " +
                                                       std::to_string(weights.size()) +
                                                       " entries > 1024"};
  }
  for (const auto& [channel_name, weight] : weights) {
    if (auto error = check_identity("descriptor.channelWeights key", channel_name)) {
      return error;
    }
    if (auto error = check_range("descriptor.channelWeights value", weight, 0, kWeightMax)) {
      return error;
    }
  }
  return std::nullopt;
}

void write_usage(CanonicalJsonWriter& w, const CapacityUsage& usage) {
  w.begin_object();
  w.key("active");
  w.number_value(usage.active);
  w.key("limit");
  w.number_value(usage.limit);
  w.key("reserved");
  w.number_value(usage.reserved);
  w.end_object();
}

void write_capacity(CanonicalJsonWriter& w, const DescriptorCapacity& capacity) {
  w.begin_object();
  w.key("actors");
  write_usage(w, capacity.actors);
  w.key("spotTypes");
  w.begin_array();
  for (const SpotTypeUsage& entry : capacity.spot_types) {
    w.begin_object();
    w.key("active");
    w.number_value(entry.active);
    w.key("limit");
    w.number_value(entry.limit);
    w.key("objectKind");
    w.string_value(to_string(entry.object_kind));
    w.key("reserved");
    w.number_value(entry.reserved);
    w.key("stableType");
    w.string_value(entry.stable_type);
    w.end_object();
  }
  w.end_array();
  w.key("spots");
  write_usage(w, capacity.spots);
  w.end_object();
}

void write_capabilities(CanonicalJsonWriter& w, const std::vector<ObjectCapability>& entries) {
  w.begin_array();
  for (const ObjectCapability& entry : entries) {
    w.begin_object();
    w.key("hasSnapshotAdapter");
    w.bool_value(entry.has_snapshot_adapter);
    w.key("limit");
    w.number_value(entry.limit);
    w.key("objectKind");
    w.string_value(to_string(entry.object_kind));
    w.key("policy");
    w.string_value(to_string(entry.policy));
    w.key("stableType");
    w.string_value(entry.stable_type);
    w.end_object();
  }
  w.end_array();
}

void write_optional_string(CanonicalJsonWriter& w, const std::optional<std::string>& text) {
  if (text) {
    w.string_value(*text);
  } else {
    w.null_value();
  }
}

void read_usage(CanonicalJsonReader& r, const ObjectSchema& schema, CapacityUsage& usage) {
  if (!r.begin_object(schema.path)) {
    return;
  }
  if (r.key(schema, 0)) {
    usage.active = static_cast<std::uint32_t>(r.number(schema.path, kSlotsMax));
  }
  if (r.key(schema, 1)) {
    usage.limit = static_cast<std::uint32_t>(r.number(schema.path, kLimitMax));
  }
  if (r.key(schema, 2)) {
    usage.reserved = static_cast<std::uint32_t>(r.number(schema.path, kSlotsMax));
  }
  r.end_object(schema);
}

void read_spot_types(CanonicalJsonReader& r, std::vector<SpotTypeUsage>& entries) {
  constexpr std::string_view kPath = "descriptor.capacity.spotTypes";
  if (!r.begin_array(kPath)) {
    return;
  }
  for (std::size_t i = 0; r.next_element(i, kSpotTypeEntriesMax, kPath); ++i) {
    SpotTypeUsage& entry = entries.emplace_back();
    if (!r.begin_object(kSpotType.path)) {
      return;
    }
    if (r.key(kSpotType, 0)) {
      entry.active = static_cast<std::uint32_t>(r.number("descriptor.capacity.spotTypes[].active",
                                                         kSlotsMax));
    }
    if (r.key(kSpotType, 1)) {
      entry.limit = static_cast<std::uint32_t>(r.number("descriptor.capacity.spotTypes[].limit",
                                                        kLimitMax));
    }
    if (r.key(kSpotType, 2)) {
      entry.object_kind = r.enum_value<ObjectKind>("descriptor.capacity.spotTypes[].objectKind",
                                                   parse_object_kind);
    }
    if (r.key(kSpotType, 3)) {
      entry.reserved = static_cast<std::uint32_t>(
          r.number("descriptor.capacity.spotTypes[].reserved", kSlotsMax));
    }
    if (r.key(kSpotType, 4)) {
      entry.stable_type = r.string("descriptor.capacity.spotTypes[].stableType");
    }
    r.end_object(kSpotType);
  }
}

void read_capacity(CanonicalJsonReader& r, DescriptorCapacity& capacity) {
  if (!r.begin_object(kCapacity.path)) {
    return;
  }
  if (r.key(kCapacity, 0)) {
    read_usage(r, kActorsUsage, capacity.actors);
  }
  if (r.key(kCapacity, 1)) {
    read_spot_types(r, capacity.spot_types);
  }
  if (r.key(kCapacity, 2)) {
    read_usage(r, kSpotsUsage, capacity.spots);
  }
  r.end_object(kCapacity);
}

void read_capabilities(CanonicalJsonReader& r, std::vector<ObjectCapability>& entries) {
  constexpr std::string_view kPath = "descriptor.objectCapabilities";
  if (!r.begin_array(kPath)) {
    return;
  }
  for (std::size_t i = 0; r.next_element(i, kCapabilityEntriesMax, kPath); ++i) {
    ObjectCapability& entry = entries.emplace_back();
    if (!r.begin_object(kCapability.path)) {
      return;
    }
    if (r.key(kCapability, 0)) {
      entry.has_snapshot_adapter = r.boolean("descriptor.objectCapabilities[].hasSnapshotAdapter");
    }
    if (r.key(kCapability, 1)) {
      entry.limit = static_cast<std::uint32_t>(
          r.number("descriptor.objectCapabilities[].limit", kLimitMax));
    }
    if (r.key(kCapability, 2)) {
      entry.object_kind = r.enum_value<ObjectKind>("descriptor.objectCapabilities[].objectKind",
                                                   parse_object_kind);
    }
    if (r.key(kCapability, 3)) {
      entry.policy = r.enum_value<CapabilityPolicy>("descriptor.objectCapabilities[].policy",
                                                    parse_capability_policy);
    }
    if (r.key(kCapability, 4)) {
      entry.stable_type = r.string("descriptor.objectCapabilities[].stableType");
    }
    r.end_object(kCapability);
  }
}

void read_channel_weights(CanonicalJsonReader& r, ChannelWeights& weights) {
  constexpr std::string_view kPath = "descriptor.channelWeights";
  if (!r.begin_object(kPath)) {
    return;
  }
  std::size_t i = 0;
  while (std::optional<std::string> name = r.next_member(i++, kChannelWeightEntriesMax, kPath)) {
    if (!weights.empty() && !(weights.rbegin()->first < *name)) {
      r.fail(RecordErrorKind::kNotCanonical, kPath,
             "key \"" + name->substr(0, 64) + "\" is duplicated or out of byte order");
      return;
    }
    const auto weight = static_cast<std::uint32_t>(r.number(kPath, kWeightMax));
    weights.emplace_hint(weights.end(), std::move(*name), weight);
  }
}

std::optional<std::string> read_optional_string(CanonicalJsonReader& r, std::string_view path) {
  if (r.consume_null()) {
    return std::nullopt;
  }
  return r.string(path);
}

}  // namespace

std::optional<RecordError> validate(const MeshNodeDescriptorRecord& record) {
  if (auto error = check_identity("descriptor.meshName", record.mesh_name)) {
    return error;
  }
  if (auto error = check_routing_id_hex("descriptor.routingIdHex", record.routing_id_hex)) {
    return error;
  }
  if (auto error = check_generation("descriptor.lifecycleGeneration",
                                    record.lifecycle_generation)) {
    return error;
  }
  if (auto error = check_revision("descriptor.descriptorRevision", record.descriptor_revision)) {
    return error;
  }
  if (auto error = check_text("descriptor.endpoint", record.endpoint, false)) {
    return error;
  }
  if (record.object_role == ObjectRole::kServer) {
    if (!record.entry_spot_id) {
      return detail::inconsistent("descriptor.entrySpotId", "required when objectRole is server");
    }
    if (auto error = check_identity("descriptor.entrySpotId", *record.entry_spot_id)) {
      return error;
    }
  } else if (record.entry_spot_id) {
    return detail::inconsistent("descriptor.entrySpotId", "must be null unless objectRole is server");
  }
  if (auto error = validate_channel_weights(record.channel_weights)) {
    return error;
  }
  if (auto error = check_range("descriptor.applicationVersion", record.application_version, 0,
                               kSequenceMax)) {
    return error;
  }
  if (auto error = validate_capabilities(record.object_capabilities)) {
    return error;
  }
  if (auto error = check_range("descriptor.placementWeight", record.placement_weight, 0,
                               kWeightMax)) {
    return error;
  }
  if (auto error = validate_capacity(record.capacity)) {
    return error;
  }
  if (auto error = check_range("descriptor.activationConcurrency.active",
                               record.activation_concurrency.active, 0, kSlotsMax)) {
    return error;
  }
  if (auto error = check_range("descriptor.activationConcurrency.limit",
                               record.activation_concurrency.limit, 0, kLimitMax)) {
    return error;
  }
  if (record.maintenance_wave) {
    if (auto error = check_identity("descriptor.maintenanceWave", *record.maintenance_wave)) {
      return error;
    }
  }
  if (auto error = check_text("descriptor.securityIdentity", record.security_identity, true)) {
    return error;
  }
  if (auto error = check_identity("descriptor.ownerId", record.owner_id)) {
    return error;
  }
  if (auto error = check_generation("descriptor.leaseGeneration", record.lease_generation)) {
    return error;
  }
  return check_range("descriptor.updatedAtEpochMs",
                     static_cast<std::uint64_t>(record.updated_at_epoch_ms), 0, kSequenceMax);
}

std::string encode(const MeshNodeDescriptorRecord& record) {
  CanonicalJsonWriter w(1024 + 96 * (record.object_capabilities.size() + record.capacity.spot_types.size() +
                           record.channel_weights.size()));
  detail::begin_descriptor_envelope(w);
  w.begin_object();
  w.key("activationConcurrency");
  w.begin_object();
  w.key("active");
  w.number_value(record.activation_concurrency.active);
  w.key("limit");
  w.number_value(record.activation_concurrency.limit);
  w.end_object();
  w.key("applicationVersion");
  w.decimal_string_value(record.application_version);
  w.key("capacity");
  write_capacity(w, record.capacity);
  w.key("channelWeights");
  w.begin_object();
  for (const auto& [channel_name, weight] : record.channel_weights) {
    w.free_key(channel_name);
    w.number_value(weight);
  }
  w.end_object();
  w.key("descriptorRevision");
  w.decimal_string_value(record.descriptor_revision);
  w.key("endpoint");
  w.string_value(record.endpoint);
  w.key("entrySpotId");
  write_optional_string(w, record.entry_spot_id);
  w.key("leaseGeneration");
  w.decimal_string_value(record.lease_generation);
  w.key("lifecycleGeneration");
  w.decimal_string_value(record.lifecycle_generation);
  w.key("maintenanceWave");
  write_optional_string(w, record.maintenance_wave);
  w.key("meshName");
  w.string_value(record.mesh_name);
  w.key("objectCapabilities");
  write_capabilities(w, record.object_capabilities);
  w.key("objectRole");
  w.string_value(to_string(record.object_role));
  w.key("ownerId");
  w.string_value(record.owner_id);
  w.key("placementWeight");
  w.number_value(record.placement_weight);
  w.key("routingIdHex");
  w.string_value(record.routing_id_hex);
  w.key("securityIdentity");
  w.string_value(record.security_identity);
  w.key("state");
  w.string_value(to_string(record.state));
  w.key("updatedAtEpochMs");
  w.decimal_string_value(static_cast<std::uint64_t>(record.updated_at_epoch_ms));
  w.end_object();
  detail::end_descriptor_envelope(w, {record.descriptor_revision, record.lease_generation, record.owner_id});
  SPOTCHECK_ASSERT(w.depth() == 0);
  return w.take();
}

RecordResult<std::string> encode_checked(const MeshNodeDescriptorRecord& record) {
  return detail::encode_checked_impl(record);
}

namespace {

// The descriptor object's keys come in canonical (sorted) order, so it is read in two runs of
// that order: activationConcurrency..maintenanceWave, then meshName..updatedAtEpochMs.
void read_descriptor_fields_to_maintenance_wave(CanonicalJsonReader& r,
                                                MeshNodeDescriptorRecord& record) {
  if (r.key(kDescriptor, 0) && r.begin_object(kConcurrency.path)) {
    if (r.key(kConcurrency, 0)) {
      record.activation_concurrency.active = static_cast<std::uint32_t>(
          r.number("descriptor.activationConcurrency.active", kSlotsMax));
    }
    if (r.key(kConcurrency, 1)) {
      record.activation_concurrency.limit = static_cast<std::uint32_t>(
          r.number("descriptor.activationConcurrency.limit", kLimitMax));
    }
    r.end_object(kConcurrency);
  }
  if (r.key(kDescriptor, 1)) {
    record.application_version = r.decimal_string("descriptor.applicationVersion", kSequenceMax);
  }
  if (r.key(kDescriptor, 2)) {
    read_capacity(r, record.capacity);
  }
  if (r.key(kDescriptor, 3)) {
    read_channel_weights(r, record.channel_weights);
  }
  if (r.key(kDescriptor, 4)) {
    record.descriptor_revision = r.decimal_string("descriptor.descriptorRevision", kRevisionMax);
  }
  if (r.key(kDescriptor, 5)) {
    record.endpoint = r.string("descriptor.endpoint");
  }
  if (r.key(kDescriptor, 6)) {
    record.entry_spot_id = read_optional_string(r, "descriptor.entrySpotId");
  }
  if (r.key(kDescriptor, 7)) {
    record.lease_generation = r.decimal_string("descriptor.leaseGeneration", kRevisionMax);
  }
  if (r.key(kDescriptor, 8)) {
    record.lifecycle_generation =
        r.decimal_string("descriptor.lifecycleGeneration", kRevisionMax);
  }
  if (r.key(kDescriptor, 9)) {
    record.maintenance_wave = read_optional_string(r, "descriptor.maintenanceWave");
  }
}

void read_descriptor_fields_from_mesh_name(CanonicalJsonReader& r,
                                           MeshNodeDescriptorRecord& record) {
  if (r.key(kDescriptor, 10)) {
    record.mesh_name = r.string("descriptor.meshName");
  }
  if (r.key(kDescriptor, 11)) {
    read_capabilities(r, record.object_capabilities);
  }
  if (r.key(kDescriptor, 12)) {
    record.object_role = r.enum_value<ObjectRole>("descriptor.objectRole", parse_object_role);
  }
  if (r.key(kDescriptor, 13)) {
    record.owner_id = r.string("descriptor.ownerId");
  }
  if (r.key(kDescriptor, 14)) {
    record.placement_weight =
        static_cast<std::uint32_t>(r.number("descriptor.placementWeight", kWeightMax));
  }
  if (r.key(kDescriptor, 15)) {
    record.routing_id_hex = r.string("descriptor.routingIdHex");
  }
  if (r.key(kDescriptor, 16)) {
    record.security_identity = r.string("descriptor.securityIdentity");
  }
  if (r.key(kDescriptor, 17)) {
    record.state = r.enum_value<DescriptorState>("descriptor.state", parse_descriptor_state);
  }
  if (r.key(kDescriptor, 18)) {
    record.updated_at_epoch_ms =
        static_cast<std::int64_t>(r.decimal_string("descriptor.updatedAtEpochMs", kSequenceMax));
  }
}

}  // namespace

RecordResult<MeshNodeDescriptorRecord> decode_mesh_node_descriptor_record(
    std::string_view bytes) {
  if (auto error = detail::check_record_size(bytes)) {
    return std::move(*error);
  }
  CanonicalJsonReader r(bytes);
  MeshNodeDescriptorRecord record;
  if (detail::read_descriptor_envelope_start(r)) {
    read_descriptor_fields_to_maintenance_wave(r, record);
    read_descriptor_fields_from_mesh_name(r, record);
    r.end_object(kDescriptor);
  }
  const detail::EnvelopeFacts top = detail::read_descriptor_envelope_end(r);
  if (!r.failed()) {
    if (auto error = detail::check_envelope(top, {record.descriptor_revision, record.lease_generation, record.owner_id})) {
      return std::move(*error);
    }
  }
  return detail::finish_decode(r, bytes, std::move(record));
}

std::string key_preimage(const MeshNodeDescriptorRecord& record) {
  return mesh_node_preimage(record.mesh_name, record.routing_id_hex);
}

}  // namespace spotcheck::records
