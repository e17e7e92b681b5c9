#include "impl/location/shutdown/owner_sweep.h"

#include <functional>
#include <map>
#include <utility>

#include "impl/location/authority/authority_snapshot.h"
#include "impl/check/check.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/location/scan/scan_range.h"
#include "impl/records/authority_record.h"

namespace spotcheck::location {


namespace {

// The keys and versions of the authority rows of `own`, from one same-point-in-time list.
Result<std::map<store::Key, store::StoreVersion>> list_own_rows(store::LocationStore& store,
                                                                platform::Platform& platform,
                                                                const LocationConfig& config, const HostRun& own) {
  const std::function<TimeUs()> deadline = [&] { return platform.clock.now_us() + config.store_request_timeout_us; };
  Result<ScannedRange> range =
      scan_range(store, platform.events, keys::authority_range_begin(), keys::authority_range_end(), deadline,
                 ScanBounds{kSweepPagesMax, kSweepRestartsMax, "owner sweep list"});
  if (!range.ok()) {
    return range.error();
  }
  std::map<store::Key, store::StoreVersion> rows;
  for (const store::ScanEntry& entry : range.value().entries) {
    records::RecordResult<records::AuthorityRecord> record = records::decode_authority_record(entry.value);
    if (!record.ok()) {
      continue;  // not ours to judge; a row we cannot read is never deleted
    }
    if (record.value().owner_id == own.owner_id && record.value().owner_lease_generation == own.lease_generation) {
      rows.emplace(entry.key, entry.version);
    }
  }
  return rows;
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
  Result<std::map<store::Key, store::StoreVersion>> listed = list_own_rows(store, platform, config, own);
  if (!listed.ok()) {
    return listed.error();
  }
  const std::map<store::Key, store::StoreVersion> rows = std::move(listed).value();

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
      platform::sometimes(platform.events, platform::Mark::kOwnerSweepRowChanged);
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
      platform::sometimes(platform.events, platform::Mark::kOwnerSweepRowChanged);
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
