#include "impl/location/relocation/relocation_runtime.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/events/relocation_events.h"
#include "impl/location/relocation/crc32c.h"
#include "impl/location/relocation/relocation_payload.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::relocation {

using messaging::RelocationCommand;
using messaging::RelocationStep;
using platform::as_i64;
using platform::TimeUs;

namespace {

constexpr int kCaptureWaitsMax = 100'000;
constexpr int kSettleRoundsMax = 200;

}  // namespace

// ---- source ----------------------------------------------------------------------------------

MoveOutcome RelocationRuntime::move(const AuthoritySnapshot& active, const NodeView& target) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  const std::optional<std::uint64_t> to = messaging::parse_routing_id_hex(target.descriptor.routing_id_hex);
  SPOTCHECK_ASSERT(to.has_value());
  if (const std::string why = refusal(active, target); !why.empty()) {
    // §2: DisableRelocation (or a target that does not take the type under the same policy) is
    // rejected before Capture: no ingress hold, no store access, nothing changes.
    progress(kinds::kRelocationRejected, about_object(active), target.descriptor.routing_id_hex, 0, why);
    platform::sometimes(_platform.events, platform::Mark::kRelocationRejected);
    return MoveOutcome::kRejected;
  }
  if (!_lease.admit("relocation").ok()) {
    return MoveOutcome::kNotAdmitted;  // §10: past the §5 time no relocation change starts
  }
  if (!_objects.begin_move(key, active.record.object_generation)) {
    return MoveOutcome::kNotHosted;
  }
  const std::string object = object_text(key.kind, key.id);
  _moving.insert(object);
  const HostRun& self = _lease.host_run();
  SourceHandoff handoff(RestoreBinding{RelocationId::random(_platform.random),
                                       TargetAttemptGeneration::random(_platform.random),
                                       SourceFence{self.owner_id, self.lease_generation,
                                                   active.record.authority_owner_generation}});
  const MoveOutcome outcome = hand_off(handoff, active, *to);
  _moving.erase(object);
  return outcome;
}

// The ingress hold is on: capture, Restore, then what the target's answer (or its silence) says.
MoveOutcome RelocationRuntime::hand_off(SourceHandoff& handoff, const AuthoritySnapshot& active,
                                        platform::RoutingId to) {
  const TimeUs deadline_us = _platform.clock.now_us() + _limits.restore_timeout_us;
  const RelocationCommand about = about_of(handoff, active);
  const std::string target = messaging::routing_id_hex(to);
  progress(kinds::kRelocationStarted, about, target, 0, "");
  Captured captured =
      capture(handoff, active, policy_of(active.key.kind, active.record.allocation.stable_type));
  if (captured.saved.size() > _limits.saved_work_max) {
    return cancel(handoff, active, std::move(captured), "saved_work_max");
  }
  progress(kinds::kRelocationCaptured, about, target, as_i64(captured.saved.size()), "");
  auto waiting = std::make_shared<SourceMove>();
  waiting->answered = _platform.tasks.make_gate();
  waiting->attempt = about.attempt;
  _sources[about.relocation] = waiting;
  send_payload(handoff, active, to, captured, _lease.store_deadline_ms(deadline_us));
  handoff.restore_sent();
  waiting->answered->wait_until(deadline_us);
  _sources.erase(about.relocation);
  if (waiting->answer == RelocationStep::kRelayReady) {
    return hand_over(handoff, active, to);
  }
  if (waiting->answer == RelocationStep::kFailed) {
    return cancel(handoff, active, std::move(captured), waiting->why);  // §9.4: the target is terminal
  }
  if (SPOTCHECK_PLANTED(_config.planted_bugs, kSourceReopensUnfenced)) {
    // Planted bug: no answer taken as a cancellation, without the Preserve that fences the target.
    return cancel(handoff, active, std::move(captured), "no_answer_unfenced");
  }
  return settle_silent(handoff, active, to, std::move(captured), deadline_us);
}

// After the current turn (§1.3 step 3): the queue is the saved work and the timers not yet run go
// with it — and under PreserveStateWith the application state —, kept in memory.
RelocationRuntime::Captured RelocationRuntime::capture(SourceHandoff& handoff, const AuthoritySnapshot& active,
                                                       records::CapabilityPolicy policy) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  for (int i = 0; i < kCaptureWaitsMax && _objects.turn_running(key); ++i) {
    _platform.clock.sleep_for(_limits.capture_poll_us);
  }
  std::vector<objects::QueuedMessage> saved = _objects.take_queued(key, active.record.object_generation);
  std::vector<HandoffWork> captured;
  for (const objects::QueuedMessage& queued : saved) {
    captured.push_back(HandoffWork{queued.message.op_id.hex(), {}});
  }
  handoff.captured(std::move(captured));
  std::optional<std::string> state;
  if (policy == records::CapabilityPolicy::kSnapshot) {
    const objects::StateCaptureHook* hook =
        _objects.behaviors().find_state_capture(key.kind, active.record.allocation.stable_type);
    state = hook != nullptr ? (*hook)(key) : std::string();
  }
  return Captured{std::move(saved), _objects.take_timers(key, active.record.object_generation), std::move(state)};
}

