#include "impl/location/relocation/relocation_runtime.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/events/relocation_events.h"
#include "impl/location/relocation/relocation_payload.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::relocation {

using messaging::RelocationCommand;
using messaging::RelocationStep;
using platform::as_i64;
using platform::TimeUs;

namespace {

constexpr int kCasRoundsMax = 10'000;

}  // namespace

// ---- target ------------------------------------------------------------------------------------

void RelocationRuntime::on_restore(platform::RoutingId from, const RelocationCommand& command) {
  const std::optional<RestoreBinding> binding = binding_of(command);
  if (!binding.has_value() || command.id.empty() || command.object_generation == 0) {
    return;  // malformed: never joins anything
  }
  const std::string text = binding->text();
  if (command.chunk_count > UINT32_MAX || command.crc32c > UINT32_MAX) {
    reply(from, command, RelocationStep::kFailed, "restore_refused");  // out of range: nothing kept
    return;
  }
  if (_stopped) {
    reply(from, command, RelocationStep::kFailed, "shutting_down");  // §11: no new work
    return;
  }
  if (!relocates(policy_of(command.kind, command.stable_type))) {
    reply(from, command, RelocationStep::kFailed, "target_unsupported");  // §2: not a type it takes moved
    return;
  }
  const DeclareOutcome declared = _assemblies.declare(RestoreDeclaration{
      *binding, command.total_length, static_cast<std::uint32_t>(command.chunk_count),
      static_cast<std::uint32_t>(command.crc32c)});
  if (declared == DeclareOutcome::kReused || _targets.count(text) != 0) {
    return;  // a retransmitted Restore of the attempt in progress
  }
  if (declared != DeclareOutcome::kStarted) {
    reply(from, command, RelocationStep::kFailed, "restore_refused");
    return;
  }
  if (!_lease.admit("relocation target").ok()) {
    _assemblies.forget(*binding);
    reply(from, command, RelocationStep::kFailed, "not_admitted");
    return;
  }
  const std::int64_t left_ms = command.deadline_store_ms - _lease.estimated_store_now_ms();
  const TimeUs deadline_us = _platform.clock.now_us() + left_ms * platform::kMicrosPerMilli;
  // The temporary registration first (§1.3 step 5): work for the object is held from now on.
  auto move = std::make_shared<TargetMove>(*binding, deadline_us, _config.planted_bugs);
  move->restore = command;
  move->restore.bytes.clear();
  move->source = from;
  move->cutover = _platform.tasks.make_gate();
  _targets[text] = move;
  _target_of_object[object_text(command.kind, command.id)] = text;
  // A payload that never completes (a chunk lost on the way) ends with the Restore deadline.
  _platform.tasks.spawn("relocation-expiry", [this, text, move] {
    _platform.clock.sleep_until(move->handoff.restore_deadline_us());
    if (move->handoff.stage() != TargetStage::kAssembling) {
      return;  // restored (its CAS task ends it) or failed already
    }
    move->handoff.payload_failed();
    fail_target(*move, "restore_deadline");
    _assemblies.forget(move->handoff.binding());
    forget_target(text, *move);
  });
}

void RelocationRuntime::forget_target(const std::string& binding_text, const TargetMove& move) {
  auto it = _targets.find(binding_text);
  if (it == _targets.end() || it->second.get() != &move) {
    return;
  }
  auto object = _target_of_object.find(object_text(move.restore.kind, move.restore.id));
  if (object != _target_of_object.end() && object->second == binding_text) {
    _target_of_object.erase(object);
  }
  _targets.erase(it);
}

