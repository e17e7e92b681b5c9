#include "tests/records/golden_fixture.h"

#include <gtest/gtest.h>

#include "impl/records/base64.h"

#include <fstream>
#include <optional>
#include <stdexcept>
#include <utility>

namespace spotcheck::records::testing {
namespace {

std::uint64_t decimal(const nlohmann::json& text) {
  const std::string s = text.get<std::string>();
  return std::stoull(s);
}

std::uint32_t magnitude(const nlohmann::json& number) { return number.get<std::uint32_t>(); }

ObjectKind object_kind(const nlohmann::json& text) {
  const auto kind = parse_object_kind(text.get<std::string>());
  if (!kind) {
    throw std::runtime_error("bad objectKind in fixture");
  }
  return *kind;
}

DescriptorState descriptor_state(const nlohmann::json& text) {
  const auto state = parse_descriptor_state(text.get<std::string>());
  if (!state) {
    throw std::runtime_error("bad state in fixture");
  }
  return *state;
}

std::optional<std::string> optional_string(const nlohmann::json& value) {
  if (value.is_null()) {
    return std::nullopt;
  }
  return value.get<std::string>();
}

std::string base64_decode_for_test(const std::string& text) {
  Base64Decoded decoded = base64_decode(text);
  if (decoded.status != Base64Status::kOk) {
    throw std::runtime_error("bad base64 in fixture");
  }
  return std::move(decoded.bytes);
}

}  // namespace

const nlohmann::json& golden_fixture() {
  static const nlohmann::json fixture = [] {
    std::ifstream file(SPOTCHECK_GOLDEN_FIXTURE);
    if (!file) {
      throw std::runtime_error(std::string("cannot open ") + SPOTCHECK_GOLDEN_FIXTURE);
    }
    return nlohmann::json::parse(file);
  }();
  return fixture;
}

std::string from_hex(std::string_view hex) {
  EXPECT_EQ(hex.size() % 2, 0U);
  std::string bytes;
  bytes.reserve(hex.size() / 2);
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return bytes;
}

MeshNodeDescriptorRecord build_mesh_node(const nlohmann::json& value) {
  const nlohmann::json& d = value.at("descriptor");
  MeshNodeDescriptorRecord record;
  record.mesh_name = d.at("meshName").get<std::string>();
  record.routing_id_hex = d.at("routingIdHex").get<std::string>();
  record.lifecycle_generation = decimal(d.at("lifecycleGeneration"));
  record.descriptor_revision = decimal(d.at("descriptorRevision"));
  record.endpoint = d.at("endpoint").get<std::string>();
  record.entry_spot_id = optional_string(d.at("entrySpotId"));
  for (const auto& [name, weight] : d.at("channelWeights").items()) {
    record.channel_weights.emplace(name, magnitude(weight));
  }
  record.application_version = decimal(d.at("applicationVersion"));
  for (const nlohmann::json& c : d.at("objectCapabilities")) {
    ObjectCapability& entry = record.object_capabilities.emplace_back();
    entry.object_kind = object_kind(c.at("objectKind"));
    entry.stable_type = c.at("stableType").get<std::string>();
    entry.policy = *parse_capability_policy(c.at("policy").get<std::string>());
    entry.has_snapshot_adapter = c.at("hasSnapshotAdapter").get<bool>();
    entry.limit = magnitude(c.at("limit"));
  }
  record.object_role = *parse_object_role(d.at("objectRole").get<std::string>());
  record.placement_weight = magnitude(d.at("placementWeight"));
  const nlohmann::json& capacity = d.at("capacity");
  for (auto [field, usage] : {std::pair{"actors", &record.capacity.actors},
                              std::pair{"spots", &record.capacity.spots}}) {
    usage->active = magnitude(capacity.at(field).at("active"));
    usage->reserved = magnitude(capacity.at(field).at("reserved"));
    usage->limit = magnitude(capacity.at(field).at("limit"));
  }
  for (const nlohmann::json& t : capacity.at("spotTypes")) {
    SpotTypeUsage& entry = record.capacity.spot_types.emplace_back();
    entry.object_kind = object_kind(t.at("objectKind"));
    entry.stable_type = t.at("stableType").get<std::string>();
    entry.active = magnitude(t.at("active"));
    entry.reserved = magnitude(t.at("reserved"));
    entry.limit = magnitude(t.at("limit"));
  }
  record.activation_concurrency.active = magnitude(d.at("activationConcurrency").at("active"));
  record.activation_concurrency.limit = magnitude(d.at("activationConcurrency").at("limit"));
  record.maintenance_wave = optional_string(d.at("maintenanceWave"));
  record.state = descriptor_state(d.at("state"));
  record.security_identity = d.at("securityIdentity").get<std::string>();
  record.owner_id = d.at("ownerId").get<std::string>();
  record.lease_generation = decimal(d.at("leaseGeneration"));
  record.updated_at_epoch_ms = static_cast<std::int64_t>(decimal(d.at("updatedAtEpochMs")));
  // The top-level copies must agree with the descriptor (the struct holds them once).
  EXPECT_EQ(value.at("ownerId"), d.at("ownerId"));
  EXPECT_EQ(value.at("leaseGeneration"), d.at("leaseGeneration"));
  EXPECT_EQ(value.at("descriptorRevision"), d.at("descriptorRevision"));
  EXPECT_EQ(value.at("recordVersion"), 1);
  return record;
}

OwnerLeaseRecord build_owner_lease(const nlohmann::json& value) {
  OwnerLeaseRecord record;
  record.owner_id = value.at("ownerId").get<std::string>();
  record.lease_generation = decimal(value.at("leaseGeneration"));
  record.expires_at_epoch_ms = static_cast<std::int64_t>(decimal(value.at("expiresAtEpochMs")));
  record.updated_at_epoch_ms = static_cast<std::int64_t>(decimal(value.at("updatedAtEpochMs")));
  EXPECT_EQ(value.at("recordVersion"), 1);
  return record;
}

ClientServerDescriptorRecord build_client_server(const nlohmann::json& value) {
  const nlohmann::json& d = value.at("descriptor");
  ClientServerDescriptorRecord record;
  record.channel_name = d.at("channelName").get<std::string>();
  record.server_routing_id_hex = d.at("serverRoutingIdHex").get<std::string>();
  record.lifecycle_generation = decimal(d.at("lifecycleGeneration"));
  record.descriptor_revision = decimal(d.at("descriptorRevision"));
  record.endpoint = d.at("endpoint").get<std::string>();
  record.weight = magnitude(d.at("weight"));
  record.state = descriptor_state(d.at("state"));
  record.security_identity = d.at("securityIdentity").get<std::string>();
  record.owner_id = d.at("ownerId").get<std::string>();
  record.lease_generation = decimal(d.at("leaseGeneration"));
  record.updated_at_epoch_ms = static_cast<std::int64_t>(decimal(d.at("updatedAtEpochMs")));
  EXPECT_EQ(value.at("ownerId"), d.at("ownerId"));
  EXPECT_EQ(value.at("leaseGeneration"), d.at("leaseGeneration"));
  EXPECT_EQ(value.at("descriptorRevision"), d.at("descriptorRevision"));
  EXPECT_EQ(value.at("recordVersion"), 1);
  return record;
}

FanoutPublisherDescriptorRecord build_fanout_publisher(const nlohmann::json& value) {
  const nlohmann::json& d = value.at("descriptor");
  FanoutPublisherDescriptorRecord record;
  record.channel_name = d.at("channelName").get<std::string>();
  record.publisher_routing_id_hex = d.at("publisherRoutingIdHex").get<std::string>();
  record.lifecycle_generation = decimal(d.at("lifecycleGeneration"));
  record.descriptor_revision = decimal(d.at("descriptorRevision"));
  record.endpoint = d.at("endpoint").get<std::string>();
  record.state = descriptor_state(d.at("state"));
  record.security_identity = d.at("securityIdentity").get<std::string>();
  record.owner_id = d.at("ownerId").get<std::string>();
  record.lease_generation = decimal(d.at("leaseGeneration"));
  record.updated_at_epoch_ms = static_cast<std::int64_t>(decimal(d.at("updatedAtEpochMs")));
  EXPECT_EQ(value.at("ownerId"), d.at("ownerId"));
  EXPECT_EQ(value.at("leaseGeneration"), d.at("leaseGeneration"));
  EXPECT_EQ(value.at("descriptorRevision"), d.at("descriptorRevision"));
  EXPECT_EQ(value.at("recordVersion"), 1);
  return record;
}

AuthorityRecord build_authority(const nlohmann::json& value) {
  AuthorityRecord record;
  record.payload = base64_decode_for_test(value.at("payload").get<std::string>());
  record.object_generation = decimal(value.at("objectGeneration"));
  record.authority_owner_generation = decimal(value.at("authorityOwnerGeneration"));
  record.owner_id = value.at("ownerId").get<std::string>();
  record.owner_lease_generation = decimal(value.at("ownerLeaseGeneration"));
  const nlohmann::json& a = value.at("allocation");
  record.allocation.state = *parse_allocation_state(a.at("state").get<std::string>());
  record.allocation.object_kind = object_kind(a.at("objectKind"));
  record.allocation.stable_type = a.at("stableType").get<std::string>();
  record.allocation.descriptor.mesh_name = a.at("descriptor").at("meshName").get<std::string>();
  record.allocation.descriptor.routing_id_hex =
      a.at("descriptor").at("routingIdHex").get<std::string>();
  record.allocation.descriptor_lifecycle_generation =
      decimal(a.at("descriptorLifecycleGeneration"));
  const nlohmann::json& c = a.at("capacity");
  record.allocation.capacity.actors = magnitude(c.at("actors"));
  record.allocation.capacity.spots = magnitude(c.at("spots"));
  if (!c.at("spotType").is_null()) {
    SpotTypeSlot& slot = record.allocation.capacity.spot_type.emplace();
    slot.object_kind = object_kind(c.at("spotType").at("objectKind"));
    slot.stable_type = c.at("spotType").at("stableType").get<std::string>();
    slot.count = magnitude(c.at("spotType").at("count"));
  }
  const nlohmann::json& p = value.at("pendingCreation");
  if (!p.is_null()) {
    PendingCreation& pending = record.pending_creation.emplace();
    pending.reservation_id = p.at("reservationId").get<std::string>();
    pending.request_content_reference = p.at("requestContentReference").get<std::string>();
    pending.request_sha256 = p.at("requestSha256").get<std::string>();
    pending.request_encoded_size = p.at("requestEncodedSize").get<std::uint64_t>();
  }
  EXPECT_EQ(value.at("recordVersion"), 1);
  return record;
}

std::string golden_value_bytes(std::string_view record_name) {
  for (const nlohmann::json& vector : golden_fixture().at("vectors")) {
    if (vector.at("record") == record_name && vector.contains("valueBytesHex")) {
      return from_hex(vector.at("valueBytesHex").get<std::string>());
    }
  }
  throw std::runtime_error("no fixture vector for " + std::string(record_name));
}

}  // namespace spotcheck::records::testing