RelocationCommand RelocationRuntime::about_object(const AuthoritySnapshot& active) const {
  RelocationCommand about;
  about.source_rid_hex = _rid_hex;
  about.source = messaging::WireHostRun{_lease.host_run().owner_id, _lease.host_run().lease_generation};
  about.owner_generation = active.record.authority_owner_generation;
  about.kind = active.key.kind;
  about.id = active.key.id;
  about.object_generation = active.record.object_generation;
  about.stable_type = active.record.allocation.stable_type;
  return about;
}

RelocationCommand RelocationRuntime::about_of(const SourceHandoff& handoff, const AuthoritySnapshot& active) const {
  RelocationCommand about = about_object(active);
  const SourceFence& fence = handoff.binding().fence;
  // The move's fence is this host run at the row's AuthorityOwnerGeneration (move() made it so).
  SPOTCHECK_ASSERT(fence.owner_id == about.source.owner_id && fence.lease_generation == about.source.lease_generation &&
                   fence.authority_owner_generation == about.owner_generation);
  about.relocation = handoff.binding().relocation.hex();
  about.attempt = handoff.binding().attempt.value();
  return about;
}

void RelocationRuntime::send_payload(const SourceHandoff& handoff, const AuthoritySnapshot& active,
                                     platform::RoutingId to, const Captured& captured, std::int64_t deadline_store_ms) {
  const std::vector<objects::QueuedMessage>& saved = captured.saved;
  const std::string payload = encode_payload(saved, captured.timers, captured.state);
  const std::size_t chunks = std::max<std::size_t>(1, (payload.size() + _limits.chunk_bytes - 1) / _limits.chunk_bytes);
  RelocationCommand restore = about_of(handoff, active);
  restore.step = RelocationStep::kRestore;
  restore.total_length = payload.size();
  restore.chunk_count = chunks;
  restore.crc32c = crc32c(payload);
  restore.deadline_store_ms = deadline_store_ms;
  for (const objects::QueuedMessage& queued : saved) {
    moved(queued.message, "restore", to, handoff.binding().text());  // they ride on the Restore request
  }
  _dispatcher.send(to, messaging::Command{restore});
  RelocationCommand chunk = restore;
  chunk.step = RelocationStep::kChunk;
  for (std::size_t i = 0; i < chunks; ++i) {
    chunk.index = i;
    chunk.bytes = payload.substr(i * _limits.chunk_bytes, _limits.chunk_bytes);
    _dispatcher.send(to, messaging::Command{chunk});
  }
}

// Relay-ready accepted: the ingress hold relayed, then cutover, on the same ordered connection;
// the source never reopens after this (§9.4), whatever happens next.
MoveOutcome RelocationRuntime::hand_over(SourceHandoff& handoff, const AuthoritySnapshot& active,
                                         platform::RoutingId to) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  static_cast<void>(handoff.relay_ready_accepted());
  std::vector<objects::QueuedMessage> ingress = _objects.take_queued(key, active.record.object_generation);
  RelocationCommand step = about_of(handoff, active);
  // The cutover submit is a relocation step: refused past the §5 time (§10). Refused, the target
  // still CASes 1,000 ms after relay-ready; the source never reopens either way (§9.4).
  const bool submitted = _lease.admit("cutover").ok();
  if (!submitted) {
    platform::sometimes(_platform.events, platform::Mark::kRelocationCutoverRefused);
  }
  if (!submitted && SPOTCHECK_PLANTED(_config.planted_bugs, kSourceReopensUnfenced)) {
    // Planted bug: the failed submit taken as a cancellation — the source reopens its queue.
    progress(kinds::kRelocationCancelled, step, messaging::routing_id_hex(to), as_i64(ingress.size()),
             "cutover_submit_failed");
    _objects.cancel_move(key, active.record.object_generation, std::move(ingress), {});
    return MoveOutcome::kCancelled;
  }
  step.step = RelocationStep::kRelay;
  for (const objects::QueuedMessage& queued : ingress) {
    moved(queued.message, "relay", to, handoff.binding().text());
    step.bytes = messaging::encode(messaging::Command{queued.message});
    _dispatcher.send(to, messaging::Command{step});
  }
  if (submitted) {
    step.step = RelocationStep::kCutover;
    step.bytes.clear();
    _dispatcher.send(to, messaging::Command{step});
  }
  handoff.cutover_submitted(submitted);
  _objects.end_move(key, active.record.object_generation);
  _follow.record_move(object_text(key.kind, key.id),
                      FollowRecord{active.record.object_generation, active.record.authority_owner_generation,
                                   active.record.authority_owner_generation + 1, to, _platform.clock.now_us()});
  progress(kinds::kRelocationHandedOver, step, messaging::routing_id_hex(to), as_i64(ingress.size()), "");
  return MoveOutcome::kHandedOver;
}