void RelocationRuntime::on_chunk(platform::RoutingId from, const RelocationCommand& command) {
  const std::optional<RestoreBinding> binding = binding_of(command);
  if (!binding.has_value() || command.index > UINT32_MAX) {
    return;
  }
  const ChunkOutcome added = _assemblies.add(RestoreChunk{*binding, static_cast<std::uint32_t>(command.index), command.bytes});
  TargetMove* move = target_move(command);
  if (move == nullptr || move->handoff.stage() != TargetStage::kAssembling) {
    return;  // discarded: no attempt of exactly this binding is assembling
  }
  if (added == ChunkOutcome::kFailed || _assemblies.failure(*binding).has_value()) {
    move->handoff.payload_failed();
    fail_target(*move, "payload");
    reply(from, move->restore, RelocationStep::kFailed, "payload");
    _assemblies.forget(*binding);
    forget_target(binding->text(), *move);
    return;
  }
  if (const std::optional<std::string_view> payload = _assemblies.verified(*binding)) {
    restored(binding->text(), *payload);
  }
}

// The payload verified: restored into an instance not yet exposed (the saved work kept for the
// real queue; the application's restore runs on its own task, §1.3 step 5), relay-ready goes out,
// and the same task waits for cutover or 1,000 ms before the CAS.
void RelocationRuntime::restored(const std::string& binding_text, std::string_view payload) {
  std::shared_ptr<TargetMove> move = _targets.at(binding_text);
  std::optional<RestorePayload> saved = decode_payload(payload);
  _assemblies.forget(move->handoff.binding());
  if (!saved.has_value()) {
    move->handoff.payload_failed();
    fail_target(*move, "payload");
    reply(move->source, move->restore, RelocationStep::kFailed, "payload");
    forget_target(binding_text, *move);
    return;
  }
  // §2: PreserveStateWith restores the state the source captured; RecreateOnRelocation a new
  // instance without application state. A payload of the other policy (the source read a
  // descriptor of this node's earlier host run) is an explicit failure before relay-ready: the
  // source keeps its object (§9.4).
  const bool preserving =
      policy_of(move->restore.kind, move->restore.stable_type) == records::CapabilityPolicy::kSnapshot;
  if (preserving != saved->state.has_value()) {
    move->handoff.payload_failed();
    fail_target(*move, "policy_mismatch");
    reply(move->source, move->restore, RelocationStep::kFailed, "policy_mismatch");
    forget_target(binding_text, *move);
    return;
  }
  move->timers = std::move(saved->timers);
  std::optional<std::string> state = std::move(saved->state);
  platform::sometimes(_platform.events, preserving ? platform::Mark::kRelocationStateRestored
                                                   : platform::Mark::kRelocationRecreated);
  _platform.tasks.spawn("relocation-target", [this, binding_text, move, saved = std::move(saved->work),
                                              state = std::move(state)]() mutable {
    const RelocationCommand& restore = move->restore;
    if (const objects::RestoreHook* hook = _objects.behaviors().find_restore(restore.kind, restore.stable_type)) {
      (*hook)(objects::ObjectKey{restore.kind, restore.id}, state);
    }
    if (move->handoff.stage() != TargetStage::kAssembling) {
      return;  // ended meanwhile (the Restore deadline passed during the restore)
    }
    const std::int64_t count = as_i64(saved.size());
    move->handoff.restored(_platform.clock.now_us(), std::move(saved));
    progress(kinds::kRelocationRelayReady, restore, _rid_hex, count, "");
    reply(move->source, restore, RelocationStep::kRelayReady, "");
    run_cas(binding_text);
  });
}

void RelocationRuntime::on_relay(const RelocationCommand& command) {
  std::optional<messaging::Command> message = messaging::decode(command.bytes);
  if (!message.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*message)) {
    return;
  }
  HandoffWork work{std::get<messaging::ObjectMessage>(*message).op_id.hex(), command.bytes};
  TargetMove* move = target_move(command);
  if (move != nullptr && move->handoff.relayed(work)) {
    return;  // the pre-cutover relay, for the real queue after the saved work
  }
  std::optional<objects::QueuedMessage> queued = queued_of(work);
  if (!queued.has_value()) {
    return;
  }
  // The attempt is over. One that opened dispatch here takes the relay (queued as it comes: after
  // an open on its own, without cutover, it is late relay). Any other — failed, or never an attempt
  // here (the row came to this host run some other way, e.g. a takeover after the source's lease
  // ended) — answers it unrun: its sender may look the object up again.
  const std::optional<RestoreBinding> binding = binding_of(command);
  const auto opened = binding.has_value() ? _opened.find(binding->text()) : _opened.end();
  if (opened == _opened.end()) {
    _objects.refuse_unrun(queued->from, queued->message);
    return;
  }
  if (opened->second.by_wait) {
    platform::sometimes(_platform.events, platform::Mark::kRelocationLateRelay);
    message_event(kinds::kRelocationMessageLate, queued->message, "relay", "", binding->text());
  }
  if (_objects.hosts(objects::ObjectKey{queued->message.kind, queued->message.id})) {
    _objects.handle_followed(queued->from, std::move(queued->message));
    return;
  }
  if (!follow(queued->message, "", 0)) {
    _objects.refuse_unrun(queued->from, queued->message);  // never run here: its sender may look again
  }
}

