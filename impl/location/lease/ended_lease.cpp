#include "impl/location/lease/ended_lease.h"

#include <variant>

#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::location {

Result<std::optional<store::Condition>> read_ended_lease(store::LocationStore& store, platform::Platform& platform,
                                                         const LocationConfig& config, const HostRun& run) {
  const store::Key key = records::owner_lease_preimage(run.owner_id);
  const store::ReadResult read = store.read(key, platform.clock.now_us() + config.store_request_timeout_us);
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    return Error::of(ErrorKind::kStoreError, std::string("reading an earlier owner lease: ") + store::to_string(error->kind));
  }
  const auto* found = std::get_if<store::Found>(&read);
  if (found == nullptr) {
    return std::optional<store::Condition>(store::ExpectAbsent{key});
  }
  records::RecordResult<records::OwnerLeaseRecord> record = records::decode_owner_lease_record(found->value);
  if (!record.ok()) {
    // Bytes we cannot read are never taken as an ended lease.
    return Error::of(ErrorKind::kStoreError, "an earlier owner lease record does not decode");
  }
  const bool valid = record.value().owner_id == run.owner_id &&
                     record.value().lease_generation == run.lease_generation &&
                     record.value().expires_at_epoch_ms > found->now_ms;
  if (valid) {
    return std::optional<store::Condition>();
  }
  return std::optional<store::Condition>(store::ExpectVersion{key, found->version});
}

}  // namespace spotcheck::location