// §9.4: the saved work, then the ingress hold, back in the queue in order, the timers re-armed;
// dispatch reopens.
MoveOutcome RelocationRuntime::cancel(SourceHandoff& handoff, const AuthoritySnapshot& active, Captured captured,
                                      std::string_view why) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  std::vector<objects::QueuedMessage> saved = std::move(captured.saved);
  static_cast<void>(handoff.cancel());
  std::vector<objects::QueuedMessage> ingress = _objects.take_queued(key, active.record.object_generation);
  for (objects::QueuedMessage& queued : ingress) {
    saved.push_back(std::move(queued));
  }
  progress(kinds::kRelocationCancelled, about_of(handoff, active), "", as_i64(saved.size()), why);
  platform::sometimes(_platform.events, platform::Mark::kRelocationCancelled);
  _objects.cancel_move(key, active.record.object_generation, std::move(saved), std::move(captured.timers));
  return MoveOutcome::kCancelled;
}

// No answer by the Restore deadline: a prepared target may still CAS. The source's own Preserve of
// the row fences every CAS of that attempt (each is conditioned on the StoreVersion the target
// first read); applied, the row is ours and the source reopens (§9.4's order). Refused, the row is
// read: the target's, the source hands over; anything else (the target owned it and moved it on,
// another host run took it over, it was removed), the saved work is not the source's to answer —
// the target may have run it — and goes silently; the ingress hold, which never left, is answered
// unrun.
MoveOutcome RelocationRuntime::settle_silent(SourceHandoff& handoff, const AuthoritySnapshot& active,
                                             platform::RoutingId to, Captured captured, TimeUs deadline_us) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  // The row as last read ours: a Preserve of any version of it later than the target's first read
  // fences the target's CAS just as well (an earlier round's Preserve may have applied unseen).
  AuthoritySnapshot current = active;
  for (int round = 0; round < kSettleRoundsMax; ++round) {
    const Result<AuthoritySnapshot> fenced = _authority.preserve(current, current.record.payload);
    if (fenced.ok()) {
      return cancel(handoff, active, std::move(captured), "no_answer");
    }
    const Result<AuthorityRead> read = _authority.read(active.key);
    if (read.ok()) {
      const std::optional<AuthoritySnapshot>& row = read.value().current;
      const bool targets = row.has_value() && row->record.object_generation == active.record.object_generation &&
                           row->record.authority_owner_generation == active.record.authority_owner_generation + 1 &&
                           row->record.allocation.descriptor.routing_id_hex == messaging::routing_id_hex(to);
      if (targets) {
        return hand_over(handoff, active, to);
      }
      const bool ours = row.has_value() && row->record.owner_id == active.record.owner_id &&
                        row->record.owner_lease_generation == active.record.owner_lease_generation &&
                        row->record.authority_owner_generation == active.record.authority_owner_generation &&
                        row->record.object_generation == active.record.object_generation;
      if (!ours) {
        break;
      }
      current = *row;
    }
    _platform.clock.sleep_for(std::max<TimeUs>(_limits.cas_retry_us, deadline_us - _platform.clock.now_us()));
  }
  static_cast<void>(handoff.relay_ready_accepted());  // never reopens: what it held is settled below
  for (const objects::QueuedMessage& queued : _objects.take_queued(key, active.record.object_generation)) {
    _objects.refuse_unrun(queued.from, queued.message);
  }
  _objects.end_move(key, active.record.object_generation);
  progress(kinds::kRelocationHandedOver, about_of(handoff, active), messaging::routing_id_hex(to),
           as_i64(captured.saved.size()), "unsettled");
  return MoveOutcome::kHandedOver;
}

}  // namespace spotcheck::location::relocation