void RelocationRuntime::on_cutover(const RelocationCommand& command) {
  TargetMove* move = target_move(command);
  if (move == nullptr) {
    return;
  }
  move->handoff.cutover_received();
  move->cutover->open();
}

// The CAS task: after cutover or 1,000 ms, the target's own NewOwner of the row (§8), read and
// CASed again on an unknown or retryable result until the Restore deadline (§10).
void RelocationRuntime::run_cas(std::string binding_text) {
  std::shared_ptr<TargetMove> move = _targets.at(binding_text);
  TargetHandoff& handoff = move->handoff;
  for (int round = 0; round < kCasRoundsMax && !handoff.terminal(); ++round) {
    const TimeUs now = _platform.clock.now_us();
    if (!handoff.may_begin_cas(now)) {
      if (handoff.terminal()) {
        break;
      }
      const TimeUs wake = std::min(move->handoff.restore_deadline_us(), handoff.cutover_wait_ends_us());
      if (!move->cutover->wait_until(wake)) {
        continue;
      }
      if (!handoff.may_begin_cas(_platform.clock.now_us())) {
        continue;
      }
    }
    handoff.begin_cas(_platform.clock.now_us());
    const CasResult result = cas_once(*move);
    handoff.cas_result(result, _platform.clock.now_us());
    if (handoff.stage() == TargetStage::kOwner) {
      finish_target(binding_text);
      return;
    }
    if (!handoff.terminal()) {
      _platform.clock.sleep_for(_limits.cas_retry_us);
    }
  }
  fail_target(*move, handoff.failure().empty() ? "location_update_failed" : handoff.failure());
  forget_target(binding_text, *move);
}

CasResult RelocationRuntime::cas_once(TargetMove& move) {
  const RelocationCommand& restore = move.restore;
  const AuthorityKey key{restore.kind, restore.id};
  const HostRun& self = _lease.host_run();
  const Result<AuthorityRead> read = _authority.read(key, std::min(move.handoff.restore_deadline_us(), _platform.clock.now_us() +
                                                                                       _config.store_request_timeout_us));
  if (!read.ok()) {
    return CasResult::kRetryable;
  }
  const std::optional<AuthoritySnapshot>& row = read.value().current;
  if (!row.has_value() || row->record.object_generation != restore.object_generation) {
    return CasResult::kOtherOwner;
  }
  const records::AuthorityRecord& record = row->record;
  if (move.cas_sent && record.owner_id == self.owner_id && record.owner_lease_generation == self.lease_generation &&
      record.authority_owner_generation == restore.owner_generation + 1) {
    move.owner_generation = record.authority_owner_generation;
    return CasResult::kApplied;  // an earlier round of this attempt applied (§10: converges)
  }
  const bool source_owns = record.owner_id == restore.source.owner_id &&
                           record.owner_lease_generation == restore.source.lease_generation &&
                           record.authority_owner_generation == restore.owner_generation &&
                           record.allocation.state == records::AllocationState::kActive;
  if (!source_owns) {
    return CasResult::kOtherOwner;  // a different valid owner or generation: stale (§10)
  }
  if (move.first_read_version.has_value() && row->version.value != *move.first_read_version) {
    return CasResult::kOtherOwner;  // the row changed since the first read: the CAS's condition is gone
  }
  move.first_read_version = row->version.value;
  const Result<DescriptorList> list = read_descriptor_list(_store, _platform, _config, _mesh_name);
  if (!list.ok()) {
    return CasResult::kRetryable;
  }
  const NodeView* me = nullptr;
  for (const NodeView& node : list.value().nodes) {
    if (node.host_run() == self) {
      me = &node;
    }
  }
  if (me == nullptr) {
    return CasResult::kRetryable;
  }
  move.cas_sent = true;
  const Result<AuthoritySnapshot> moved = _authority.new_owner(*row, *me);
  if (moved.ok()) {
    move.owner_generation = moved.value().record.authority_owner_generation;
    return CasResult::kApplied;
  }
  return CasResult::kRetryable;  // the next round's read tells an unchanged row from another owner
}

