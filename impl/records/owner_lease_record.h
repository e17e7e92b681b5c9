// Owner lease record (spec §3.1, §3.4): key owner_lease_preimage(owner_id).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/records/record_error.h"

namespace spotcheck::records {

struct OwnerLeaseRecord {
  std::string owner_id;                  // identity text
  std::uint64_t lease_generation = 0;    // 1..2^63-2
  std::int64_t expires_at_epoch_ms = 0;  // 0..2^63-1, "expiresAtEpochMs" (decimal string)
  std::int64_t updated_at_epoch_ms = 0;  // 0..2^63-1, "updatedAtEpochMs" (decimal string)

  friend bool operator==(const OwnerLeaseRecord&, const OwnerLeaseRecord&) = default;
};

// Every field rule of the record; nullopt when valid.
std::optional<RecordError> validate(const OwnerLeaseRecord& record);
// Canonical JSON bytes. Total (never fails); the bytes decode only if validate() passes.
std::string encode(const OwnerLeaseRecord& record);
// validate() + size limit, then encode().
RecordResult<std::string> encode_checked(const OwnerLeaseRecord& record);
// Strict: only canonical bytes of a valid version-1 record are accepted.
RecordResult<OwnerLeaseRecord> decode_owner_lease_record(std::string_view bytes);
// owner_lease_preimage(record.owner_id)
std::string key_preimage(const OwnerLeaseRecord& record);

}  // namespace spotcheck::records
