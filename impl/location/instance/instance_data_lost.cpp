// DataLost for the Instance Spot's stored first message (spec §10): "If the payload the Location
// Store points to is temporarily invisible, it's re-read only a limited number of times, and the
// current location record is also re-checked. If the payload is permanently missing or the
// checksum differs, it's DataLost. The runtime records the error in the current location record.
// It doesn't ... guess and use a different payload."
//
// A restore (instance_recovery.cpp) reads the stored request here. DataLost is recorded in the
// row by Preserve (data_lost_marker: the row stops pointing at the payload); a request meeting
// the row is answered kDataLost (InstanceTarget::on_ready); the application is told
// (InstanceType::on_data_lost) and may Close the incarnation, which deletes the row. A later host
// run meeting a DataLost row its earlier run left removes it like any completed one.
#include <string>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/events/instance_events.h"
#include "impl/location/instance/instance_target.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/records/authority_record.h"

namespace spotcheck::location::instance {

InstanceTarget::PayloadRead InstanceTarget::read_stored_request(const AuthoritySnapshot& owned,
                                                               const RecoveryPointer& pointer) {
  using Kind = PayloadRead::Kind;
  int misses = 0;
  for (int attempt = 0; attempt < _config.attempts_max; ++attempt) {
    const store::GetResult got = _context.relocation.get(pointer.reference, store_deadline_us());
    if (const auto* found = std::get_if<store::PayloadFound>(&got)) {
      if (found->payload.size() != pointer.size_bytes || records::sha256_hex(found->payload) != pointer.sha256) {
        return PayloadRead{Kind::kDataLost, std::nullopt, "checksum"};  // other bytes: nothing restored from them
      }
      std::optional<InstanceRequest> request = decode_instance_request(found->payload);
      if (!request.has_value()) {
        return PayloadRead{Kind::kDataLost, std::nullopt, "undecodable"};
      }
      if (misses > 0) {
        platform::sometimes(_context.platform.events, platform::Mark::kPayloadFoundOnReread);
      }
      return PayloadRead{Kind::kFound, std::move(request), {}};
    }
    if (std::holds_alternative<store::PayloadMissing>(got)) {
      if (!still_points_at(owned, pointer.reference)) {
        return PayloadRead{Kind::kUnreadable, std::nullopt, "the row changed while its payload read missing"};
      }
      if (SPOTCHECK_PLANTED(_context.config.planted_bugs, kDataLostWithoutReread)) {
        return PayloadRead{Kind::kDataLost, std::nullopt, "missing"};  // planted: one Missing read taken as permanent
      }
      if (++misses > _config.payload_rereads_max) {
        return PayloadRead{Kind::kDataLost, std::nullopt, "missing"};
      }
      _context.platform.clock.sleep_for(_config.payload_reread_backoff_us);
      continue;
    }
    _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
  }
  return PayloadRead{Kind::kUnreadable, std::nullopt, "the Relocation Store kept failing"};
}

bool InstanceTarget::still_points_at(const AuthoritySnapshot& owned, const std::string& reference) {
  const Result<AuthorityRead> read = _context.authority.read(owned.key);
  if (!read.ok()) {
    return true;
  }
  const std::optional<AuthoritySnapshot>& current = read.value().current;
  return current.has_value() && current->record.object_generation == owned.record.object_generation &&
         owned_by(current->record, _context.lease.host_run()) && points_at(current->record.payload, reference);
}

InstanceTarget::Recovery InstanceTarget::record_data_lost(const AuthoritySnapshot& row, const AuthoritySnapshot& owned,
                                                          const RecoveryPointer& pointer, const std::string& reason,
                                                          const InstanceType& type) {
  const std::string& spot_id = row.key.id;
  const std::uint64_t generation = owned.record.object_generation;
  _instances.erase(spot_id);  // nothing of this incarnation runs: there is nothing to restore it from
  const bool recorded = replace_row_payload(owned, pointer.reference, data_lost_marker(pointer.reference, reason));
  platform::sometimes(_context.platform.events, platform::Mark::kRecoveryDataLost);
  emit_recovered(row, "data_lost");
  platform::emit_event(_context.platform.events, kinds::kInstanceDataLost,
                       events::InstanceDataLost{spot_id, platform::as_i64(generation), _context.rid_hex,
                                                pointer.reference, pointer.sha256, reason,
                                                recorded ? "recorded" : "not_recorded"});
  if (recorded && type.on_data_lost) {
    type.on_data_lost(spot_id, generation);
  }
  return Recovery::kRecovered;
}

InstanceOutcome InstanceTarget::close_data_lost(const std::string& spot_id) {
  SPOTCHECK_ASSERT(_instances.count(spot_id) == 0);  // a DataLost incarnation never has one
  const HostRun& self = _context.lease.host_run();
  std::uint64_t generation = 0;
  const OwnRowDelete deleted = delete_own_row(spot_id, [&self, &generation](const records::AuthorityRecord& record) {
    generation = record.object_generation;
    return is_data_lost(record.payload) && owned_by(record, self);
  });
  if (deleted != OwnRowDelete::kDeleted) {
    return InstanceOutcome{InstanceOutcomeKind::kNotFound, 0, {}, {}, "no DataLost row of this host run"};
  }
  platform::emit_event(_context.platform.events, kinds::kInstanceDataLost,
                       events::InstanceDataLost{spot_id, platform::as_i64(generation), _context.rid_hex, {}, {}, {},
                                                "closed"});
  return InstanceOutcome{InstanceOutcomeKind::kDelivered, generation, {}, {}, {}};
}

}  // namespace spotcheck::location::instance