// Owner: saved work, relay, temporary work enter the real queue in that order, the moved timers are
// armed, and dispatch opens.
void RelocationRuntime::finish_target(const std::string& binding_text) {
  std::shared_ptr<TargetMove> move = _targets.at(binding_text);
  std::vector<objects::QueuedMessage> queue;
  for (const HandoffWork& work : move->handoff.open_dispatch()) {
    if (std::optional<objects::QueuedMessage> queued = queued_of(work)) {
      queue.push_back(std::move(*queued));
    }
  }
  if (_stopped) {
    // Shutting down (§11): the row is ours but no instance opens; its work is answered unrun.
    for (const objects::QueuedMessage& queued : queue) {
      _objects.refuse_unrun(queued.from, queued.message);
    }
    progress(kinds::kRelocationFailed, move->restore, _rid_hex, 0, "shutting_down");
    forget_target(binding_text, *move);
    return;
  }
  const RelocationCommand& restore = move->restore;
  const TimeUs now = _platform.clock.now_us();
  const bool by_wait = !move->handoff.cutover() && now >= move->handoff.cutover_wait_ends_us();
  std::erase_if(_opened, [&](const auto& entry) { return entry.second.at_us + _limits.message_follow_us < now; });
  _opened[binding_text] = Opened{now, by_wait};
  if (by_wait) {
    platform::sometimes(_platform.events, platform::Mark::kRelocationCutoverWait);
  }
  progress(kinds::kRelocationReady, restore, _rid_hex, as_i64(queue.size()),
           move->handoff.cutover() ? "cutover" : by_wait ? "cutover_wait" : "early");
  std::vector<objects::MovedTimer> timers = std::move(move->timers);
  if (!timers.empty()) {
    platform::sometimes(_platform.events, platform::Mark::kRelocationTimersMoved);
  }
  if (SPOTCHECK_PLANTED(_config.planted_bugs, kMovedTimersDropped)) {
    timers.clear();  // planted bug: the queue is restored, the timers the payload carried are not
  }
  _objects.activate_moved(objects::HostedObject{objects::ObjectKey{restore.kind, restore.id}, restore.object_generation,
                                                move->owner_generation, restore.stable_type},
                          std::move(queue), std::move(timers));
  forget_target(binding_text, *move);
}

// The attempt failed (§10: location_update_failed, or another owner): nothing opens. The saved
// work goes silently (the source may run it again: it did not accept relay-ready, or it did and
// the spec lets the removed queue go); the relay and temporary work are answered unrun.
void RelocationRuntime::fail_target(TargetMove& move, std::string_view why) {
  progress(kinds::kRelocationFailed, move.restore, _rid_hex, 0, why);
  platform::sometimes(_platform.events, platform::Mark::kRelocationTargetFailed);
  for (const HandoffWork& work : move.handoff.take_saved()) {
    if (std::optional<objects::QueuedMessage> queued = queued_of(work)) {
      message_event(kinds::kRelocationWorkReturned, queued->message, "restore", "", move.handoff.binding().text());
    }
  }
  for (const HandoffWork& work : move.handoff.take_held()) {
    if (std::optional<objects::QueuedMessage> queued = queued_of(work)) {
      _objects.refuse_unrun(queued->from, queued->message);
    }
  }
}

}  // namespace spotcheck::location::relocation
