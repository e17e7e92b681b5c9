#include "impl/location/descriptor/descriptor_publisher.h"

#include <algorithm>
#include <utility>
#include <variant>
#include <vector>

#include "impl/check/check.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/location/lease/ended_lease.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/records/keys.h"
#include "impl/records/limits.h"

namespace spotcheck::location {


std::string_view to_string(PublishOutcome outcome) {
  switch (outcome) {
    case PublishOutcome::kPublished:
      return "published";
    case PublishOutcome::kIgnoredStale:
      return "ignored_stale";
    case PublishOutcome::kTakenOver:
      return "taken_over";
  }
  return "unknown";
}

DescriptorPublisher::DescriptorPublisher(const LocationConfig& config,
                                         platform::Platform& platform,
                                         store::LocationStore& store, OwnerLease& lease)
    : _config(config), _platform(platform), _store(store), _lease(lease) {}

Result<Done> DescriptorPublisher::check_limits(records::MeshNodeDescriptorRecord& descriptor) const {
  if (descriptor.object_capabilities.size() > records::kCapabilityEntriesMax) {
    return Error::of(ErrorKind::kInvalidArgument,
                     "descriptor lists " + std::to_string(descriptor.object_capabilities.size()) +
                         " object capabilities; at most 1,024");
  }
  // Check the widest form this descriptor will ever be written in: the timestamp at its longest.
  const std::int64_t updated_at = descriptor.updated_at_epoch_ms;
  descriptor.updated_at_epoch_ms = records::kEpochMsMax;
  records::RecordResult<std::string> bytes = records::encode_checked(descriptor);
  descriptor.updated_at_epoch_ms = updated_at;
  if (!bytes.ok()) {
    return Error::of(ErrorKind::kInvalidArgument,
                     "descriptor cannot be published: " + records::describe(bytes.error()));
  }
  SPOTCHECK_ASSERT(bytes.value().size() <= records::kDescriptorBytesMax);
  return Done{};
}

Result<Done> DescriptorPublisher::prepare(records::MeshNodeDescriptorRecord descriptor) {
  SPOTCHECK_ASSERT(!_prepared);
  SPOTCHECK_ASSERT(_lease.registered());
  descriptor.owner_id = _lease.host_run().owner_id;
  descriptor.lease_generation = _lease.host_run().lease_generation;
  if (descriptor.descriptor_revision == 0) {
    descriptor.descriptor_revision = records::kRevisionMin;
  }
  if (Result<Done> checked = check_limits(descriptor); !checked.ok()) {
    return checked;  // startup fails; nothing was published
  }
  _descriptor = std::move(descriptor);
  _key = records::mesh_node_preimage(_descriptor.mesh_name, _descriptor.routing_id_hex);
  _prepared = true;
  return Done{};
}

Result<PublishOutcome> DescriptorPublisher::update(records::MeshNodeDescriptorRecord descriptor) {
  SPOTCHECK_ASSERT(_prepared);
  SPOTCHECK_ASSERT(descriptor.mesh_name == _descriptor.mesh_name);
  SPOTCHECK_ASSERT(descriptor.routing_id_hex == _descriptor.routing_id_hex);
  if (_stopped) {
    return Error::of(ErrorKind::kInvalidArgument, "descriptor publishing stopped (Error state)");
  }
  if (_descriptor.descriptor_revision >= records::kRevisionMax) {
    _stopped = true;
    _descriptor.state = records::DescriptorState::kError;
    emit("revision_exhausted", 0, 0);
    return Error::of(ErrorKind::kGenerationExhausted,
                     "descriptor Revision would pass 2^63-1: publisher switched to Error");
  }
  descriptor.owner_id = _descriptor.owner_id;
  descriptor.lease_generation = _descriptor.lease_generation;
  descriptor.descriptor_revision = _descriptor.descriptor_revision + 1;
  if (Result<Done> checked = check_limits(descriptor); !checked.ok()) {
    return checked.error();
  }
  _descriptor = std::move(descriptor);
  Result<PublishOutcome> published = publish();
  if (published.ok() && published.value() != PublishOutcome::kIgnoredStale) {
    platform::sometimes(_platform.events, platform::Mark::kDescriptorRevised);
  }
  return published;
}

Result<PublishOutcome> DescriptorPublisher::publish() {
  SPOTCHECK_ASSERT(_prepared);
  if (_stopped) {
    return Error::of(ErrorKind::kInvalidArgument, "descriptor publishing stopped (Error state)");
  }
  // Bytes of this call's attempts whose reply was lost: found later, they mean the write applied.
  std::vector<UnresolvedWrite> unresolved;
  for (std::uint32_t attempt = 0; attempt < _config.contention_attempts_max; ++attempt) {
    if (Result<Done> admitted = _lease.admit("descriptor_publish"); !admitted.ok()) {
      emit(to_string(admitted.error().kind), 0, 0);
      return admitted.error();
    }
    Attempt<PublishOutcome> attempted = publish_attempt(unresolved);
    if (!attempted.retry) {
      return std::move(attempted.result);
    }
  }
  emit("conflict", 0, 0);
  return Error::conflict(ConflictCause::kVersionChanged, "the descriptor row kept changing");
}

Attempt<PublishOutcome> DescriptorPublisher::publish_attempt(std::vector<UnresolvedWrite>& unresolved) {
  Planned planned = plan_publish(unresolved);
  if (auto* settled = std::get_if<Attempt<PublishOutcome>>(&planned)) {
    SPOTCHECK_ASSERT(!settled->retry);
    return std::move(*settled);
  }
  return write_planned(std::get<PublishPlan>(std::move(planned)), unresolved);
}

DescriptorPublisher::Planned DescriptorPublisher::plan_publish(const std::vector<UnresolvedWrite>& unresolved) {
  using Settled = Attempt<PublishOutcome>;
  const store::ReadResult read = _store.read(_key, _platform.clock.now_us() + _config.store_request_timeout_us);
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    emit("store_error", 0, 0);
    return Settled::settled(
        Error::of(ErrorKind::kStoreError, std::string("reading our descriptor row: ") + store::to_string(error->kind)));
  }
  PublishPlan plan;
  if (std::holds_alternative<store::Missing>(read)) {
    plan.conditions.push_back(store::ExpectAbsent{_key});
    return plan;
  }
  const auto& found = std::get<store::Found>(read);
  records::RecordResult<records::MeshNodeDescriptorRecord> stored =
      records::decode_mesh_node_descriptor_record(found.value);
  if (!stored.ok()) {
    emit("record_invalid", 0, found.now_ms);
    return Settled::settled(Error::of(ErrorKind::kRecordInvalid,
                                      "our descriptor row does not decode: " + records::describe(stored.error())));
  }
  const auto earlier = std::find_if(unresolved.begin(), unresolved.end(),
                                    [&](const UnresolvedWrite& w) { return w.bytes == found.value; });
  if (earlier != unresolved.end()) {
    // An earlier attempt of this call applied although its reply was lost (§10).
    SPOTCHECK_ASSERT(stored.value().descriptor_revision == _descriptor.descriptor_revision);
    emit(to_string(earlier->success), platform::as_i64(found.version.value), found.now_ms,
         /*resolved=*/true);
    return Settled::settled(earlier->success);
  }
  const records::MeshNodeDescriptorRecord& current = stored.value();
  const bool ours =
      current.owner_id == _descriptor.owner_id && current.lease_generation == _descriptor.lease_generation;
  if (ours && current.descriptor_revision >= _descriptor.descriptor_revision) {
    // Same Revision already stored: a harmless no-op, never an overwrite (§4).
    emit("ignored_stale", platform::as_i64(found.version.value), found.now_ms);
    platform::sometimes(_platform.events, platform::Mark::kDescriptorRenewIgnored);
    return Settled::settled(PublishOutcome::kIgnoredStale);
  }
  plan.conditions.push_back(store::ExpectVersion{_key, found.version});
  if (!ours) {
    auto lease_condition = takeover_condition(current);
    if (auto* settled = std::get_if<Settled>(&lease_condition)) {
      return std::move(*settled);
    }
    plan.conditions.push_back(std::get<store::Condition>(std::move(lease_condition)));
    plan.success = PublishOutcome::kTakenOver;
    platform::sometimes(_platform.events, platform::Mark::kDescriptorTakeover);
  }
  return plan;
}

