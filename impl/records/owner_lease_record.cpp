#include "impl/records/owner_lease_record.h"

#include <array>

#include "impl/check/check.h"
#include "impl/records/canonical_json_reader.h"
#include "impl/records/canonical_json_writer.h"
#include "impl/records/keys.h"
#include "impl/records/limits.h"
#include "impl/records/record_codec_common.h"
#include "impl/records/validate.h"

namespace spotcheck::records {
namespace {

constexpr std::array<std::string_view, 5> kTopKeys{
    "expiresAtEpochMs", "leaseGeneration", "ownerId", "recordVersion", "updatedAtEpochMs"};
constexpr ObjectSchema kTop{"", kTopKeys};

}  // namespace

std::optional<RecordError> validate(const OwnerLeaseRecord& record) {
  if (auto error = check_identity("ownerId", record.owner_id)) {
    return error;
  }
  if (auto error = check_generation("leaseGeneration", record.lease_generation)) {
    return error;
  }
  if (auto error = check_range("expiresAtEpochMs",
                               static_cast<std::uint64_t>(record.expires_at_epoch_ms), 0,
                               kSequenceMax)) {
    return error;
  }
  if (auto error = check_range("updatedAtEpochMs",
                               static_cast<std::uint64_t>(record.updated_at_epoch_ms), 0,
                               kSequenceMax)) {
    return error;
  }
  return std::nullopt;
}

std::string encode(const OwnerLeaseRecord& record) {
  CanonicalJsonWriter w(160 + record.owner_id.size());
  w.begin_object();
  w.key("expiresAtEpochMs");
  w.decimal_string_value(static_cast<std::uint64_t>(record.expires_at_epoch_ms));
  w.key("leaseGeneration");
  w.decimal_string_value(record.lease_generation);
  w.key("ownerId");
  w.string_value(record.owner_id);
  w.key("recordVersion");
  w.number_value(kRecordVersion);
  w.key("updatedAtEpochMs");
  w.decimal_string_value(static_cast<std::uint64_t>(record.updated_at_epoch_ms));
  w.end_object();
  SPOTCHECK_ASSERT(w.depth() == 0);
  return w.take();
}

RecordResult<std::string> encode_checked(const OwnerLeaseRecord& record) {
  return detail::encode_checked_impl(record);
}

RecordResult<OwnerLeaseRecord> decode_owner_lease_record(std::string_view bytes) {
  if (auto error = detail::check_record_size(bytes)) {
    return std::move(*error);
  }
  CanonicalJsonReader r(bytes);
  OwnerLeaseRecord record;
  r.begin_object("");
  if (r.key(kTop, 0)) {
    record.expires_at_epoch_ms =
        static_cast<std::int64_t>(r.decimal_string("expiresAtEpochMs", kSequenceMax));
  }
  if (r.key(kTop, 1)) {
    record.lease_generation = r.decimal_string("leaseGeneration", kGenerationExhausted);
  }
  if (r.key(kTop, 2)) {
    record.owner_id = r.string("ownerId");
  }
  if (r.key(kTop, 3)) {
    r.record_version("recordVersion");
  }
  if (r.key(kTop, 4)) {
    record.updated_at_epoch_ms =
        static_cast<std::int64_t>(r.decimal_string("updatedAtEpochMs", kSequenceMax));
  }
  r.end_object(kTop);
  return detail::finish_decode(r, bytes, std::move(record));
}

std::string key_preimage(const OwnerLeaseRecord& record) {
  return owner_lease_preimage(record.owner_id);
}

}  // namespace spotcheck::records
