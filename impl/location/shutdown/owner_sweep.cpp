#include "impl/location/shutdown/owner_sweep.h"

#include <map>
#include <variant>

#include "impl/location/authority/authority_snapshot.h"
#include "impl/check/check.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/authority_record.h"

namespace spotcheck::location {


namespace {

// Lists the keys and versions of the authority rows of `own`; `expired` on ScanExpired.
Result<std::map<store::Key, store::StoreVersion>> list_own_rows(
    store::LocationStore& store, platform::Platform& platform, const LocationConfig& config,
    const HostRun& own, bool& expired) {
  expired = false;
  std::map<store::Key, store::StoreVersion> rows;
  store::ScanRequest request{keys::authority_range_begin(), keys::authority_range_end(),
                             std::nullopt, store::kMaxScanPageEntries};
  for (std::size_t page = 0; page < kSweepPagesMax; ++page) {
    const store::ScanResult result =
        store.scan(request, platform.clock.now_us() + config.store_request_timeout_us);
    if (const auto* error = std::get_if<store::StoreError>(&result)) {
      return Error::of(ErrorKind::kStoreError,
                       std::string("owner sweep list: ") + store::to_string(error->kind));
    }
    if (std::holds_alternative<store::ScanExpired>(result)) {
      platform::sometimes(platform.events, platform::Mark::kScanExpiredRestart);
      expired = true;
      return rows;
    }
    const auto& scanned = std::get<store::ScanPage>(result);
    for (const store::ScanEntry& entry : scanned.entries) {
      records::RecordResult<records::AuthorityRecord> record =
          records::decode_authority_record(entry.value);
      if (!record.ok()) {
        continue;  // not ours to judge; a row we cannot read is never deleted
      }
      if (record.value().owner_id == own.owner_id &&
          record.value().owner_lease_generation == own.lease_generation) {
        rows.emplace(entry.key, entry.version);
      }
    }
    if (!scanned.continuation.has_value()) {
      return rows;
    }
    request.continuation = scanned.continuation;
  }
  return Error::of(ErrorKind::kStoreError, "owner sweep list longer than the page bound");
}

}  // namespace

Result<SweepReport> sweep_owner_authority(store::LocationStore& store, platform::Platform& platform,
                                          const LocationConfig& config, OwnerLease& lease,
                                          AuthorityOps& authority) {
  // No store change with expired owner eligibility (§5): a closed lease sweeps nothing.
  if (Result<Done> admitted = lease.admit("owner_sweep"); !admitted.ok()) {
    return admitted.error();
  }
  const HostRun own = lease.host_run();
  std::map<store::Key, store::StoreVersion> rows;
  bool listed = false;
  for (std::size_t restart = 0; restart <= kSweepRestartsMax && !listed; ++restart) {
    bool expired = false;
    Result<std::map<store::Key, store::StoreVersion>> found =
        list_own_rows(store, platform, config, own, expired);
    if (!found.ok()) {
      return found.error();
    }
    if (!expired) {
      rows = std::move(found).value();
      listed = true;
    }
  }
  if (!listed) {
    return Error::of(ErrorKind::kStoreError, "owner sweep list kept expiring");
  }

  SweepReport report;
  report.candidates = rows.size();
  for (const auto& [key, listed_version] : rows) {
    const std::optional<AuthorityKey> authority_key = parse_authority_key(key);
    SPOTCHECK_ASSERT(authority_key.has_value());
    Result<AuthorityRead> current = authority.read(*authority_key);
    if (!current.ok()) {
      ++report.failed;
      continue;
    }
    const std::optional<AuthoritySnapshot>& snapshot = current.value().current;
    if (!snapshot.has_value() || snapshot->version != listed_version) {
      ++report.changed;  // only a row unchanged since the list is ours to delete
      continue;
    }
    SPOTCHECK_ASSERT(snapshot->record.owner_id == own.owner_id);
    SPOTCHECK_ASSERT(snapshot->record.owner_lease_generation == own.lease_generation);
    Result<Done> removed = authority.sweep_remove(*snapshot);
    if (removed.ok()) {
      platform::sometimes(platform.events, platform::Mark::kOwnerSweepDeleted);
      ++report.deleted;
    } else if (removed.error().kind == ErrorKind::kConflict) {
      ++report.changed;
    } else {
      ++report.failed;
    }
  }
  SPOTCHECK_ASSERT(report.deleted + report.changed + report.failed == report.candidates);
  platform::emit_event(platform.events, kinds::kSweepFinished,
                       events::SweepFinished{own.owner_id, platform::as_i64(own.lease_generation),
                                             static_cast<std::int64_t>(report.candidates),
                                             static_cast<std::int64_t>(report.deleted),
                                             static_cast<std::int64_t>(report.changed),
                                             static_cast<std::int64_t>(report.failed)});
  return report;
}

}  // namespace spotcheck::location
