#include "impl/location/find/close.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/events/creation_events.h"
#include "impl/location/lease/ended_lease.h"
#include "impl/location/objects/hosted_removal.h"
#include "impl/location/objects/object_host.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"

namespace spotcheck::location::find {

using creation::ManagerError;
using creation::ManagerErrorKind;
using messaging::FinalResultReply;
using messaging::ReplyOutcome;
using platform::TimeUs;

namespace {

constexpr int kRereadsMax = 4;

using platform::as_i64;

std::string op_key_of(const messaging::CloseCommand& command) {
  return command.source_rid_hex + "/" + std::to_string(command.source.lease_generation) + "/" + command.op_id.hex();
}

// The owner's Delete of a row whose instance it may host (objects/hosted_removal.h).
Result<Done> remove_hosted(const creation::NodeContext& context, const AuthoritySnapshot& row) {
  return objects::remove_hosted(context.authority, context.objects, context.platform.events, row);
}

}  // namespace

// ---- source -------------------------------------------------------------------------------

CloseClient::CloseClient(creation::NodeContext context) : _context(std::move(context)) {}

ManagerResult<bool> CloseClient::close(const ObjectRef& ref, TimeUs deadline_us) {
  const creation::OperationId op = creation::OperationId::random(_context.platform.random);
  platform::emit_event(
      _context.platform.events, kinds::kCloseRequested,
      events::CloseRequested{op.hex(), records::to_string(ref.kind), ref.id, as_i64(ref.object_generation)});
  ManagerResult<bool> result = run(ref, deadline_us, op);
  platform::emit_event(_context.platform.events, kinds::kCloseFinished,
                       events::CloseFinished{op.hex(), ref.id,
                                             result.ok() ? (result.value() ? "closed" : "not_found")
                                                         : to_string(result.error_kind())});
  return result;
}

ManagerResult<bool> CloseClient::run(const ObjectRef& ref, TimeUs deadline_us, const creation::OperationId& op) {
  if (ref.object_generation == 0 || ref.id.empty()) {
    return ManagerError{ManagerErrorKind::kInvalidArgument, "not a ref"};
  }
  const AuthorityKey key{ref.kind, ref.id};
  for (std::uint32_t attempt = 0; attempt < _context.creation.attempts_max; ++attempt) {
    if (_context.platform.clock.now_us() + _context.creation.deadline_guard_us >= deadline_us) {
      break;
    }
    Result<AuthorityRead> read = _context.authority.read(key);
    if (!read.ok()) {
      _context.platform.clock.sleep_until(
          std::min(_context.platform.clock.now_us() + _context.creation.store_retry_backoff_us,
                   deadline_us - _context.creation.deadline_guard_us));
      continue;
    }
    const std::optional<AuthoritySnapshot>& current = read.value().current;
    switch (match_generation(current, ref)) {
      case GenerationMatch::kMissing:
        return false;
      case GenerationMatch::kStale:
        return ManagerError{ManagerErrorKind::kStaleGeneration, "another generation of '" + ref.id + "' exists"};
      case GenerationMatch::kMoving:
        return ManagerError{ManagerErrorKind::kMoving, "'" + ref.id + "' is moving"};
      case GenerationMatch::kCreating:
        return ManagerError{ManagerErrorKind::kInvalidOperation, "the ref's generation is not Ready"};
      case GenerationMatch::kMatch:
        break;
    }
    const HostRun& self = _context.lease.host_run();
    if (current->record.owner_id != self.owner_id || current->record.owner_lease_generation != self.lease_generation) {
      return exchange(*current, deadline_us, op);
    }
    Result<Done> removed = remove_hosted(_context, *current);
    if (removed.ok()) {
      return true;
    }
    if (removed.error_kind() == ErrorKind::kConflict) {
      continue;  // the row changed: classify it again
    }
    return creation::from_location_error(removed.error());
  }
  return ManagerError{ManagerErrorKind::kDeadlineExceeded, "the deadline passed"};
}

ManagerResult<bool> CloseClient::exchange(const AuthoritySnapshot& row, TimeUs deadline_us,
                                          const creation::OperationId& op) {
  const std::optional<std::uint64_t> target = messaging::parse_routing_id_hex(row.record.allocation.descriptor.routing_id_hex);
  if (!target.has_value()) {
    return ManagerError{ManagerErrorKind::kUnavailable, "the owner's routing id does not parse"};
  }
  messaging::Dispatcher::PendingCall pending = _context.dispatcher.open_call();
  messaging::CloseCommand command;
  command.request = pending.request();
  command.op_id = op;
  command.source_rid_hex = _context.rid_hex;
  command.source = messaging::WireHostRun{_context.lease.host_run().owner_id, _context.lease.host_run().lease_generation};
  command.target = messaging::WireHostRun{row.record.owner_id, row.record.owner_lease_generation};
  command.kind = row.key.kind;
  command.id = row.key.id;
  command.object_generation = row.record.object_generation;
  command.owner_generation = row.record.authority_owner_generation;
  command.store_version = row.version.value;
  command.deadline_store_ms = _context.lease.store_deadline_ms(deadline_us);
  for (std::uint32_t attempt = 0; attempt < _context.creation.attempts_max; ++attempt) {
    const TimeUs latest = deadline_us - _context.creation.deadline_guard_us;
    if (_context.platform.clock.now_us() >= latest) {
      break;
    }
    _context.dispatcher.send(*target, messaging::Command{command});
    std::optional<FinalResultReply> reply =
        pending.wait(std::min(_context.platform.clock.now_us() + _context.creation.resend_interval_us, latest));
    if (!reply.has_value() || !(reply->op_id == op)) {
      // No reply, or one that answers another operation (a reply to a request of an earlier host
      // run of this node carrying the same request number): resend the same command.
      continue;
    }
    platform::emit_event(_context.platform.events, kinds::kCloseReplyDelivered,
                         events::CloseReplyDelivered{reply->op_id.hex(), messaging::to_string(reply->outcome),
                                                     as_i64(reply->request)});
    switch (reply->outcome) {
      case ReplyOutcome::kClosed:
        return true;
      case ReplyOutcome::kNotFound:
        return false;
      case ReplyOutcome::kStaleGeneration:
        return ManagerError{ManagerErrorKind::kStaleGeneration, reply->message};
      case ReplyOutcome::kMoving:
        return ManagerError{ManagerErrorKind::kMoving, reply->message};
      default:
        return ManagerError{ManagerErrorKind::kUnavailable, "close not done: " + reply->message};
    }
  }
  return ManagerError{ManagerErrorKind::kDeadlineExceeded, "no command-20 reply before the deadline"};
}

// ---- target -------------------------------------------------------------------------------

CloseTarget::CloseTarget(creation::NodeContext context)
    : _context(std::move(context)), _ops(_context.creation.remembered_operations_max) {}

void CloseTarget::handle(platform::RoutingId from, messaging::CloseCommand command) {
  const std::string op_key = op_key_of(command);
  Remembered* known = _ops.find(op_key);
  if (known != nullptr) {
    switch (known->state) {
      case OpState::kRunning:
      case OpState::kUnsettled:
        return;  // answered by the running task, or never (the outcome is unknown)
      case OpState::kAnswered: {
        FinalResultReply again = *known->reply;
        again.request = command.request;
        reply(from, std::move(again));
        return;
      }
      case OpState::kRetryable:
        break;
    }
  }
  _ops.remember(op_key, Remembered{OpState::kRunning, std::nullopt});
  _context.platform.tasks.spawn("close-target", [this, from, command, op_key] { run(from, command, op_key); });
}

std::optional<CloseTarget::Decision> CloseTarget::verify_source(platform::RoutingId from,
                                                                const messaging::CloseCommand& command) {
  if (command.source_rid_hex != messaging::routing_id_hex(from)) {
    return Decision::answer(ReplyOutcome::kCancelled, "the command's source RID is not the node that sent it");
  }
  Result<LeaseEnd> source = read_lease_end(_context.store, _context.platform, _context.config,
                                           HostRun{command.source.owner_id, command.source.lease_generation});
  if (!source.ok()) {
    return Decision::retryable();  // nothing known: a resend tries again
  }
  if (source.value().ended) {
    return Decision::answer(ReplyOutcome::kCancelled, "the source host run's owner lease has ended");
  }
  return std::nullopt;
}

CloseTarget::Decision CloseTarget::decide(platform::RoutingId from, const messaging::CloseCommand& command) {
  const HostRun& self = _context.lease.host_run();
  if (!(messaging::WireHostRun{self.owner_id, self.lease_generation} == command.target)) {
    return Decision::answer(ReplyOutcome::kCancelled, "the command names another target host run");
  }
  if (_context.lease.estimated_store_now_ms() > command.deadline_store_ms) {
    // §7.2: the deadline must still hold; the source has given up on this call.
    return Decision::answer(ReplyOutcome::kCancelled, "the command's deadline passed");
  }
  if (std::optional<Decision> refused = verify_source(from, command)) {
    return *refused;
  }
  const ObjectRef ref{command.kind, command.id, command.object_generation, {}, {}};
  for (int attempt = 0; attempt < kRereadsMax; ++attempt) {
    Result<AuthorityRead> read = _context.authority.read(AuthorityKey{command.kind, command.id});
    if (!read.ok()) {
      return Decision::retryable();  // nothing known: a resend tries again
    }
    const std::optional<AuthoritySnapshot>& current = read.value().current;
    switch (match_generation(current, ref)) {
      case GenerationMatch::kMissing:
        return Decision::answer(ReplyOutcome::kNotFound);
      case GenerationMatch::kStale:
        return Decision::answer(ReplyOutcome::kStaleGeneration);
      case GenerationMatch::kMoving:
        return Decision::answer(ReplyOutcome::kMoving);
      case GenerationMatch::kCreating:
        return Decision::answer(ReplyOutcome::kCancelled, "the generation is not Ready");
      case GenerationMatch::kMatch:
        break;
    }
    if (current->record.owner_id != self.owner_id || current->record.owner_lease_generation != self.lease_generation ||
        current->record.authority_owner_generation != command.owner_generation) {
      return Decision::answer(ReplyOutcome::kMoving, "the owner changed");
    }
    if (current->version.value != command.store_version) {
      // §7.2: the current record must be the one the source read (same StoreVersion).
      return Decision::answer(ReplyOutcome::kCancelled, "the record changed since the source read it (StoreVersion " +
                                                            std::to_string(command.store_version) + " -> " +
                                                            std::to_string(current->version.value) + ")");
    }
    Result<Done> removed = remove_hosted(_context, *current);
    if (removed.ok()) {
      return Decision::answer(ReplyOutcome::kClosed);
    }
    if (removed.error_kind() == ErrorKind::kConflict) {
      continue;  // changed meanwhile: classify again
    }
    if (removed.error_kind() == ErrorKind::kIndeterminate) {
      return Decision::unknown();  // unknown: never guessed, no reply
    }
    return Decision::answer(ReplyOutcome::kCancelled, describe(removed.error()));
  }
  return Decision::answer(ReplyOutcome::kCancelled, "the row kept changing");
}

void CloseTarget::run(platform::RoutingId from, const messaging::CloseCommand& command, const std::string& op_key) {
  Decision decision = decide(from, command);
  if (!decision.outcome.has_value()) {
    _ops.remember(op_key, Remembered{decision.unsettled ? OpState::kUnsettled : OpState::kRetryable, std::nullopt});
    return;
  }
  const ReplyOutcome outcome = *decision.outcome;
  FinalResultReply answer;
  answer.request = command.request;
  answer.op_id = command.op_id;
  answer.outcome = outcome;
  answer.message = std::move(decision.message);
  platform::emit_event(
      _context.platform.events, kinds::kCloseResult,
      events::CloseResult{command.op_id.hex(), messaging::to_string(outcome),
                          records::to_string(command.kind), command.id, as_i64(command.object_generation)});
  _ops.remember(op_key, Remembered{OpState::kAnswered, answer});
  reply(from, std::move(answer));
}

void CloseTarget::reply(platform::RoutingId to, FinalResultReply reply) {
  _context.dispatcher.send(to, messaging::Command{std::move(reply)});
}

}  // namespace spotcheck::location::find
