// Crash recovery of Instance Spot cold activation (spec §7.1, the table "When the process
// terminated"), by the restarted Framework: a later host run of the node the rows name.
//
//   after the payload, before Creating  -> nothing here: no row points at the payload; the
//                                           Relocation Store drops it when its retention ends;
//   after Creating, before Ready        -> the same record is cancelled (Abort, capacity
//                                           released), then the payload is released;
//   after Ready, before the first message completed -> NewOwner to this host run (ObjectGeneration
//                                           kept), the instance made again and the stored first
//                                           message run at the head of its queue before any new
//                                           message; then end of use recorded, payload released;
//   Ready, first message completed      -> the row is taken over and deleted by its new owner: its
//                                           instance died with that run, and no message runs on an
//                                           instance of it (§3.3, §6.1).
// Every change waits until the earlier run's owner lease has ended and is written under that
// condition (ended_lease.h), so a paused earlier process can never act on the row again.
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/events/instance_events.h"
#include "impl/location/instance/instance_target.h"
#include "impl/location/lease/ended_lease.h"
#include "impl/location/authority/authority_rows.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/records/authority_record.h"

namespace spotcheck::location::instance {

using platform::TimeUs;

namespace {

constexpr std::size_t kRecoveryPagesMax = 1 << 16;
constexpr std::size_t kRecoveryRestartsMax = 3;

}  // namespace

bool InstanceTarget::left_by_earlier_run(const records::AuthorityRecord& record) const {
  const HostRun& self = _context.lease.host_run();
  return record.allocation.object_kind == records::ObjectKind::kInstanceSpot &&
         record.allocation.descriptor.routing_id_hex == _context.rid_hex &&
         record.allocation.descriptor.mesh_name == _context.mesh_name &&
         !owned_by(record, self);
}

bool InstanceTarget::recovering_here(const std::string& spot_id) const { return _recovering.count(spot_id) != 0; }

void InstanceTarget::emit_recovered(const AuthoritySnapshot& row, std::string_view action) {
  platform::emit_event(_context.platform.events, kinds::kInstanceRecovered,
                       events::InstanceRecovered{row.key.id, platform::as_i64(row.record.object_generation),
                                                 _context.rid_hex, row.record.owner_id,
                                                 platform::as_i64(row.record.owner_lease_generation), action});
}

InstanceTarget::Recovery InstanceTarget::recover(const AuthoritySnapshot& row) {
  SPOTCHECK_ASSERT(left_by_earlier_run(row.record));
  if (recovering_here(row.key.id) || closing_here(row.key.id) != nullptr) {
    return Recovery::kWait;  // another task of this host run is on it
  }
  // Claimed before the first wait: one task of this host run recovers a row, and the others
  // (the startup scan, requests meeting the row) wait for it.
  _recovering.insert(row.key.id);
  struct Claim {
    std::set<std::string>& claimed;
    std::string spot_id;
    ~Claim() { claimed.erase(spot_id); }
  } const claim{_recovering, row.key.id};
  const HostRun earlier{row.record.owner_id, row.record.owner_lease_generation};
  const Result<LeaseEnd> lease_end = read_lease_end(_context.store, _context.platform, _context.config, earlier);
  if (!lease_end.ok()) {
    return Recovery::kFailed;
  }
  if (!lease_end.value().ended) {
    return Recovery::kWait;  // that run's lease is still valid: it may still be running
  }
  const store::Condition& condition = lease_end.value().condition;
  if (row.record.allocation.state == records::AllocationState::kReserved) {
    return cancel_creating(row, condition);  // died after Creating, before Ready
  }
  const std::optional<RecoveryPointer> pointer = parse_recovery_pointer(row.record.payload);
  if (pointer.has_value()) {
    return restore(row, condition, *pointer);  // died before the first message's completion was recorded
  }
  return remove_completed(row, condition);
}

InstanceTarget::Recovery InstanceTarget::cancel_creating(const AuthoritySnapshot& row, const store::Condition& ended) {
  SPOTCHECK_ASSERT(row.record.allocation.state == records::AllocationState::kReserved);
  if (!_context.authority.recover_remove(row, ended).ok()) {
    return Recovery::kFailed;
  }
  platform::sometimes(_context.platform.events, platform::Mark::kRecoveryCreatingCancelled);
  emit_recovered(row, "creating_cancelled");
  if (row.record.pending_creation.has_value()) {
    const std::string& reference = row.record.pending_creation->request_content_reference;
    release_payload(row.key.id, operation_of_reference(reference), reference, "recovery_cancelled");
  }
  return Recovery::kRecovered;
}

// The first message completed; the instance died with its host run: taken over, then deleted by
// its new owner (§6.1: Delete verifies the current owner lease).
InstanceTarget::Recovery InstanceTarget::remove_completed(const AuthoritySnapshot& row, const store::Condition& ended) {
  SPOTCHECK_ASSERT(row.record.allocation.state == records::AllocationState::kActive);
  const std::optional<NodeView> self = self_view();
  if (!self.has_value()) {
    return Recovery::kFailed;
  }
  Result<AuthoritySnapshot> owned = _context.authority.recover_new_owner(row, *self, ended);
  if (!owned.ok()) {
    return Recovery::kFailed;
  }
  if (!remove_taken_over(owned.value())) {
    // Ours now, without an in-process instance: a request meeting it is answered `failed`
    // (never run on another generation's instance) until this host run ends.
    return Recovery::kFailed;
  }
  platform::sometimes(_context.platform.events, platform::Mark::kRecoveryCompletedRemoved);
  emit_recovered(row, "completed_removed");
  return Recovery::kRecovered;
}

bool InstanceTarget::remove_taken_over(const AuthoritySnapshot& owned) {
  for (int attempt = 0; attempt < _config.attempts_max; ++attempt) {
    Result<Done> removed = _context.authority.remove(owned);
    if (removed.ok()) {
      return true;
    }
    if (removed.error().kind == ErrorKind::kConflict) {
      return false;  // changed meanwhile (our lease ended, or another task removed it)
    }
    _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
  }
  return false;
}

InstanceTarget::Recovery InstanceTarget::restore(const AuthoritySnapshot& row, const store::Condition& ended,
                                                 const RecoveryPointer& pointer) {
  const std::string& spot_id = row.key.id;
  const std::uint64_t generation = row.record.object_generation;
  const InstanceType* type = _registry.find(row.record.allocation.stable_type);
  const std::optional<NodeView> self = self_view();
  if (type == nullptr || !self.has_value()) {
    return Recovery::kFailed;
  }
  // Any instance left in the list is of an earlier generation (the row is not this run's).
  _instances.erase(spot_id);
  LocalInstance& instance = _instances[spot_id];
  instance.stable_type = row.record.allocation.stable_type;
  instance.object_generation = generation;
  // Not accepting yet: requests meeting the row once it is ours wait for the restored first message.
  Result<AuthoritySnapshot> owned = _context.authority.recover_new_owner(row, *self, ended);
  if (!owned.ok()) {
    _instances.erase(spot_id);
    return Recovery::kFailed;
  }
  SPOTCHECK_ASSERT(owned.value().record.object_generation == generation);  // NewOwner keeps it
  const PayloadRead read = read_stored_request(owned.value(), pointer);
  if (read.kind == PayloadRead::Kind::kDataLost) {
    return record_data_lost(row, owned.value(), pointer, read.reason, *type);
  }
  const std::optional<InstanceRequest>& stored = read.request;
  const std::string rejected = stored.has_value() ? run_factory(*stored, *type, generation) : read.reason;
  if (!rejected.empty()) {
    return give_up_restore(row, owned.value(), stored, pointer.reference);
  }
  SPOTCHECK_ASSERT(stored->spot_id == spot_id && stored->stable_type == row.record.allocation.stable_type);
  platform::sometimes(_context.platform.events, platform::Mark::kRecoveryFirstMessageRestored);
  emit_recovered(row, "first_message_restored");
  LocalInstance& restored = _instances.at(spot_id);
  SPOTCHECK_ASSERT(&restored == &instance && !restored.accepting);  // the claim kept every other task off it
  if (SPOTCHECK_PLANTED(_context.config.planted_bugs, kRecoverySkipsFirstMessage)) {
    restored.accepting = true;  // planted: new messages run on it, the stored first message never does
  } else {
    run_first_message(restored, *stored, *type);
  }
  if (record_end_of_use(owned.value(), pointer.reference)) {
    platform::emit_event(_context.platform.events, kinds::kInstanceEndOfUseRecorded,
                         events::InstanceEndOfUseRecorded{spot_id, platform::as_i64(generation), _context.rid_hex,
                                                          pointer.reference});
    release_payload(*stored, pointer.reference, "end_of_use");
  }
  return Recovery::kRecovered;
}

// The stored request could not be read (the Relocation Store kept failing, or the row changed
// meanwhile), or the factory refused it: no instance of this generation is made again, so the row
// this run took over is deleted (and the payload released).
InstanceTarget::Recovery InstanceTarget::give_up_restore(const AuthoritySnapshot& row, const AuthoritySnapshot& owned,
                                                         const std::optional<InstanceRequest>& stored,
                                                         const std::string& reference) {
  emit_recovered(row, stored.has_value() ? "factory_rejected" : "payload_unreadable");
  _instances.erase(row.key.id);
  if (remove_taken_over(owned) && stored.has_value()) {
    release_payload(*stored, reference, "recovery_rejected");
  }
  return Recovery::kRecovered;
}

bool InstanceTarget::recover_rows(const std::vector<AuthorityKey>& keys) {
  bool settled = true;
  for (const AuthorityKey& key : keys) {
    Result<AuthorityRead> read = _context.authority.read(key);
    if (!read.ok()) {
      settled = false;
      continue;
    }
    const std::optional<AuthoritySnapshot>& row = read.value().current;
    if (!row.has_value() || !left_by_earlier_run(row->record)) {
      continue;  // gone, or recovered meanwhile (a request met it)
    }
    if (recover(*row) != Recovery::kRecovered) {
      settled = false;
    }
  }
  return settled;
}

void InstanceTarget::recover_earlier_runs(TimeUs until_us) {
  const std::function<TimeUs()> deadline = [this] { return store_deadline_us(); };
  const auto left_here = [this](const records::AuthorityRecord& record) { return left_by_earlier_run(record); };
  std::vector<AuthorityKey> keys;
  for (int attempt = 0; attempt < _config.attempts_max; ++attempt) {
    Result<std::vector<AuthoritySnapshot>> rows =
        list_authority_rows(_context.store, _context.platform.events, deadline,
                            ScanBounds{kRecoveryPagesMax, kRecoveryRestartsMax, "instance recovery list"}, left_here);
    if (rows.ok()) {
      for (const AuthoritySnapshot& row : rows.value()) {
        keys.push_back(row.key);
      }
      break;
    }
    if (_context.platform.clock.now_us() >= until_us) {
      return;
    }
    _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
  }
  while (!keys.empty() && !recover_rows(keys) && _context.platform.clock.now_us() < until_us) {
    _context.platform.clock.sleep_for(_config.wait_interval_us * 10);
  }
}

}  // namespace spotcheck::location::instance