std::variant<store::Condition, Attempt<PublishOutcome>> DescriptorPublisher::takeover_condition(
    const records::MeshNodeDescriptorRecord& current) {
  using Settled = Attempt<PublishOutcome>;
  // Another host run published here: take over only once its owner lease has ended.
  const Result<LeaseEnd> lease_end =
      read_lease_end(_store, _platform, _config, HostRun{current.owner_id, current.lease_generation});
  if (!lease_end.ok()) {
    emit("store_error", 0, 0);
    return Settled::settled(lease_end.error());
  }
  if (!lease_end.value().ended && !SPOTCHECK_PLANTED(_config.planted_bugs, kDescriptorTakeoverIgnoresLease)) {
    emit("conflict", 0, lease_end.value().now_ms);
    return Settled::settled(
        Error::conflict(ConflictCause::kOwnedByOtherHost, "the descriptor row belongs to a live host run"));
  }
  return lease_end.value().condition;
}

Attempt<PublishOutcome> DescriptorPublisher::write_planned(PublishPlan plan, std::vector<UnresolvedWrite>& unresolved) {
  using Outcome = Attempt<PublishOutcome>;
  auto deadline = [this] { return _platform.clock.now_us() + _config.store_request_timeout_us; };
  const std::size_t own_lease_index = plan.conditions.size();
  plan.conditions.push_back(store::ExpectVersion{_lease.record_key(), _lease.record_version()});

  records::MeshNodeDescriptorRecord written = _descriptor;
  written.updated_at_epoch_ms = _lease.estimated_store_now_ms();
  store::Bytes bytes = records::encode(written);
  SPOTCHECK_ASSERT(bytes.size() <= records::kDescriptorBytesMax);
  store::WriteRequest request{std::move(plan.conditions), {store::Put{_key, bytes}}};
  // Fencing (§5): the reads above parked this task. Admission is checked again right before the
  // write is sent, so a host paused past its deadline in that gap never sends it.
  if (Result<Done> admitted = _lease.admit("descriptor_publish"); !admitted.ok()) {
    emit(to_string(admitted.error().kind), 0, 0);
    return Outcome::settled(admitted.error());
  }
  const store::WriteResult result = _store.write(request, deadline());

  if (const auto* applied = std::get_if<store::Applied>(&result)) {
    SPOTCHECK_ASSERT(applied->outcomes.size() == 1);
    emit(to_string(plan.success), platform::as_i64(applied->outcomes[0].version.value), applied->now_ms);
    return Outcome::settled(plan.success);
  }
  if (const auto* conflict = std::get_if<store::Conflict>(&result)) {
    SPOTCHECK_ASSERT(conflict->reason == store::Conflict::Reason::kVersionMismatch);
    if (conflict->index == own_lease_index) {
      if (Result<Done> reconfirmed = _lease.reconfirm(); !reconfirmed.ok()) {
        emit(to_string(reconfirmed.error().kind), 0, conflict->now_ms);
        return Outcome::settled(reconfirmed.error());
      }
    }
    // The row or a lease moved: read again.
    return Outcome::again(Error::conflict(ConflictCause::kVersionChanged, "descriptor row moved"));
  }
  if (const auto* error = std::get_if<store::StoreError>(&result)) {
    emit("store_error", 0, 0);
    return Outcome::settled(
        Error::of(ErrorKind::kStoreError, std::string("writing our descriptor: ") + store::to_string(error->kind)));
  }
  // Indeterminate: the next attempt re-reads the row. Our bytes there mean it applied; any other
  // state is handled as a fresh publish (§10).
  const store::ReadResult reread = _store.read(_key, deadline());
  if (const auto* found = std::get_if<store::Found>(&reread); found != nullptr && found->value == bytes) {
    emit(to_string(plan.success), platform::as_i64(found->version.value), found->now_ms,
         /*resolved=*/true);
    return Outcome::settled(plan.success);
  }
  // Not seen (yet): remember the bytes, so the next attempt's read recognises them.
  unresolved.push_back(UnresolvedWrite{std::move(bytes), plan.success});
  return Outcome::again(Error::of(ErrorKind::kIndeterminate, "descriptor write outcome unknown"));
}

void DescriptorPublisher::emit(std::string_view outcome, std::int64_t version,
                               std::int64_t store_now_ms, bool resolved) {
  platform::emit_event(
      _platform.events, kinds::kDescriptorPublished,
      events::DescriptorPublished{_descriptor.mesh_name, _descriptor.routing_id_hex,
                                  static_cast<std::int64_t>(_descriptor.descriptor_revision),
                                  _descriptor.owner_id, platform::as_i64(_descriptor.lease_generation),
                                  platform::as_i64(_descriptor.lifecycle_generation),
                                  records::to_string(_descriptor.state), outcome, version, store_now_ms,
                                  resolved ? 1 : 0});
}

}  // namespace spotcheck::location
