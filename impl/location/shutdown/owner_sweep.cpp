#include "impl/location/shutdown/owner_sweep.h"

#include <functional>
#include <vector>
#include <utility>

#include "impl/location/authority/authority_snapshot.h"
#include "impl/check/check.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/authority/authority_rows.h"
#include "impl/records/authority_record.h"

namespace spotcheck::location {


namespace {

// The authority rows of `own`, from one same-point-in-time list.
Result<std::vector<AuthoritySnapshot>> list_own_rows(store::LocationStore& store, platform::Platform& platform,
                                                     const LocationConfig& config, const HostRun& own) {
  const std::function<TimeUs()> deadline = [&] { return platform.clock.now_us() + config.store_request_timeout_us; };
  return list_authority_rows(store, platform.events, deadline,
                             ScanBounds{kSweepPagesMax, kSweepRestartsMax, "owner sweep list"},
                             [&own](const records::AuthorityRecord& record) { return owned_by(record, own); });
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
  Result<std::vector<AuthoritySnapshot>> listed = list_own_rows(store, platform, config, own);
  if (!listed.ok()) {
    return listed.error();
  }
  const std::vector<AuthoritySnapshot> rows = std::move(listed).value();

  SweepReport report;
  report.candidates = rows.size();
  for (const AuthoritySnapshot& listed_row : rows) {
    Result<AuthorityRead> current = authority.read(listed_row.key);
    if (!current.ok()) {
      ++report.failed;
      continue;
    }
    const std::optional<AuthoritySnapshot>& snapshot = current.value().current;
    if (!snapshot.has_value() || snapshot->version != listed_row.version) {
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
