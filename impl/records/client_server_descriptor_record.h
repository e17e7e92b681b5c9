// ClientServer server descriptor record (spec §3.4, §4):
// key client_server_preimage(channel_name, server_routing_id_hex).
//
// The record's top-level ownerId/leaseGeneration/descriptorRevision are copies of the
// descriptor's own fields: the struct holds them once, encode() writes both copies, decode
// rejects a mismatch with kInconsistent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/records/enums.h"
#include "impl/records/limits.h"
#include "impl/records/record_error.h"

namespace spotcheck::records {

struct ClientServerDescriptorRecord {
  std::string channel_name;               // identity text
  std::string server_routing_id_hex;      // lowercase hex
  std::uint64_t lifecycle_generation = 0; // 1..2^63-2
  std::uint64_t descriptor_revision = 0;  // 1..2^63-1
  std::string endpoint;                   // non-empty UTF-8
  std::uint32_t weight = kWeightDefault;  // 0..10000
  DescriptorState state = DescriptorState::kPreparing;
  std::string security_identity;          // UTF-8, may be empty
  std::string owner_id;                   // identity text
  std::uint64_t lease_generation = 0;     // 1..2^63-2
  std::int64_t updated_at_epoch_ms = 0;   // 0..2^63-1

  friend bool operator==(const ClientServerDescriptorRecord&,
                         const ClientServerDescriptorRecord&) = default;
};

std::optional<RecordError> validate(const ClientServerDescriptorRecord& record);
std::string encode(const ClientServerDescriptorRecord& record);
RecordResult<std::string> encode_checked(const ClientServerDescriptorRecord& record);
RecordResult<ClientServerDescriptorRecord> decode_client_server_descriptor_record(
    std::string_view bytes);
std::string key_preimage(const ClientServerDescriptorRecord& record);

}  // namespace spotcheck::records
