#include "impl/location/instance/instance_target.h"

#include <exception>
#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/events/instance_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/records/keys.h"

namespace spotcheck::location::instance {

using platform::TimeUs;

namespace {

using platform::as_i64;

InstanceOutcome outcome(InstanceOutcomeKind kind, std::string message, std::uint64_t object_generation = 0,
                        std::string owner_rid_hex = {}) {
  return InstanceOutcome{kind, object_generation, std::move(owner_rid_hex), {}, std::move(message)};
}

InstanceMessage message_of(const InstanceRequest& request, std::uint64_t object_generation, bool first) {
  return InstanceMessage{request.spot_id,        request.stable_type, object_generation,     request.op_id,
                         request.source_rid_hex, request.source,      request.first_message, first};
}

constexpr std::size_t kQueueMax = 10'000;
// Bound of the re-read / wait steps of one request; the deadline normally ends them first.
constexpr int kStepsMax = 1'000'000;

}  // namespace

InstanceTarget::InstanceTarget(InstanceTargetContext context, const InstanceRegistry& registry,
                               InstanceTargetConfig config)
    : _context(std::move(context)), _registry(registry), _config(config) {
  SPOTCHECK_ASSERT(_config.attempts_max > 0);
  SPOTCHECK_ASSERT(_config.payload_retention_ms > 0);
}

std::uint64_t InstanceTarget::instance_generation(const std::string& spot_id) const {
  auto it = _instances.find(spot_id);
  return it == _instances.end() ? 0 : it->second.object_generation;
}

std::size_t InstanceTarget::messages_run(const std::string& spot_id) const {
  auto it = _instances.find(spot_id);
  return it == _instances.end() ? 0 : it->second.ran.size();
}

TimeUs InstanceTarget::store_deadline_us() const {
  return _context.platform.clock.now_us() + _context.config.store_request_timeout_us;
}

TimeUs InstanceTarget::local_deadline_us(std::int64_t deadline_store_ms) const {
  const std::int64_t left_ms = deadline_store_ms - _context.lease.estimated_store_now_ms();
  return _context.platform.clock.now_us() + left_ms * platform::kMicrosPerMilli;
}

InstanceOutcome InstanceTarget::finish(const InstanceRequest& request, InstanceOutcome result) {
  result.stable_type = request.stable_type;
  platform::emit_event(
      _context.platform.events, kinds::kInstanceOutcome,
      events::InstanceOutcome{request.spot_id, request.op_id.hex(), _context.rid_hex, to_string(result.kind),
                              as_i64(result.object_generation), result.owner_rid_hex, result.message});
  return result;
}

InstanceOutcome InstanceTarget::handle(const InstanceRequest& request) {
  platform::emit_event(
      _context.platform.events, kinds::kInstanceRequestReceived,
      events::InstanceRequestReceived{request.spot_id, request.op_id.hex(), request.stable_type,
                                      _context.rid_hex, request.source_rid_hex});
  if (_registry.find(request.stable_type) == nullptr) {
    return finish(request, outcome(InstanceOutcomeKind::kNotConfigured, "the stable type is not registered here"));
  }
  const TimeUs deadline_us = local_deadline_us(request.deadline_store_ms);
  const AuthorityKey key{records::AuthorityKind::kSpot, request.spot_id};
  int failures = 0;  // store errors and lost Reserves: at most attempts_max
  for (int step = 0; step < kStepsMax && failures < _config.attempts_max; ++step) {
    if (_context.platform.clock.now_us() > deadline_us) {
      return finish(request, outcome(InstanceOutcomeKind::kDeadlineExceeded, "the request's deadline passed"));
    }
    Result<AuthorityRead> read = _context.authority.read(key);
    if (!read.ok()) {
      ++failures;
      _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
      continue;
    }
    if (!read.value().current.has_value()) {
      if (closing_here(request.spot_id) != nullptr) {
        // No record, but the previous incarnation's Close still runs here (its Delete applied,
        // its end not seen yet). The store and the in-process list are read together (§7.1):
        // the Spot is not free on this node until that local Close ended. Then re-read.
        if (!await_local_close(request, deadline_us, "before_reserve")) {
          return finish(request, outcome(InstanceOutcomeKind::kDeadlineExceeded,
                                         "the request's deadline passed while an earlier incarnation closed here"));
        }
        continue;
      }
      if (recovering_here(request.spot_id)) {
        _context.platform.clock.sleep_for(_config.wait_interval_us);
        continue;
      }
      // No record and no Close running here: an in-process instance left without a row is of
      // a previous generation and never receives the message.
      _instances.erase(request.spot_id);
      std::optional<InstanceOutcome> activated = activate(request, deadline_us);
      if (activated.has_value()) {
        return finish(request, std::move(*activated));
      }
      ++failures;
      continue;  // the Reserve lost: follow the winner's row
    }
    const AuthoritySnapshot& row = *read.value().current;
    const records::Allocation& allocation = row.record.allocation;
    if (allocation.object_kind != records::ObjectKind::kInstanceSpot || allocation.stable_type != request.stable_type) {
      return finish(request, outcome(InstanceOutcomeKind::kTypeMismatch,
                                     std::string("the ID holds a ") + std::string(records::to_string(allocation.object_kind)) +
                                         " of type " + allocation.stable_type,
                                     row.record.object_generation));
    }
    if (left_by_earlier_run(row.record)) {
      // An earlier host run of this node left the row (it died): recovered before any message (§7.1).
      const Recovery recovered = recover(row);
      if (recovered == Recovery::kFailed) {
        ++failures;
      }
      if (recovered != Recovery::kRecovered) {
        _context.platform.clock.sleep_for(_config.wait_interval_us);
      }
      continue;
    }
    if (allocation.state == records::AllocationState::kReserved) {
      _context.platform.clock.sleep_for(_config.wait_interval_us);  // Creating: wait for the same result
      continue;
    }
    return finish(request, on_ready(request, row));
  }
  return finish(request, outcome(InstanceOutcomeKind::kStoreError, "the row could not be read or settled"));
}

InstanceOutcome InstanceTarget::on_ready(const InstanceRequest& request, const AuthoritySnapshot& row) {
  const records::AuthorityRecord& record = row.record;
  const std::string& owner_rid = record.allocation.descriptor.routing_id_hex;
  if (is_data_lost(record.payload)) {
    // §10: the error recorded in the row is the answer; no instance of it exists anywhere.
    return outcome(InstanceOutcomeKind::kDataLost, "the stored first message of this incarnation is lost (DataLost)",
                   record.object_generation, owner_rid);
  }
  const HostRun& self = _context.lease.host_run();
  if (!owned_by(record, self)) {
    if (owner_rid == _context.rid_hex) {
      return outcome(InstanceOutcomeKind::kFailed, "Ready under a previous host run of this node",
                     record.object_generation);
    }
    platform::sometimes(_context.platform.events, platform::Mark::kInstanceRoute);
    return outcome(InstanceOutcomeKind::kRoute, "Ready on another node", record.object_generation, owner_rid);
  }
  const InstanceType* type = _registry.find(request.stable_type);
  SPOTCHECK_ASSERT(type != nullptr);
  const TimeUs deadline_us = local_deadline_us(request.deadline_store_ms);
  for (int step = 0; step < kStepsMax; ++step) {
    auto it = _instances.find(request.spot_id);
    if (it == _instances.end() || it->second.object_generation != record.object_generation) {
      // Never run on an instance of another generation (§7.1). Recovering an instance after a
      // restart (Ready, first message not yet completed) is not done in this slice.
      return outcome(InstanceOutcomeKind::kFailed, "Ready here without an in-process instance of this generation",
                     record.object_generation);
    }
    LocalInstance& instance = it->second;
    if (instance.closing) {
      // The owner fence: Close ended this incarnation; refused before admission, nothing ran.
      return outcome(InstanceOutcomeKind::kSpotMoving, "the Spot is closing: refused before admission",
                     record.object_generation, _context.rid_hex);
    }
    if (!instance.accepting) {
      if (_context.platform.clock.now_us() > deadline_us) {
        break;
      }
      _context.platform.clock.sleep_for(_config.wait_interval_us);  // the first message runs first
      continue;
    }
    if (instance.ran.count(request.op_id) == 0) {
      SPOTCHECK_ASSERT(instance.queue.size() < kQueueMax);
      instance.queue.push_back(message_of(request, record.object_generation, false));
      if (!drain(instance, *type, request.spot_id)) {
        // Starting a message needs §5 admission: refused before it ran, so the source may send again.
        return outcome(InstanceOutcomeKind::kStoreError, "the owner's admission is closed (§5): the message did not run",
                       record.object_generation);
      }
      // The message ran. Its reply leaves on the instance's next turn; a Close that began in
      // between (its handler may have asked for one) leaves no instance to reply from: the request
      // ends RequestTargetNotFound — after admission, so the source must not send it again.
      _context.platform.tasks.yield();
      if (closed_since(request.spot_id, record.object_generation)) {
        return outcome(InstanceOutcomeKind::kRequestTargetNotFound,
                       "the message ran, but the Spot closed before its reply", record.object_generation);
      }
    }
    platform::sometimes(_context.platform.events, platform::Mark::kInstanceReadyDelivery);
    return outcome(InstanceOutcomeKind::kDelivered, {}, record.object_generation, _context.rid_hex);
  }
  return outcome(InstanceOutcomeKind::kDeadlineExceeded, "the first message did not complete in time",
                 record.object_generation);
}

bool InstanceTarget::drain(LocalInstance& instance, const InstanceType& type, const std::string& spot_id) {
  for (std::size_t ran = 0; ran < kQueueMax && !instance.queue.empty(); ++ran) {
    InstanceMessage message = std::move(instance.queue.front());
    instance.queue.pop_front();
    // A later message starts only under §5 admission; the first message was accepted with its
    // factory run (admitted there) and is work already accepted, which may finish (§5).
    if (!message.first && !_context.lease.admit("instance_message").ok()) {
      return false;  // it did not run: its sender is told so and may send again
    }
    SPOTCHECK_ASSERT(message.object_generation == instance.object_generation);
    SPOTCHECK_ASSERT(message.first || instance.accepting);  // nothing runs before the first message
    const bool inserted = instance.ran.insert(message.op_id).second;
    SPOTCHECK_ASSERT(inserted);  // a message runs at most once
    SPOTCHECK_ASSERT(!instance.closing);  // a closing incarnation admits nothing
    // The application operation runs now: the fact the at-most-once property judges.
    platform::emit_event(
        _context.platform.events,
        message.first ? kinds::kInstanceFirstMessageRun : kinds::kInstanceMessageRun,
        events::InstanceMessageRun{spot_id, message.op_id.hex(), as_i64(message.object_generation),
                                   _context.rid_hex, message.source_rid_hex, message.source.owner_id,
                                   as_i64(message.source.lease_generation), _context.lease.host_run().owner_id,
                                   as_i64(_context.lease.host_run().lease_generation), _context.platform.clock.now_us(),
                                   _context.lease.admission_deadline_us()});
    type.handler(message);
    if (message.first) {
      instance.accepting = true;
    }
  }
  return true;
}

Result<InstanceTarget::Stored> InstanceTarget::store_payload(const InstanceRequest& request) {
  const std::string bytes = encode(request);
  const std::string reference = instance_reference(request.spot_id, request.op_id);
  for (int attempt = 0; attempt < _config.attempts_max; ++attempt) {
    const store::PutResult put =
        _context.relocation.put(store::PayloadPut{reference, bytes, _config.payload_retention_ms}, store_deadline_us());
    if (std::holds_alternative<store::PayloadConflict>(put)) {
      return Error::of(ErrorKind::kStoreError, "other bytes are stored under " + reference);
    }
    if (!std::holds_alternative<store::Stored>(put)) {
      _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
      continue;  // refused or unknown: the same bytes under the same reference are put again
    }
    const store::GetResult got = _context.relocation.get(reference, store_deadline_us());
    const auto* found = std::get_if<store::PayloadFound>(&got);
    if (found == nullptr || found->payload != bytes) {
      _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
      continue;  // not verified yet: never point at it
    }
    Stored stored{reference, records::sha256_hex(bytes), bytes.size()};
    platform::emit_event(_context.platform.events, kinds::kInstancePayloadStored,
                         events::InstancePayloadStored{request.spot_id, request.op_id.hex(), _context.rid_hex,
                                                       reference, stored.sha256, as_i64(stored.size_bytes),
                                                       std::get<store::Stored>(put).already_present ? 1 : 0});
    return stored;
  }
  return Error::of(ErrorKind::kStoreError, "the Relocation Store did not store the request");
}

void InstanceTarget::release_payload(const InstanceRequest& request, const std::string& reference,
                                     std::string_view reason) {
  release_payload(request.spot_id, request.op_id.hex(), reference, reason);
}

void InstanceTarget::release_payload(std::string_view spot_id, std::string_view op_hex, const std::string& reference,
                                     std::string_view reason) {
  for (int attempt = 0; attempt < _config.attempts_max; ++attempt) {
    const store::DeleteResult removed = _context.relocation.remove(reference, store_deadline_us());
    if (const auto* deleted = std::get_if<store::Deleted>(&removed)) {
      platform::emit_event(
          _context.platform.events, kinds::kInstancePayloadReleased,
          events::InstancePayloadReleased{spot_id, op_hex, _context.rid_hex, reference,
                                          reason, deleted->was_present ? 1 : 0});
      return;
    }
    _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
  }
  // Left to retention (§10): no row points at it any more.
}

std::optional<NodeView> InstanceTarget::self_view() {
  Result<DescriptorList> list = read_descriptor_list(_context.store, _context.platform, _context.config, _context.mesh_name);
  if (!list.ok()) {
    return std::nullopt;
  }
  const HostRun& self = _context.lease.host_run();
  for (const NodeView& node : list.value().nodes) {
    if (node.descriptor.routing_id_hex == _context.rid_hex && node.host_run() == self) {
      return node;
    }
  }
  return std::nullopt;
}

bool InstanceTarget::closed_since(const std::string& spot_id, std::uint64_t object_generation) const {
  auto it = _instances.find(spot_id);
  return it == _instances.end() || it->second.object_generation != object_generation || it->second.closing;
}

const InstanceTarget::LocalInstance* InstanceTarget::closing_here(const std::string& spot_id) const {
  auto it = _instances.find(spot_id);
  if (it == _instances.end() || !it->second.close_running) {
    return nullptr;
  }
  SPOTCHECK_ASSERT(it->second.closing);
  return &it->second;
}

bool InstanceTarget::await_local_close(const InstanceRequest& request, TimeUs deadline_us, std::string_view where) {
  for (int step = 0; step < kStepsMax; ++step) {
    const LocalInstance* closing = closing_here(request.spot_id);
    if (closing == nullptr) {
      return true;
    }
    if (step == 0) {
      platform::emit_event(
          _context.platform.events, kinds::kInstanceCloseAwaited,
          events::InstanceCloseAwaited{request.spot_id, request.op_id.hex(), _context.rid_hex,
                                       as_i64(closing->object_generation), where});
    }
    if (_context.platform.clock.now_us() > deadline_us) {
      return false;
    }
    _context.platform.clock.sleep_for(_config.wait_interval_us);  // the Close ends on its own task
  }
  return false;
}

std::optional<InstanceOutcome> InstanceTarget::activate(const InstanceRequest& request, TimeUs deadline_us) {
  Result<Stored> stored = store_payload(request);
  if (!stored.ok()) {
    return outcome(InstanceOutcomeKind::kStoreError, stored.error().message);
  }
  const std::string& reference = stored.value().reference;
  ReserveStep reserved = reserve_row(request, stored.value(), deadline_us);
  if (!reserved.row.has_value()) {
    return reserved.failure;  // nullopt: another target's Reserve won: follow its row
  }
  const AuthoritySnapshot& row = *reserved.row;
  const std::uint64_t generation = row.record.object_generation;

  // The Reserve applied, so no row of the Spot existed: an incarnation in the list now is of an
  // earlier generation — one made and closed here while the Reserve was in flight, or one left
  // without a row. Hold the Creating row (requests wait on it) until a Close still running on it
  // ended; then drop what is left: it never receives a message.
  if (!await_local_close(request, deadline_us, "after_reserve")) {
    if (_context.authority.abort(row).ok()) {
      release_payload(request, reference, "aborted");
    }
    return outcome(InstanceOutcomeKind::kDeadlineExceeded,
                   "the request's deadline passed while an earlier incarnation closed here", generation);
  }
  if (auto stale = _instances.find(request.spot_id); stale != _instances.end()) {
    SPOTCHECK_ASSERT(!stale->second.close_running);
    SPOTCHECK_ASSERT(stale->second.object_generation < generation);  // one store-wide sequence
    _instances.erase(stale);
  }

  const InstanceType* type = _registry.find(request.stable_type);
  SPOTCHECK_ASSERT(type != nullptr);
  const std::string rejected = run_factory(request, *type, generation);
  if (!rejected.empty()) {
    if (_context.authority.abort(row).ok()) {
      release_payload(request, reference, "aborted");  // the row no longer exists
    }
    return outcome(InstanceOutcomeKind::kFailed, rejected, generation);
  }

  // Ready + capacity in use. The row payload keeps pointing at the stored request.
  Result<AuthoritySnapshot> committed = _context.authority.commit(row);
  if (!committed.ok()) {
    return outcome(InstanceOutcomeKind::kStoreError, "Commit failed: " + describe(committed.error()), generation);
  }
  SPOTCHECK_ASSERT(points_at(committed.value().record.payload, reference));
  platform::emit_event(
      _context.platform.events, kinds::kInstanceReady,
      events::InstanceReady{request.spot_id, as_i64(generation), _context.rid_hex, reference});
  start_instance(request, *type, generation);

  // End of use recorded in the Location Store, then the payload is deleted (§10).
  if (!record_end_of_use(committed.value(), reference)) {
    return outcome(InstanceOutcomeKind::kCreated, "the end of use was not recorded; the payload is kept", generation,
                   _context.rid_hex);
  }
  platform::emit_event(
      _context.platform.events, kinds::kInstanceEndOfUseRecorded,
      events::InstanceEndOfUseRecorded{request.spot_id, as_i64(generation), _context.rid_hex, reference});
  release_payload(request, reference, "end_of_use");
  return outcome(InstanceOutcomeKind::kCreated, {}, generation, _context.rid_hex);
}

InstanceTarget::ReserveStep InstanceTarget::reserve_row(const InstanceRequest& request, const Stored& stored,
                                                        TimeUs deadline_us) {
  const std::optional<NodeView> self = self_view();
  if (!self.has_value()) {
    release_payload(request, stored.reference, "not_referenced");
    return ReserveStep{std::nullopt, outcome(InstanceOutcomeKind::kStoreError, "this node's descriptor could not be read")};
  }
  // The read that chose cold activation may be seconds old (the payload write can stall): an
  // incarnation of the Spot made meanwhile may be closing here now, its row already gone. No new
  // incarnation is exposed while an earlier one is closing in this host run: wait for that local
  // Close first. The Reserve is conditional (ExpectAbsent): a row made meanwhile makes it lose.
  if (!await_local_close(request, deadline_us, "before_reserve")) {
    release_payload(request, stored.reference, "not_referenced");
    return ReserveStep{std::nullopt, outcome(InstanceOutcomeKind::kDeadlineExceeded,
                                             "the request's deadline passed while an earlier incarnation closed here")};
  }
  ReserveRequest reserve;
  reserve.key = AuthorityKey{records::AuthorityKind::kSpot, request.spot_id};
  reserve.object_kind = records::ObjectKind::kInstanceSpot;
  reserve.stable_type = request.stable_type;
  reserve.payload = recovery_pointer(stored.reference, stored.sha256, stored.size_bytes);
  reserve.pending_creation =
      records::PendingCreation{stored.reference, stored.reference, stored.sha256, stored.size_bytes};
  Result<AuthoritySnapshot> reserved = _context.authority.reserve(reserve, *self);
  if (!reserved.ok()) {
    const Error& error = reserved.error();
    if (error.kind == ErrorKind::kConflict && error.cause == ConflictCause::kAlreadyExists) {
      platform::emit_event(
          _context.platform.events, kinds::kInstanceReserveLost,
          events::InstanceReserveLost{request.spot_id, request.op_id.hex(), _context.rid_hex});
      release_payload(request, stored.reference, "not_referenced");
      return ReserveStep{};  // another target's Reserve won: follow its row
    }
    if (error.kind != ErrorKind::kIndeterminate) {
      release_payload(request, stored.reference, "not_referenced");
    }  // unknown: a row may point at it; left to retention and recovery
    const InstanceOutcomeKind kind =
        error.kind == ErrorKind::kCapacityFull ? InstanceOutcomeKind::kNotConfigured : InstanceOutcomeKind::kStoreError;
    return ReserveStep{std::nullopt, outcome(kind, "Reserve failed: " + describe(error))};
  }
  const AuthoritySnapshot& row = reserved.value();
  const HostRun& host = _context.lease.host_run();
  SPOTCHECK_ASSERT(owned_by(row.record, host));
  SPOTCHECK_ASSERT(row.record.pending_creation.has_value() &&
                  row.record.pending_creation->request_content_reference == stored.reference);
  platform::emit_event(_context.platform.events, kinds::kInstanceReserved,
                       events::InstanceReserved{
                           request.spot_id, request.op_id.hex(), as_i64(row.record.object_generation),
                           _context.rid_hex, host.owner_id, as_i64(host.lease_generation), stored.reference});
  return ReserveStep{row, std::nullopt};
}

std::string InstanceTarget::run_factory(const InstanceRequest& request, const InstanceType& type,
                                        std::uint64_t generation) {
  if (Result<Done> admitted = _context.lease.admit("instance_factory"); !admitted.ok()) {
    return "admission closed";
  }
  const HostRun& host = _context.lease.host_run();
  platform::emit_event(
      _context.platform.events, kinds::kInstanceFactoryRun,
      events::InstanceFactoryRun{request.spot_id, as_i64(generation), request.stable_type, _context.rid_hex,
                                 host.owner_id, as_i64(host.lease_generation), request.op_id.hex(),
                                 _context.platform.clock.now_us(), _context.lease.admission_deadline_us()});
  const creation::FactoryContext factory_context{records::ObjectKind::kInstanceSpot, request.spot_id,
                                                 request.stable_type, generation, request.args, request.op_id};
  try {
    const creation::FactoryDecision decision = type.factory(factory_context);
    return decision.approved ? "" : "the factory rejected";
  } catch (const check::InvariantViolation&) {
    throw;
  } catch (const std::exception& error) {
    return std::string("the factory threw: ") + error.what();
  }
}

void InstanceTarget::start_instance(const InstanceRequest& request, const InstanceType& type,
                                    std::uint64_t generation) {
  // The first message at the head of the new instance's queue, before any other message. Only a
  // Reserve that applied inserts, and this row has held the Spot since ours: the list is empty.
  SPOTCHECK_ASSERT(_instances.count(request.spot_id) == 0);
  LocalInstance& instance = _instances[request.spot_id];
  instance.stable_type = request.stable_type;
  instance.object_generation = generation;
  run_first_message(instance, request, type);
}

void InstanceTarget::run_first_message(LocalInstance& instance, const InstanceRequest& request,
                                       const InstanceType& type) {
  SPOTCHECK_ASSERT(instance.queue.empty() && !instance.accepting && !instance.closing);
  instance.queue.push_front(message_of(request, instance.object_generation, true));
  // Requests meeting the Ready row meanwhile find the instance and wait for its first message.
  _context.platform.tasks.yield();
  auto it = _instances.find(request.spot_id);
  SPOTCHECK_ASSERT(it != _instances.end() && &it->second == &instance);  // nothing replaces it while it starts
  SPOTCHECK_ASSERT(!instance.queue.empty() && instance.queue.front().first);
  const bool drained = drain(instance, type, request.spot_id);
  SPOTCHECK_ASSERT(drained);  // the first message is never refused: it was admitted with the factory
  SPOTCHECK_ASSERT(instance.accepting);
}

bool InstanceTarget::record_end_of_use(AuthoritySnapshot current, const std::string& reference) {
  return replace_row_payload(std::move(current), reference, "");
}

bool InstanceTarget::replace_row_payload(AuthoritySnapshot current, const std::string& reference,
                                         const std::string& payload) {
  SPOTCHECK_ASSERT(points_at(current.record.payload, reference) && !points_at(payload, reference));
  const std::uint64_t generation = current.record.object_generation;
  for (int attempt = 0; attempt < _config.attempts_max; ++attempt) {
    Result<AuthoritySnapshot> preserved = _context.authority.preserve(current, payload);
    if (preserved.ok()) {
      return true;
    }
    if (preserved.error().kind == ErrorKind::kAdmissionClosed) {
      return false;
    }
    _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
    Result<AuthorityRead> reread = _context.authority.read(current.key);
    if (!reread.ok()) {
      continue;
    }
    if (!reread.value().current.has_value() || reread.value().current->record.object_generation != generation) {
      return false;  // the row is gone or another generation: nothing of ours to record
    }
    current = *reread.value().current;
    if (!points_at(current.record.payload, reference)) {
      return true;  // an earlier attempt applied
    }
  }
  return false;
}

InstanceTarget::OwnRowDelete InstanceTarget::delete_own_row(
    const std::string& spot_id, const std::function<bool(const records::AuthorityRecord&)>& still_ours) {
  const AuthorityKey key{records::AuthorityKind::kSpot, spot_id};
  for (int attempt = 0; attempt < _config.attempts_max; ++attempt) {
    Result<AuthorityRead> read = _context.authority.read(key);
    if (!read.ok()) {
      _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
      continue;
    }
    const std::optional<AuthoritySnapshot>& row = read.value().current;
    if (!row.has_value() || !still_ours(row->record)) {
      return OwnRowDelete::kNotOurs;
    }
    SPOTCHECK_ASSERT(row->record.allocation.state == records::AllocationState::kActive);
    Result<Done> removed = _context.authority.remove(*row);
    if (removed.ok()) {
      return OwnRowDelete::kDeleted;
    }
    if (removed.error().kind == ErrorKind::kAdmissionClosed) {
      return OwnRowDelete::kFailed;
    }
    _context.platform.clock.sleep_for(_config.store_retry_backoff_us);
  }
  return OwnRowDelete::kFailed;
}

InstanceOutcome InstanceTarget::close(const std::string& spot_id) {
  auto it = _instances.find(spot_id);
  if (it == _instances.end()) {
    return close_data_lost(spot_id);
  }
  if (!it->second.accepting || it->second.closing) {
    return outcome(InstanceOutcomeKind::kNotFound, "no Ready instance of this host run");
  }
  const std::uint64_t generation = it->second.object_generation;
  SPOTCHECK_ASSERT(!it->second.close_running);
  it->second.closing = true;        // from here every request is refused before admission,
  it->second.close_running = true;  // and no new incarnation of the Spot starts here until it ends
  platform::emit_event(_context.platform.events, kinds::kInstanceClosing,
                       events::InstanceClosing{spot_id, as_i64(generation), _context.rid_hex});
  const HostRun& self = _context.lease.host_run();
  const OwnRowDelete deleted = delete_own_row(spot_id, [generation, &self](const records::AuthorityRecord& record) {
    return record.object_generation == generation && owned_by(record, self);
  });
  InstanceOutcome result = outcome(InstanceOutcomeKind::kStoreError, "the Delete of the Ready row kept failing", generation);
  if (deleted == OwnRowDelete::kDeleted) {
    result = outcome(InstanceOutcomeKind::kDelivered, {}, generation);
  } else if (deleted == OwnRowDelete::kNotOurs) {
    // An earlier attempt applied, or the row is no longer this incarnation's.
    result = outcome(InstanceOutcomeKind::kDelivered, "the row of this incarnation is gone", generation);
  }
  // Nothing drops or replaces an incarnation while its Close runs (handle and activate wait).
  auto current = _instances.find(spot_id);
  SPOTCHECK_ASSERT(current != _instances.end());
  SPOTCHECK_ASSERT(current->second.object_generation == generation);
  SPOTCHECK_ASSERT(current->second.closing);
  SPOTCHECK_ASSERT(current->second.close_running);
  current->second.close_running = false;
  if (result.ok()) {
    _instances.erase(current);  // the incarnation ended: nothing of it runs again
  }
  platform::emit_event(
      _context.platform.events, kinds::kInstanceClosed,
      events::InstanceClosed{spot_id, as_i64(generation), _context.rid_hex, to_string(result.kind)});
  return result;
}

}  // namespace spotcheck::location::instance
