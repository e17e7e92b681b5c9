#include "impl/location/creation/creation_target.h"

#include <algorithm>
#include <exception>
#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/events/creation_events.h"
#include "impl/location/objects/object_host.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/creation/operation_key.h"
#include "impl/location/creation/result_store.h"
#include "impl/records/keys.h"

namespace spotcheck::location::creation {

using messaging::CreateCommand;
using messaging::FinalResultReply;
using platform::TimeUs;

namespace {

using platform::as_i64;

// Bounds of the target's own loops.
constexpr int kWriteAttemptsMax = 32;
constexpr int kRereadsMax = 3;

}  // namespace

// What verification established about the Creating row.
struct CreationTarget::Verified {
  AuthoritySnapshot row;
  CreationRequestRecord request;
  store::Key request_key;
  std::string request_sha256;
};

// What verification concluded: run the factory on `verified`, answer now with `answer` (a stored
// result or a cancellation), or neither: nothing is known yet and a resend tries again.
struct CreationTarget::Verification {
  std::optional<Verified> verified;
  std::optional<FinalResultReply> answer;

  bool retryable() const { return !verified.has_value() && !answer.has_value(); }
  static Verification answered(FinalResultReply reply) { return Verification{std::nullopt, std::move(reply)}; }
};

OperationKey operation_of(const CreateCommand& command) {
  return OperationKey{command.source_rid_hex, command.source.lease_generation, command.op_id};
}

FinalResultReply reply_from_stored(const FinalResultRecord& stored, std::uint64_t request) {
  FinalResultReply reply;
  reply.request = request;
  reply.op_id = stored.operation.op_id;
  reply.outcome = stored.outcome;
  reply.ref = stored.ref;
  reply.stable_type = stored.stable_type;
  reply.message = stored.message;
  reply.app_reply = stored.app_reply;
  return reply;
}

CreationTarget::CreationTarget(NodeContext context, const FactoryRegistry& factories)
    : _context(std::move(context)), _factories(factories), _ops(_context.creation.remembered_operations_max) {
  SPOTCHECK_ASSERT(_context.creation.remembered_operations_max > 0);
}

TimeUs CreationTarget::store_deadline_us() const {
  return _context.platform.clock.now_us() + _context.config.store_request_timeout_us;
}

TimeUs CreationTarget::local_deadline_us(std::int64_t deadline_store_ms) const {
  // The lease's store-time estimate is never behind the store clock, so this local deadline is
  // never later than the real one.
  const std::int64_t left_ms = deadline_store_ms - _context.lease.estimated_store_now_ms();
  return _context.platform.clock.now_us() + left_ms * platform::kMicrosPerMilli;
}

void CreationTarget::handle(platform::RoutingId from, CreateCommand command) {
  const OperationKey operation = operation_of(command);
  const std::string op_key = operation.preimage();
  platform::emit_event(
      _context.platform.events, kinds::kCreationCommandReceived,
      events::CreationCommandReceived{command.op_id.hex(), static_cast<std::int64_t>(command.code()),
                                      messaging::routing_id_hex(from), as_i64(command.request), command.id,
                                      as_i64(command.object_generation)});
  const bool planted = SPOTCHECK_PLANTED(_context.creation.planted_bugs, kFactoryBeforeVerify);
  Remembered* known = _ops.find(op_key);
  if (known != nullptr && !planted) {
    switch (known->state) {
      case OpState::kRunning:
        return;  // the running task answers
      case OpState::kAnswered: {
        if (known->reply->outcome == messaging::ReplyOutcome::kCancelled &&
            known->object_generation != command.object_generation) {
          // A Framework failure stored no final result: the same request may try again, and this
          // command is that new attempt (another Reserve, another generation), not a resend of the
          // cancelled one. (message-storm seed 1476: a GetOrCreate retried with its own
          // OperationId was answered the first attempt's 'cancelled' for good.)
          break;
        }
        FinalResultReply again = *known->reply;
        again.request = command.request;  // freshly built for this command's correlation
        reply(from, std::move(again), true);
        return;
      }
      case OpState::kUnsettled:
        known->state = OpState::kRunning;
        _context.platform.tasks.spawn("creation-reread", [this, from, command, op_key] {
          resend_stored(from, command, op_key);
        });
        return;
      case OpState::kRetryable:
        break;
    }
  }
  _ops.remember(op_key, remembered(OpState::kRunning, std::nullopt, command));
  _context.platform.tasks.spawn("creation-target", [this, from, command, op_key] { run(from, command, op_key); });
}

// What the target remembers of one operation: its state and answer, for the command's generation
// (a resend carries the same; a new attempt of the request, another).
CreationTarget::Remembered CreationTarget::remembered(OpState state, std::optional<FinalResultReply> reply,
                                                      const CreateCommand& command) {
  return Remembered{state, std::move(reply), operation_of(command), command.object_generation};
}

void CreationTarget::resend_stored(platform::RoutingId from, const CreateCommand& command, const std::string& op_key) {
  std::optional<FinalResultReply> stored = stored_reply(command);
  if (stored.has_value()) {
    _ops.remember(op_key, remembered(OpState::kAnswered, *stored, command));
    reply(from, std::move(*stored), true);
    return;
  }
  _ops.remember(op_key, remembered(OpState::kUnsettled, std::nullopt, command));
}

std::optional<FinalResultReply> CreationTarget::stored_reply(const CreateCommand& command) {
  for (int attempt = 0; attempt < kRereadsMax; ++attempt) {
    Result<std::optional<FinalResultRecord>> stored =
        read_final_result(_context.store, _context.platform, operation_of(command), store_deadline_us());
    if (!stored.ok()) {
      continue;
    }
    if (!stored.value().has_value()) {
      return std::nullopt;
    }
    return reply_from_stored(*stored.value(), command.request);
  }
  return std::nullopt;
}

FinalResultReply CreationTarget::cancel(const CreateCommand& command, const Verified* verified, std::string reason) {
  platform::emit_event(_context.platform.events, kinds::kCreationVerifyFailed,
                       events::CreationVerifyFailed{command.op_id.hex(), command.id,
                                                    as_i64(command.object_generation), reason});
  if (verified != nullptr && _context.lease.admission_open()) {
    // Framework failure before the callback: cancel the same Creating record and return its
    // space (§7 table). A conflict means it changed meanwhile; nothing else is touched.
    (void)_context.authority.abort(verified->row, {store::Delete{verified->request_key}});
  }
  FinalResultReply reply;
  reply.request = command.request;
  reply.op_id = command.op_id;
  reply.outcome = messaging::ReplyOutcome::kCancelled;
  reply.stable_type = command.stable_type;
  reply.message = std::move(reason);
  return reply;
}

// The command names this host run as its target, and came from the source it names.
std::optional<FinalResultReply> CreationTarget::verify_addressing(const CreateCommand& command,
                                                                  platform::RoutingId from) {
  if (!_context.lease.registered() ||
      !(messaging::WireHostRun{_context.lease.host_run().owner_id, _context.lease.host_run().lease_generation} ==
        command.target)) {
    if (std::optional<FinalResultReply> stored = stored_reply(command)) {
      return stored;  // recorded by the host run the command named: the same request's answer
    }
    return cancel(command, nullptr, "the command names another target host run");
  }
  if (messaging::routing_id_hex(from) != command.source_rid_hex) {
    return cancel(command, nullptr, "the command's source RID is not its sender");
  }
  return std::nullopt;
}

// The row is the Creating record the source secured for this operation, on this host run.
std::optional<FinalResultReply> CreationTarget::verify_row(const CreateCommand& command,
                                                           const AuthoritySnapshot& row) {
  const records::AuthorityRecord& record = row.record;
  if (record.allocation.state == records::AllocationState::kActive &&
      record.object_generation == command.object_generation) {
    if (std::optional<FinalResultReply> stored = stored_reply(command)) {
      return stored;  // created earlier
    }
    return cancel(command, nullptr, "the object is Ready without this operation's result");
  }
  const HostRun& self = _context.lease.host_run();
  const bool matches = record.allocation.state == records::AllocationState::kReserved &&
                       owned_by(record, self) &&
                       record.object_generation == command.object_generation &&
                       row.version.value == command.store_version &&
                       record.allocation.object_kind == command.object_kind &&
                       record.allocation.stable_type == command.stable_type &&
                       record.allocation.descriptor.routing_id_hex == _context.rid_hex &&
                       record.pending_creation.has_value() &&
                       record.pending_creation->reservation_id == command.reservation_id;
  if (!matches) {
    return cancel(command, nullptr, "the Creating record is not the one the source secured");
  }
  return std::nullopt;
}

// The creation request pendingCreation names is there, intact, and is this command's.
CreationTarget::Verification CreationTarget::verify_request(const CreateCommand& command,
                                                            const AuthoritySnapshot& row) {
  const records::PendingCreation& pending = *row.record.pending_creation;
  const store::Key request_key = key_of_request_reference(pending.request_content_reference);
  if (request_key.empty()) {
    return Verification::answered(cancel(command, nullptr, "pendingCreation names no creation request"));
  }
  const store::ReadResult request_read = _context.store.read(request_key, store_deadline_us());
  if (std::holds_alternative<store::StoreError>(request_read)) {
    return Verification{};  // nothing known: a resend tries again
  }
  const auto* found = std::get_if<store::Found>(&request_read);
  if (found == nullptr) {
    return Verification::answered(cancel(command, nullptr, "the creation request is missing"));
  }
  std::optional<CreationRequestRecord> request = decode_creation_request(found->value);
  const std::string sha = records::sha256_hex(found->value);
  Verified verified{row, CreationRequestRecord{}, request_key, sha};
  if (!request.has_value() || sha != pending.request_sha256 || found->value.size() != pending.request_encoded_size) {
    return Verification::answered(cancel(command, &verified, "the creation request does not match pendingCreation"));
  }
  if (!(request->operation == operation_of(command)) || !(request->source == command.source) ||
      request->id != command.id || request->reservation_id != command.reservation_id ||
      request->deadline_store_ms != command.deadline_store_ms) {
    return Verification::answered(
        cancel(command, &verified, "the creation request names another operation or source"));
  }
  verified.request = std::move(*request);
  return Verification{std::move(verified), std::nullopt};
}

CreationTarget::Verification CreationTarget::verify(const CreateCommand& command, platform::RoutingId from) {
  if (std::optional<FinalResultReply> answer = verify_addressing(command, from)) {
    return Verification::answered(std::move(*answer));
  }
  const AuthorityKey key{records::authority_kind(command.object_kind), command.id};
  Result<AuthorityRead> read = _context.authority.read(key);
  if (!read.ok()) {
    return Verification{};  // nothing known: a resend tries again
  }
  if (!read.value().current.has_value()) {
    if (std::optional<FinalResultReply> stored = stored_reply(command)) {
      return Verification::answered(std::move(*stored));  // rejected / failed earlier: row gone, result stored
    }
    return Verification::answered(cancel(command, nullptr, "no Creating record"));
  }
  const AuthoritySnapshot& row = *read.value().current;
  if (std::optional<FinalResultReply> answer = verify_row(command, row)) {
    return Verification::answered(std::move(*answer));
  }
  SPOTCHECK_ASSERT(row.record.pending_creation.has_value());  // verify_row checked it
  return verify_request(command, row);
}

CreationTarget::FactoryRun CreationTarget::run_factory(const CreateCommand& command, const std::string& args) {
  bool threw = false;
  std::string failure;
  const HostRun& self = _context.lease.host_run();
  platform::emit_event(
      _context.platform.events, kinds::kCreationFactoryRun,
      events::CreationFactoryRun{records::to_string(records::authority_kind(command.object_kind)), command.id,
                                 as_i64(command.object_generation), command.stable_type, _context.rid_hex,
                                 self.owner_id, as_i64(self.lease_generation), command.op_id.hex(),
                                 _context.platform.clock.now_us(), _context.lease.admission_deadline_us()});
  const Factory* factory = _factories.find(command.object_kind, command.stable_type);
  FactoryDecision decision;
  if (factory == nullptr) {
    threw = true;
    failure = "no factory registered for " + command.stable_type;
  } else {
    const FactoryContext context{command.object_kind, command.id, command.stable_type, command.object_generation,
                                 args, command.op_id};
    try {
      decision = (*factory)(context);
    } catch (const check::InvariantViolation&) {
      throw;  // a broken runtime invariant is not the application's Failed
    } catch (const std::exception& error) {  // an application exception: a typed Failed
      threw = true;
      failure = std::string("factory threw: ") + error.what();
    }
  }
  platform::emit_event(
      _context.platform.events, kinds::kCreationFactoryReturned,
      events::CreationFactoryReturned{command.op_id.hex(), command.id, as_i64(command.object_generation),
                                      threw ? "threw" : (decision.approved ? "approved" : "rejected")});
  return FactoryRun{decision, threw, std::move(failure)};
}

std::optional<FinalResultReply> CreationTarget::record_result(const CreateCommand& command, const Verified& verified,
                                                              const FinalResultRecord& result, bool commit) {
  const store::Key result_key = result.operation.result_key();
  const store::Bytes bytes = encode(result);
  SPOTCHECK_ASSERT(bytes.size() <= _context.creation.result_bytes_max);
  const Attached attached{store::Put{result_key, bytes}, store::Delete{verified.request_key}};
  const TimeUs deadline_us = local_deadline_us(command.deadline_store_ms);
  bool recorded = false;
  for (int attempt = 0; attempt < kWriteAttemptsMax; ++attempt) {
    std::optional<Error> error;
    if (commit) {
      Result<AuthoritySnapshot> done = _context.authority.commit(verified.row, attached);
      if (done.ok()) {
        recorded = true;
        break;
      }
      error = done.error();
    } else {
      Result<Done> done = _context.authority.abort(verified.row, attached);
      if (done.ok()) {
        recorded = true;
        break;
      }
      error = done.error();
    }
    const bool last = attempt + 1 == kWriteAttemptsMax;
    if (error->kind == ErrorKind::kStoreError && !last && _context.platform.clock.now_us() < deadline_us) {
      _context.platform.clock.sleep_for(_context.creation.store_retry_backoff_us);
      continue;  // refused: nothing changed; try again within the deadline
    }
    if (error->kind == ErrorKind::kIndeterminate) {
      return stored_reply(command);  // nullopt: unknown — never guessed, no reply
    }
    if (error->kind == ErrorKind::kConflict) {
      if (std::optional<FinalResultReply> stored = stored_reply(command)) {
        return stored;
      }
      return cancel(command, nullptr, "the Creating record changed before the result was recorded");
    }
    return cancel(command, error->kind == ErrorKind::kAdmissionClosed ? nullptr : &verified,
                  "recording the result failed: " + describe(*error));
  }
  // Only a write the store applied records the result: every attempt refused is not "recorded"
  // (each refused attempt ends in the cancel above once it is the last one).
  SPOTCHECK_ASSERT(recorded);
  platform::emit_event(
      _context.platform.events, kinds::kCreationResult,
      events::CreationResult{command.op_id.hex(), as_i64(command.source.lease_generation),
                             messaging::to_string(result.outcome),
                             records::to_string(records::authority_kind(command.object_kind)), command.id,
                             as_i64(command.object_generation), _context.lease.host_run().owner_id,
                             as_i64(_context.lease.host_run().lease_generation)});
  return reply_from_stored(result, command.request);
}

void CreationTarget::run(platform::RoutingId from, const CreateCommand& command, const std::string& op_key) {
  const bool planted = SPOTCHECK_PLANTED(_context.creation.planted_bugs, kFactoryBeforeVerify);
  std::optional<FactoryRun> early;
  if (planted) {
    early = run_factory(command, {});  // planted bug: before any check
  }
  Verification verification = verify(command, from);
  if (verification.retryable()) {
    _ops.remember(op_key, remembered(OpState::kRetryable, std::nullopt, command));
    return;
  }
  if (verification.answer.has_value()) {
    _ops.remember(op_key, remembered(OpState::kAnswered, *verification.answer, command));
    reply(from, std::move(*verification.answer), false);
    return;
  }
  SPOTCHECK_ASSERT(verification.verified.has_value());
  const Verified& verified = *verification.verified;
  if (Result<Done> admitted = _context.lease.admit("creation_factory"); !admitted.ok()) {
    FinalResultReply cancelled = cancel(command, nullptr, "admission closed");
    _ops.remember(op_key, remembered(OpState::kAnswered, cancelled, command));
    reply(from, std::move(cancelled), false);
    return;
  }
  if (_context.lease.estimated_store_now_ms() > command.deadline_store_ms) {
    FinalResultReply cancelled = cancel(command, &verified, "the request's deadline passed");
    _ops.remember(op_key, remembered(OpState::kAnswered, cancelled, command));
    reply(from, std::move(cancelled), false);
    return;
  }
  const FactoryRun factory_run = early.has_value() ? std::move(*early) : run_factory(command, verified.request.args);
  const FactoryDecision& decision = factory_run.decision;
  const bool threw = factory_run.threw;
  const std::string& failure = factory_run.failure;

  FinalResultRecord result;
  result.operation = operation_of(command);
  result.stable_type = command.stable_type;
  result.retain_until_ms = command.deadline_store_ms + _context.creation.result_retention_ms;
  result.request_sha256 = verified.request_sha256;
  const bool commit = !threw && decision.approved;
  if (commit) {
    result.outcome = messaging::ReplyOutcome::kCreated;
    result.ref = messaging::WireRef{records::authority_kind(command.object_kind), command.id,
                                    command.object_generation, _context.mesh_name, _context.rid_hex};
    result.app_reply = decision.reply;
  } else if (threw) {
    result.outcome = messaging::ReplyOutcome::kFailed;
    result.message = failure;
  } else {
    result.outcome = messaging::ReplyOutcome::kRejected;
    result.app_reply = decision.reply;
  }
  if (encode(result).size() > _context.creation.result_bytes_max) {
    result.app_reply.clear();  // a result over 1 MiB is never stored: the reply is dropped
    result.message = "the application reply exceeds the stored-result limit";
  }
  // The instance exists once the factory approved, dispatch closed; it opens once Ready is
  // recorded, and the instance goes if the result is not Created or stays unknown.
  const objects::HostedObject hosted{objects::ObjectKey{records::authority_kind(command.object_kind), command.id},
                                     command.object_generation, verified.row.record.authority_owner_generation,
                                     command.stable_type};
  if (commit && _context.objects != nullptr) {
    _context.objects->activate(hosted);
  }
  std::optional<FinalResultReply> answer = record_result(command, verified, result, commit);
  if (commit && _context.objects != nullptr) {
    if (answer.has_value() && answer->outcome == messaging::ReplyOutcome::kCreated) {
      _context.objects->open(hosted.key, hosted.object_generation);  // Ready is recorded
    } else {
      _context.objects->deactivate(hosted.key, hosted.object_generation);  // not Ready, or unknown
    }
  }
  if (!answer.has_value()) {
    _ops.remember(op_key, remembered(OpState::kUnsettled, std::nullopt, command));
    return;  // the outcome is unknown: the source re-reads the stored result
  }
  _ops.remember(op_key, remembered(OpState::kAnswered, *answer, command));
  reply(from, std::move(*answer), false);
}

void CreationTarget::reply(platform::RoutingId to, FinalResultReply reply, bool resent) {
  platform::emit_event(
      _context.platform.events, kinds::kCreationReplySent,
      events::CreationReplySent{reply.op_id.hex(), messaging::to_string(reply.outcome),
                                messaging::routing_id_hex(to), as_i64(reply.request), resent ? 1 : 0});
  _context.dispatcher.send(to, messaging::Command{std::move(reply)});
}

}  // namespace spotcheck::location::creation
