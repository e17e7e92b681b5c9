#include "impl/location/creation/creation_client.h"

#include <algorithm>
#include <utility>
#include <variant>
#include <vector>

#include "impl/check/check.h"
#include "impl/location/creation/in_mesh.h"
#include "impl/location/events/creation_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/creation/operation_key.h"
#include "impl/location/creation/result_store.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/lease/owner_id.h"
#include "impl/location/placement/placement.h"
#include "impl/records/keys.h"
#include "impl/records/validate.h"

namespace spotcheck::location::creation {

using messaging::FinalResultReply;
using platform::TimeUs;

namespace {

using platform::as_i64;

bool same_type(const records::AuthorityRecord& record, const CreateSpec& spec) {
  return record.allocation.object_kind == spec.object_kind && record.allocation.stable_type == spec.stable_type;
}

CreateReply reply_of_stored(const FinalResultRecord& stored) {
  CreateReply reply;
  reply.op_id = stored.operation.op_id;
  reply.outcome = stored.outcome;
  if (stored.ref.has_value()) {
    reply.ref = ref_of(*stored.ref);
  }
  reply.app_reply = stored.app_reply;
  reply.message = stored.message;
  reply.from_store = true;
  return reply;
}

}  // namespace

ObjectRef ref_of(const AuthoritySnapshot& row) {
  return ObjectRef{row.key.kind, row.key.id, row.record.object_generation, row.record.allocation.descriptor.mesh_name,
                   row.record.allocation.descriptor.routing_id_hex};
}

ObjectRef ref_of(const messaging::WireRef& ref) {
  return ObjectRef{ref.kind, ref.id, ref.object_generation, ref.mesh_name, ref.node_rid_hex};
}

// One Manager call in progress.
struct CreationClient::Call {
  CreateSpec spec;
  AuthorityKey key;
  OperationKey operation;
  std::string mesh;
  std::string reservation_id;
  store::Key request_key;
  std::int64_t deadline_store_ms = 0;
  std::vector<HostRun> excluded;
  // Host runs whose owner-lease condition failed once in this call: a renewal of the target's
  // owner lease between the read and the Reserve changes the row the Reserve conditions on, though
  // the target is as valid as before. The next attempt re-reads; a second failure excludes it.
  std::vector<HostRun> target_changed_once;
  std::optional<AuthoritySnapshot> mine;  // our Creating row, once reserved (or adopted by re-read)
};

CreationClient::CreationClient(NodeContext context) : _context(std::move(context)) {}

ManagerError CreationClient::error(ManagerErrorKind kind, std::string message) const {
  return ManagerError{kind, std::move(message)};
}

// §7: a target whose state changed is excluded and another candidate picked. A changed owner-lease
// row alone is not a changed target (a renewal moves its StoreVersion; an expired or replaced lease
// is filtered by the next placement read anyway): the first failure of a host run sends the call
// to read again, the second excludes it.
void CreationClient::exclude_after_second_change(Call& call, const HostRun& target) {
  auto& once = call.target_changed_once;
  if (std::find(once.begin(), once.end(), target) == once.end()) {
    once.push_back(target);
    return;
  }
  if (std::find(call.excluded.begin(), call.excluded.end(), target) == call.excluded.end()) {
    call.excluded.push_back(target);
  }
}

bool CreationClient::time_left(const Call& call) const {
  return _context.platform.clock.now_us() + _context.creation.deadline_guard_us < call.spec.deadline_us;
}

TimeUs CreationClient::store_deadline_us(const Call& call) const {
  return std::min(_context.platform.clock.now_us() + _context.config.store_request_timeout_us, call.spec.deadline_us);
}

void CreationClient::sleep_before_retry(const Call& call, TimeUs pause_us) {
  const TimeUs latest = call.spec.deadline_us - _context.creation.deadline_guard_us;
  _context.platform.clock.sleep_until(std::min(_context.platform.clock.now_us() + pause_us, latest));
}

ManagerResult<CreateReply> CreationClient::create(const CreateSpec& spec) {
  const TimeUs now = _context.platform.clock.now_us();
  Call call;
  call.spec = spec;
  if (spec.object_kind == records::ObjectKind::kInstanceSpot) {
    return error(ManagerErrorKind::kInvalidArgument, "an Instance Spot is created by its first message (§7.1)");
  }
  if (!_context.lease.registered()) {
    return error(ManagerErrorKind::kAdmissionClosed, "this host run has no owner lease");
  }
  if (spec.id.empty()) {
    if (spec.object_kind != records::ObjectKind::kUserSpot || spec.mode != CreateMode::kCreate) {
      return error(ManagerErrorKind::kInvalidArgument, "only a User Spot Create leaves the ID to the Framework");
    }
    call.spec.id = new_owner_id(_context.platform.random);  // a lowercase canonical UUID v4
  }
  if (auto bad = records::check_identity("id", call.spec.id)) {
    return error(ManagerErrorKind::kInvalidArgument, records::describe(*bad));
  }
  if (auto bad = records::check_identity("stableType", call.spec.stable_type)) {
    return error(ManagerErrorKind::kInvalidArgument, records::describe(*bad));
  }
  if (spec.op_id.has_value() && spec.op_id->empty()) {
    return error(ManagerErrorKind::kInvalidArgument, "an OperationId is non-zero (§9.3)");
  }
  const OperationId op = spec.op_id.value_or(OperationId::random(_context.platform.random));
  if (_in_progress.count(op) != 0) {
    return error(ManagerErrorKind::kInvalidOperation, "this call is already submitted");
  }
  call.key = AuthorityKey{records::authority_kind(spec.object_kind), call.spec.id};
  call.operation = OperationKey{_context.rid_hex, _context.lease.host_run().lease_generation, op};
  std::variant<std::string, ManagerError> mesh = choose_mesh(spec.in_mesh, _context.object_meshes);
  if (auto* refused = std::get_if<ManagerError>(&mesh)) {
    return error(refused->kind, std::move(refused->message));
  }
  const std::string asked_mesh = std::get<std::string>(std::move(mesh));
  call.mesh = SPOTCHECK_PLANTED(_context.creation.planted_bugs, kIgnoreInMesh) ? _context.mesh_name : asked_mesh;
  call.reservation_id = call.operation.reservation_id();
  call.request_key = creation_request_key(call.reservation_id);
  const std::int64_t left_ms = (spec.deadline_us - now + platform::kMicrosPerMilli - 1) / platform::kMicrosPerMilli;
  call.deadline_store_ms = _context.lease.estimated_store_now_ms() + std::max<std::int64_t>(left_ms, 0);

  platform::emit_event(
      _context.platform.events, kinds::kCreationRequested,
      events::CreationRequested{op.hex(), as_i64(call.operation.source_lease_generation), to_string(spec.mode),
                                records::to_string(call.key.kind), records::to_string(spec.object_kind),
                                call.spec.id, spec.stable_type, spec.deadline_us, asked_mesh});
  _in_progress.insert(op);
  struct Forget {
    std::set<OperationId>& set;
    OperationId op;
    ~Forget() { set.erase(op); }
  } forget{_in_progress, op};

  ManagerResult<CreateReply> result = run(call);
  if (result.ok()) {
    result.value().op_id = op;
  }
  platform::emit_event(
      _context.platform.events, kinds::kCreationFinished,
      events::CreationFinished{
          op.hex(), as_i64(call.operation.source_lease_generation), to_string(spec.mode),
          records::to_string(call.key.kind), call.spec.id,
          result.ok() ? messaging::to_string(result.value().outcome) : to_string(result.error_kind()),
          result.ok() ? as_i64(result.value().ref.object_generation) : 0,
          result.ok() && result.value().from_store ? 1 : 0});
  return result;
}

Result<std::optional<CreateReply>> CreationClient::stored_result(Call& call) {
  Result<std::optional<FinalResultRecord>> stored =
      read_final_result(_context.store, _context.platform, call.operation, store_deadline_us(call));
  if (!stored.ok()) {
    if (stored.error_kind() == ErrorKind::kRecordInvalid) {
      return std::optional<CreateReply>{};  // not this operation's result (or undecodable): none
    }
    return stored.error();  // unknown: the caller asks again, never guesses "none"
  }
  if (!stored.value().has_value()) {
    return std::optional<CreateReply>{};
  }
  const FinalResultRecord& record = *stored.value();
  SPOTCHECK_ASSERT(record.operation == call.operation);
  platform::emit_event(_context.platform.events, kinds::kCreationResultReread,
                       events::CreationResultReread{call.operation.op_id.hex(),
                                                    messaging::to_string(record.outcome), call.spec.id});
  return std::optional<CreateReply>{reply_of_stored(record)};
}

// §7: "It first checks whether a stored result for the same identifier exists before creation."
// The check must answer: a read that fails is asked again until the deadline, for a request
// answered before (its reply lost) would otherwise run a second time and overwrite its result.
std::optional<ManagerResult<CreateReply>> CreationClient::check_stored_before_creation(Call& call) {
  for (std::uint32_t attempt = 0; attempt < _context.creation.attempts_max; ++attempt) {
    if (!time_left(call)) {
      break;
    }
    Result<std::optional<CreateReply>> stored = stored_result(call);
    if (stored.ok()) {
      if (!stored.value().has_value()) {
        return std::nullopt;  // none stored: this request may create
      }
      platform::sometimes(_context.platform.events, platform::Mark::kCreationAnsweredFromStore);
      return ManagerResult<CreateReply>(std::move(*stored.value()));
    }
    platform::sometimes(_context.platform.events, platform::Mark::kCreationResultReadUnknown);
    sleep_before_retry(call, _context.creation.store_retry_backoff_us);
  }
  return ManagerResult<CreateReply>(
      error(ManagerErrorKind::kDeadlineExceeded, "the stored final result could not be read before the deadline"));
}

// Our Creating row is gone: the target recorded a result (rejected/failed, or Ready then
// removed), or the creation was cancelled. None when the stored result could not be read:
// the caller reads again rather than answer "cancelled" on a failed read.
std::optional<ManagerResult<CreateReply>> CreationClient::after_own_row_gone(Call& call) {
  Result<std::optional<CreateReply>> stored = stored_result(call);
  if (!stored.ok()) {
    sleep_before_retry(call, _context.creation.store_retry_backoff_us);
    return std::nullopt;
  }
  if (stored.value().has_value()) {
    return ManagerResult<CreateReply>(std::move(*stored.value()));
  }
  return ManagerResult<CreateReply>(error(ManagerErrorKind::kUnavailable, "the creation was cancelled"));
}

ManagerResult<CreateReply> CreationClient::run(Call& call) {
  if (!time_left(call)) {
    return error(ManagerErrorKind::kDeadlineExceeded, "the deadline passed before the call started");
  }
  if (std::optional<ManagerResult<CreateReply>> answered = check_stored_before_creation(call)) {
    return std::move(*answered);  // answered before (the stored result again), or unknown to the end
  }
  for (std::uint32_t attempt = 0; attempt < _context.creation.attempts_max; ++attempt) {
    if (!time_left(call)) {
      return error(ManagerErrorKind::kDeadlineExceeded, "the deadline passed");
    }
    Result<AuthorityRead> read = _context.authority.read(call.key);
    if (!read.ok()) {
      sleep_before_retry(call, _context.creation.store_retry_backoff_us);
      continue;
    }
    const std::optional<AuthoritySnapshot>& current = read.value().current;
    if (!current.has_value()) {
      if (call.mine.has_value()) {
        // Our Creating row is gone: rejected/failed with a stored result, or cancelled.
        if (std::optional<ManagerResult<CreateReply>> ended = after_own_row_gone(call)) {
          return std::move(*ended);
        }
        continue;
      }
      if (std::optional<ManagerResult<CreateReply>> ended = reserve(call)) {
        return std::move(*ended);
      }
      if (call.mine.has_value()) {
        return exchange(call, *call.mine);
      }
      continue;
    }
    const AuthoritySnapshot& row = *current;
    const records::AuthorityRecord& record = row.record;
    if (record.allocation.state == records::AllocationState::kReserved && record.pending_creation.has_value() &&
        record.pending_creation->reservation_id == call.reservation_id) {
      call.mine = row;  // ours: reserved by this call (e.g. found by re-read after a lost reply)
      return exchange(call, row);
    }
    if (call.mine.has_value()) {
      if (std::optional<ManagerResult<CreateReply>> ended = after_own_row_gone(call)) {
        return std::move(*ended);
      }
      continue;
    }
    if (std::optional<ManagerResult<CreateReply>> ended = on_row(call, row, read.value().now_ms)) {
      return std::move(*ended);
    }
  }
  return error(ManagerErrorKind::kDeadlineExceeded, "attempts exhausted");
}

std::optional<ManagerResult<CreateReply>> CreationClient::on_row(Call& call, const AuthoritySnapshot& row,
                                                                 store::StoreNowMs now_ms) {
  static_cast<void>(now_ms);
  const records::AuthorityRecord& record = row.record;
  if (!same_type(record, call.spec)) {
    return ManagerResult<CreateReply>(error(ManagerErrorKind::kTypeMismatch,
                                            "'" + call.spec.id + "' exists as " +
                                                std::string(records::to_string(record.allocation.object_kind)) + " " +
                                                record.allocation.stable_type));
  }
  if (record.allocation.state == records::AllocationState::kActive) {
    if (call.spec.mode == CreateMode::kCreate) {
      return ManagerResult<CreateReply>(error(ManagerErrorKind::kAlreadyExists, "'" + call.spec.id + "' is Ready"));
    }
    CreateReply existing;
    existing.outcome = ReplyOutcome::kExisting;
    existing.ref = ref_of(row);
    return ManagerResult<CreateReply>(std::move(existing));
  }
  if (cancel_if_abandoned(row)) {
    return std::nullopt;  // read again: the ID may be free now
  }
  if (call.spec.mode == CreateMode::kCreate) {
    return ManagerResult<CreateReply>(error(ManagerErrorKind::kAlreadyExists, "'" + call.spec.id + "' is Creating"));
  }
  platform::sometimes(_context.platform.events, platform::Mark::kCreationWaitsOnCreating);
  sleep_before_retry(call, _context.creation.poll_interval_us);  // wait for the in-progress creation
  return std::nullopt;
}

bool CreationClient::cancel_if_abandoned(const AuthoritySnapshot& row) {
  const records::AuthorityRecord& record = row.record;
  if (!record.pending_creation.has_value() ||
      SPOTCHECK_PLANTED(_context.creation.planted_bugs, kNeverCancelAbandoned)) {
    return false;
  }
  const store::Key request_key = key_of_request_reference(record.pending_creation->request_content_reference);
  if (request_key.empty()) {
    return false;
  }
  const store::ReadResult read =
      _context.store.read(request_key, _context.platform.clock.now_us() + _context.config.store_request_timeout_us);
  const auto* found = std::get_if<store::Found>(&read);
  if (found == nullptr) {
    return false;  // unknown or missing: never guessed
  }
  const std::optional<CreationRequestRecord> request = decode_creation_request(found->value);
  if (!request.has_value() || request->deadline_store_ms + _context.creation.abandoned_after_ms >= found->now_ms) {
    return false;
  }
  // Abort conditioned on the row's StoreVersion: if the target commits first, this fails.
  const Result<Done> aborted = _context.authority.abort(row, {store::Delete{request_key}});
  platform::emit_event(
      _context.platform.events, kinds::kCreationAbandonedCancelled,
      events::CreationAbandonedCancelled{records::to_string(row.key.kind), row.key.id,
                                         as_i64(record.object_generation), request->operation.op_id.hex(),
                                         aborted.ok() ? "applied" : to_string(aborted.error_kind())});
  return aborted.ok();
}

std::optional<ManagerResult<CreateReply>> CreationClient::reserve(Call& call) {
  Result<DescriptorList> list = read_descriptor_list(_context.store, _context.platform, _context.config, call.mesh);
  if (!list.ok()) {
    sleep_before_retry(call, _context.creation.store_retry_backoff_us);
    return std::nullopt;
  }
  PlacementRequest placement{call.spec.object_kind, call.spec.stable_type, call.excluded};
  Result<NodeView> target =
      choose_placement_target(_context.store, _context.platform, _context.config, list.value().nodes, placement);
  if (!target.ok()) {
    if (target.error_kind() == ErrorKind::kNoCandidate) {
      return ManagerResult<CreateReply>(error(ManagerErrorKind::kNotConfigured, "no node can take the object"));
    }
    sleep_before_retry(call, _context.creation.store_retry_backoff_us);
    return std::nullopt;
  }
  CreationRequestRecord request;
  request.operation = call.operation;
  request.source = messaging::WireHostRun{_context.lease.host_run().owner_id, _context.lease.host_run().lease_generation};
  request.mode = call.spec.mode;
  request.object_kind = call.spec.object_kind;
  request.id = call.spec.id;
  request.stable_type = call.spec.stable_type;
  request.args = call.spec.args;
  request.deadline_store_ms = call.deadline_store_ms;
  request.reservation_id = call.reservation_id;
  const std::string bytes = encode(request);
  if (bytes.size() > _context.creation.request_bytes_max) {
    return ManagerResult<CreateReply>(error(ManagerErrorKind::kInvalidArgument, "the creation request exceeds 1 MiB"));
  }
  records::PendingCreation pending{call.reservation_id, creation_request_reference(call.reservation_id),
                                   records::sha256_hex(bytes), bytes.size()};
  const ReserveRequest reserve_request{call.key, call.spec.object_kind, call.spec.stable_type, "", pending};
  Result<AuthoritySnapshot> reserved =
      _context.authority.reserve(reserve_request, target.value(), {store::Put{call.request_key, bytes}});
  if (reserved.ok()) {
    SPOTCHECK_ASSERT(reserved.value().record.allocation.state == records::AllocationState::kReserved);
    if (reserved.value().record.pending_creation.has_value() &&
        reserved.value().record.pending_creation->reservation_id == call.reservation_id) {
      call.mine = std::move(reserved).value();
    }
    return std::nullopt;
  }
  const Error& failed = reserved.error();
  switch (failed.kind) {
    case ErrorKind::kConflict:
      if (failed.cause == ConflictCause::kTargetChanged) {
        call.excluded.push_back(target.value().host_run());  // §7: its state changed; pick another candidate
      }
      if (failed.cause == ConflictCause::kTargetLeaseInvalid) {
        exclude_after_second_change(call, target.value().host_run());
      }
      return std::nullopt;  // already exists / contention: read again
    case ErrorKind::kCapacityFull:
    case ErrorKind::kInvalidArgument:
      call.excluded.push_back(target.value().host_run());
      return std::nullopt;
    case ErrorKind::kIndeterminate:
      return std::nullopt;  // the re-read decides: our reservation or not
    case ErrorKind::kStoreError:
      sleep_before_retry(call, _context.creation.store_retry_backoff_us);
      return std::nullopt;
    case ErrorKind::kAdmissionClosed:
    case ErrorKind::kGenerationExhausted:
    case ErrorKind::kRecordInvalid:
    case ErrorKind::kNoCandidate:
    case ErrorKind::kConfiguration:
      return ManagerResult<CreateReply>(from_location_error(failed));
  }
  return std::nullopt;
}

ManagerResult<CreateReply> CreationClient::exchange(Call& call, const AuthoritySnapshot& mine) {
  const records::AuthorityRecord& record = mine.record;
  const std::optional<std::uint64_t> target_rid =
      messaging::parse_routing_id_hex(record.allocation.descriptor.routing_id_hex);
  if (!target_rid.has_value()) {
    return error(ManagerErrorKind::kUnavailable, "the target's routing id does not parse");
  }
  messaging::Dispatcher::PendingCall pending = _context.dispatcher.open_call();
  messaging::CreateCommand command;
  command.request = pending.request();
  command.op_id = call.operation.op_id;
  command.source_rid_hex = _context.rid_hex;
  command.source = messaging::WireHostRun{_context.lease.host_run().owner_id, _context.lease.host_run().lease_generation};
  command.target = messaging::WireHostRun{record.owner_id, record.owner_lease_generation};
  command.object_kind = call.spec.object_kind;
  command.id = call.spec.id;
  command.stable_type = call.spec.stable_type;
  command.object_generation = record.object_generation;
  command.store_version = mine.version.value;
  command.reservation_id = call.reservation_id;
  command.deadline_store_ms = call.deadline_store_ms;

  for (std::uint32_t attempt = 0; attempt < _context.creation.attempts_max && time_left(call); ++attempt) {
    _context.dispatcher.send(*target_rid, messaging::Command{command});
    platform::emit_event(
        _context.platform.events, kinds::kCreationCommandSent,
        events::CreationCommandSent{command.op_id.hex(), as_i64(call.operation.source_lease_generation),
                                    static_cast<std::int64_t>(command.code()),
                                    record.allocation.descriptor.routing_id_hex, as_i64(command.request),
                                    attempt, command.id, as_i64(command.object_generation)});
    const TimeUs wait_until = std::min(_context.platform.clock.now_us() + _context.creation.resend_interval_us,
                                       call.spec.deadline_us - _context.creation.deadline_guard_us);
    std::optional<FinalResultReply> reply = pending.wait(wait_until);
    if (reply.has_value() && !(reply->op_id == command.op_id)) {
      reply.reset();  // another operation's reply (an earlier host run's request number): not ours
    }
    if (reply.has_value()) {
      platform::emit_event(_context.platform.events, kinds::kCreationReplyDelivered,
                           events::CreationReplyDelivered{
                               reply->op_id.hex(), as_i64(call.operation.source_lease_generation),
                               messaging::to_string(reply->outcome),
                               as_i64(reply->request), command.id, as_i64(command.object_generation)});
      pending.close();
      return on_reply(call, mine, *reply);
    }
    if (!time_left(call)) {
      break;
    }
    // No reply yet: re-read, never guess (§10). The stored final result first (unknown: the row decides).
    if (Result<std::optional<CreateReply>> stored = stored_result(call); stored.ok() && stored.value().has_value()) {
      platform::sometimes(_context.platform.events, platform::Mark::kCreationAnsweredFromStore);
      return std::move(*stored.value());
    }
    Result<AuthorityRead> read = _context.authority.read(call.key);
    if (!read.ok()) {
      continue;
    }
    const std::optional<AuthoritySnapshot>& current = read.value().current;
    const bool still_ours = current.has_value() &&
                            current->record.allocation.state == records::AllocationState::kReserved &&
                            current->record.object_generation == record.object_generation;
    if (still_ours) {
      continue;  // the target has not recorded a result: resend the same command to it
    }
    Result<std::optional<CreateReply>> stored = stored_result(call);
    if (!stored.ok()) {
      continue;  // unknown: never "cancelled" on a failed read
    }
    if (stored.value().has_value()) {
      return std::move(*stored.value());  // recorded between the two reads
    }
    if (current.has_value() && current->record.object_generation == record.object_generation) {
      continue;  // Ready but its result not visible yet: keep asking the same target
    }
    return error(ManagerErrorKind::kUnavailable, "the creation was cancelled");
  }
  return error(ManagerErrorKind::kDeadlineExceeded, "no final result before the deadline");
}

ManagerResult<CreateReply> CreationClient::on_reply(Call& call, const AuthoritySnapshot& mine,
                                                    const FinalResultReply& reply) {
  if (reply.op_id != call.operation.op_id) {
    return error(ManagerErrorKind::kUnavailable, "the reply names another operation");
  }
  CreateReply out;
  out.outcome = reply.outcome;
  out.app_reply = reply.app_reply;
  out.message = reply.message;
  switch (reply.outcome) {
    case ReplyOutcome::kCreated:
    case ReplyOutcome::kExisting:
      if (!reply.ref.has_value() || reply.ref->id != call.spec.id ||
          reply.ref->object_generation != mine.record.object_generation) {
        return error(ManagerErrorKind::kUnavailable, "the reply's ref is not the reserved object");
      }
      out.ref = ref_of(*reply.ref);
      return out;
    case ReplyOutcome::kRejected:
    case ReplyOutcome::kFailed:
      return out;
    case ReplyOutcome::kCancelled:
      // Not judged as a failure alone (§7): a result stored meanwhile (e.g. by the target's
      // previous host run before it restarted) answers; else our reservation is cancelled.
      if (Result<std::optional<CreateReply>> stored = stored_result(call); stored.ok() && stored.value().has_value()) {
        return std::move(*stored.value());
      }
      cancel_own(mine, call.request_key);  // conditioned on our Reserved row: harmless if a result was stored
      return error(ManagerErrorKind::kUnavailable, "the target cancelled the creation: " + reply.message);
    case ReplyOutcome::kClosed:
    case ReplyOutcome::kNotFound:
    case ReplyOutcome::kStaleGeneration:
    case ReplyOutcome::kMoving:
      break;
  }
  return error(ManagerErrorKind::kUnavailable, "the reply is not a creation result");
}

void CreationClient::cancel_own(const AuthoritySnapshot& mine, const store::Key& request_key) {
  // The target ran no factory and stored nothing. Our reservation, if still as we left it, is
  // cancelled with its space (Abort conditioned on its StoreVersion).
  Result<AuthorityRead> read = _context.authority.read(mine.key);
  if (!read.ok() || !read.value().current.has_value()) {
    return;
  }
  const AuthoritySnapshot& current = *read.value().current;
  if (current.record.allocation.state != records::AllocationState::kReserved ||
      current.record.object_generation != mine.record.object_generation) {
    return;
  }
  (void)_context.authority.abort(current, {store::Delete{request_key}});
}

}  // namespace spotcheck::location::creation
