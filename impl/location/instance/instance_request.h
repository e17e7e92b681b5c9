// The Instance Spot request a source sends to the target (spec §7.1): creation info plus the
// first message. The source creates no owner and no generation; the target stores this request
// ("instance-activation-v1", canonical JSON) in the Relocation Store under a reference fixed in
// advance, `instance:<spotId>:<opId>`, before its Reserve points at it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/location/messaging/commands.h"
#include "impl/location/messaging/operation_id.h"

namespace spotcheck::location::instance {

struct InstanceRequest {
  std::string stable_type;  // resolved by the source (never empty on the wire)
  std::string mesh_name;
  std::string spot_id;
  std::string source_rid_hex;
  messaging::WireHostRun source;
  messaging::OperationId op_id;
  std::int64_t deadline_store_ms = 0;
  std::string args;           // creation arguments, opaque
  std::string first_message;  // the first message body, opaque
  friend bool operator==(const InstanceRequest&, const InstanceRequest&) = default;
};

std::string encode(const InstanceRequest& request);
std::optional<InstanceRequest> decode_instance_request(std::string_view bytes);

// The Relocation Store reference of one request: "instance:<spotId>:<opId hex>".
std::string instance_reference(std::string_view spot_id, const messaging::OperationId& op_id);
// The OperationId text (hex) an instance_reference() names; empty when it is not one.
std::string_view operation_of_reference(std::string_view reference);

// The row payload that keeps pointing at the stored request after Commit (Commit clears
// pendingCreation): "instance-recovery-v1 <reference> <sha256> <size>". Empty = end of use.
std::string recovery_pointer(std::string_view reference, std::string_view sha256, std::uint64_t size_bytes);
bool points_at(std::string_view row_payload, std::string_view reference);

// What a row payload's recovery pointer names; nullopt for an empty payload (end of use) or
// anything that is not a well-formed pointer.
struct RecoveryPointer {
  std::string reference;
  std::string sha256;
  std::uint64_t size_bytes = 0;
  friend bool operator==(const RecoveryPointer&, const RecoveryPointer&) = default;
};
std::optional<RecoveryPointer> parse_recovery_pointer(std::string_view row_payload);

// §10 DataLost recorded in the row: the stored request the row pointed at is permanently missing
// or other bytes ("instance-data-lost-v1 <reference> <reason>"). Not a recovery pointer: nothing is
// restored from it, and a request meeting the row is answered kDataLost.
std::string data_lost_marker(std::string_view reference, std::string_view reason);
bool is_data_lost(std::string_view row_payload);

}  // namespace spotcheck::location::instance
