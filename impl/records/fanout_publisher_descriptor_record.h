// Fanout publisher descriptor record (spec §3.4, §4): the ClientServer descriptor's fields
// minus weight; key fanout_publisher_preimage(channel_name, publisher_routing_id_hex).
// Top-level copies as in client_server_descriptor_record.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/records/enums.h"
#include "impl/records/record_error.h"

namespace spotcheck::records {

struct FanoutPublisherDescriptorRecord {
  std::string channel_name;                // identity text
  std::string publisher_routing_id_hex;    // lowercase hex
  std::uint64_t lifecycle_generation = 0;  // 1..2^63-2
  std::uint64_t descriptor_revision = 0;   // 1..2^63-1
  std::string endpoint;                    // non-empty UTF-8
  DescriptorState state = DescriptorState::kPreparing;
  std::string security_identity;           // UTF-8, may be empty
  std::string owner_id;                    // identity text
  std::uint64_t lease_generation = 0;      // 1..2^63-2
  std::int64_t updated_at_epoch_ms = 0;    // 0..2^63-1

  friend bool operator==(const FanoutPublisherDescriptorRecord&,
                         const FanoutPublisherDescriptorRecord&) = default;
};

std::optional<RecordError> validate(const FanoutPublisherDescriptorRecord& record);
std::string encode(const FanoutPublisherDescriptorRecord& record);
RecordResult<std::string> encode_checked(const FanoutPublisherDescriptorRecord& record);
RecordResult<FanoutPublisherDescriptorRecord> decode_fanout_publisher_descriptor_record(
    std::string_view bytes);
std::string key_preimage(const FanoutPublisherDescriptorRecord& record);

}  // namespace spotcheck::records
