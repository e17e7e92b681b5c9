#include "impl/location/lease/ended_lease.h"

#include <string>
#include <variant>

#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::location {

Result<LeaseEnd> read_lease_end(store::LocationStore& store, platform::Platform& platform,
                                const LocationConfig& config, const HostRun& run) {
  const store::Key key = records::owner_lease_preimage(run.owner_id);
  const store::ReadResult read = store.read(key, platform.clock.now_us() + config.store_request_timeout_us);
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    return Error::of(ErrorKind::kStoreError,
                     std::string("reading another host run's owner lease: ") + store::to_string(error->kind));
  }
  if (const auto* missing = std::get_if<store::Missing>(&read)) {
    return LeaseEnd{true, store::ExpectAbsent{key}, missing->now_ms};
  }
  const auto& found = std::get<store::Found>(read);
  records::RecordResult<records::OwnerLeaseRecord> record = records::decode_owner_lease_record(found.value);
  if (!record.ok()) {
    return Error::of(ErrorKind::kStoreError, "another host run's owner lease record does not decode");
  }
  const bool holds = lease_holds(record.value(), run.owner_id, run.lease_generation, found.now_ms);
  return LeaseEnd{!holds, store::ExpectVersion{key, found.version}, found.now_ms};
}

}  // namespace spotcheck::location
