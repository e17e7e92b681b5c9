#include "impl/location/relocation/relocation_runtime.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "impl/check/check.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/events/relocation_events.h"
#include "impl/location/relocation/crc32c.h"
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
constexpr int kCasRoundsMax = 10'000;

std::string object_text(records::AuthorityKind kind, const std::string& id) {
  return std::string(records::to_string(kind)) + "/" + id;
}

// The payload: the saved work's commands 52, in queue order, as one JSON array of strings.
std::string encode_payload(const std::vector<objects::QueuedMessage>& saved) {
  nlohmann::json array = nlohmann::json::array();
  for (const objects::QueuedMessage& queued : saved) {
    array.push_back(messaging::encode(messaging::Command{queued.message}));
  }
  return array.dump();
}

std::optional<std::vector<HandoffWork>> decode_payload(std::string_view payload) {
  const nlohmann::json array = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (array.is_discarded() || !array.is_array()) {
    return std::nullopt;
  }
  std::vector<HandoffWork> work;
  for (const nlohmann::json& item : array) {
    if (!item.is_string()) {
      return std::nullopt;
    }
    std::string bytes = item.get<std::string>();
    const std::optional<messaging::Command> command = messaging::decode(bytes);
    if (!command.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*command)) {
      return std::nullopt;
    }
    work.push_back(HandoffWork{std::get<messaging::ObjectMessage>(*command).op_id.hex(), std::move(bytes)});
  }
  return work;
}

std::optional<objects::QueuedMessage> queued_of(const HandoffWork& work) {
  std::optional<messaging::Command> command = messaging::decode(work.bytes);
  if (!command.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*command)) {
    return std::nullopt;
  }
  auto message = std::get<messaging::ObjectMessage>(std::move(*command));
  const std::optional<std::uint64_t> reply_to = messaging::parse_routing_id_hex(message.source_rid_hex);
  if (!reply_to.has_value()) {
    return std::nullopt;
  }
  return objects::QueuedMessage{*reply_to, std::move(message)};
}

std::string join_routes(const std::vector<platform::RoutingId>& routes) {
  std::string text;
  for (const platform::RoutingId route : routes) {
    if (!text.empty()) {
      text += ',';
    }
    text += messaging::routing_id_hex(route);
  }
  return text;
}

std::optional<std::vector<platform::RoutingId>> split_routes(std::string_view text) {
  std::vector<platform::RoutingId> routes;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::optional<std::uint64_t> route = messaging::parse_routing_id_hex(text.substr(0, comma));
    if (!route.has_value() || routes.size() >= kFollowHopsMax) {
      return std::nullopt;
    }
    routes.push_back(*route);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return routes;
}

}  // namespace

const char* to_string(MoveOutcome outcome) {
  switch (outcome) {
    case MoveOutcome::kHandedOver:
      return "handed_over";
    case MoveOutcome::kCancelled:
      return "cancelled";
    case MoveOutcome::kNotAdmitted:
      return "not_admitted";
    case MoveOutcome::kNotHosted:
      return "not_hosted";
  }
  return "?";
}

// The source's wait for the target's answer to its Restore.
struct RelocationRuntime::SourceMove {
  std::unique_ptr<platform::Gate> answered;
  std::uint64_t attempt = 0;
  std::optional<RelocationStep> answer;  // kRelayReady or kFailed
  std::string why;
};

// One target attempt: its state machine, the Restore's header, and the cutover's wake-up.
struct RelocationRuntime::TargetMove {
  TargetMove(RestoreBinding binding, TimeUs deadline_us, planted::PlantedBugs planted)
      : handoff(std::move(binding), deadline_us, planted) {}
  TargetHandoff handoff;
  RelocationCommand restore;  // the header: the object, the source, the declared payload
  platform::RoutingId source = 0;
  std::unique_ptr<platform::Gate> cutover;
  TimeUs deadline_us = 0;
  std::optional<std::uint64_t> first_read_version;  // the row's StoreVersion the CAS is conditioned on
  std::uint64_t owner_generation = 0;                // once owner: the row's AuthorityOwnerGeneration
  bool cas_sent = false;                             // a round's NewOwner went to the store
};

RelocationRuntime::RelocationRuntime(const LocationConfig& config, platform::Platform& platform,
                                     store::LocationStore& store, OwnerLease& lease, AuthorityOps& authority,
                                     messaging::Dispatcher& dispatcher, objects::ObjectHost& objects,
                                     std::string rid_hex, std::string mesh_name, RelocationLimits limits)
    : _config(config),
      _platform(platform),
      _store(store),
      _lease(lease),
      _authority(authority),
      _dispatcher(dispatcher),
      _objects(objects),
      _rid_hex(std::move(rid_hex)),
      _mesh_name(std::move(mesh_name)),
      _limits(limits),
      _follow(messaging::parse_routing_id_hex(_rid_hex).value_or(0), limits.message_follow_us) {
  SPOTCHECK_ASSERT(messaging::parse_routing_id_hex(_rid_hex).has_value());
  SPOTCHECK_ASSERT(_limits.chunk_bytes > 0 && _limits.restore_timeout_us > 0);
}

bool RelocationRuntime::busy(const objects::ObjectKey& key, std::uint64_t owner_generation) const {
  const std::string object = object_text(key.kind, key.id);
  return _moving.count(object) != 0 || _target_of_object.count(object) != 0 ||
         _follow.moved_from(object, owner_generation, _platform.clock.now_us());
}

// ---- source ----------------------------------------------------------------------------------

MoveOutcome RelocationRuntime::move(const AuthoritySnapshot& active, const NodeView& target) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  const std::uint64_t generation = active.record.object_generation;
  const std::optional<std::uint64_t> to = messaging::parse_routing_id_hex(target.descriptor.routing_id_hex);
  SPOTCHECK_ASSERT(to.has_value());
  if (!_lease.admit("relocation").ok()) {
    return MoveOutcome::kNotAdmitted;  // §10: past the §5 time no relocation change starts
  }
  if (!_objects.begin_move(key, generation)) {
    return MoveOutcome::kNotHosted;
  }
  const std::string object = object_text(key.kind, key.id);
  _moving.insert(object);
  const HostRun& self = _lease.host_run();
  SourceHandoff handoff(RestoreBinding{RelocationId::random(_platform.random),
                                       TargetAttemptGeneration::random(_platform.random),
                                       SourceFence{self.owner_id, self.lease_generation,
                                                   active.record.authority_owner_generation}});
  const TimeUs deadline_us = _platform.clock.now_us() + _limits.restore_timeout_us;
  RelocationCommand about;
  about.kind = key.kind;
  about.id = key.id;
  about.object_generation = generation;
  about.owner_generation = active.record.authority_owner_generation;
  about.relocation = handoff.binding().relocation.hex();
  about.attempt = handoff.binding().attempt.value();
  about.source = messaging::WireHostRun{self.owner_id, self.lease_generation};
  progress(kinds::kRelocationStarted, about, target.descriptor.routing_id_hex, 0, "");
  // Capture after the current turn (§1.3 step 3).
  for (int i = 0; i < kCaptureWaitsMax && _objects.turn_running(key); ++i) {
    _platform.clock.sleep_for(_limits.capture_poll_us);
  }
  std::vector<objects::QueuedMessage> saved = _objects.take_queued(key, generation);
  if (saved.size() > _limits.saved_work_max) {
    MoveOutcome cancelled = cancel(handoff, active, std::move(saved), "saved_work_max");
    _moving.erase(object);
    return cancelled;
  }
  std::vector<HandoffWork> captured;
  for (const objects::QueuedMessage& queued : saved) {
    captured.push_back(HandoffWork{queued.message.op_id.hex(), {}});
  }
  handoff.captured(std::move(captured));
  progress(kinds::kRelocationCaptured, about, target.descriptor.routing_id_hex, as_i64(saved.size()), "");
  auto waiting = std::make_shared<SourceMove>();
  waiting->answered = _platform.tasks.make_gate();
  waiting->attempt = about.attempt;
  _sources[about.relocation] = waiting;
  send_payload(handoff, active, *to, saved, _lease.store_deadline_ms(deadline_us));
  handoff.restore_sent();
  waiting->answered->wait_until(deadline_us);
  _sources.erase(about.relocation);
  MoveOutcome outcome = MoveOutcome::kCancelled;
  if (waiting->answer == RelocationStep::kRelayReady) {
    outcome = hand_over(handoff, active, *to);
  } else if (waiting->answer == RelocationStep::kFailed) {
    outcome = cancel(handoff, active, std::move(saved), waiting->why);  // §9.4: the target is terminal
  } else if (SPOTCHECK_PLANTED(_config.planted_bugs, kSourceReopensUnfenced)) {
    // Planted bug: no answer taken as a cancellation, without the Preserve that fences the target.
    outcome = cancel(handoff, active, std::move(saved), "no_answer_unfenced");
  } else {
    outcome = settle_silent(handoff, active, *to, std::move(saved), deadline_us);
  }
  _moving.erase(object);
  return outcome;
}

void RelocationRuntime::send_payload(const SourceHandoff& handoff, const AuthoritySnapshot& active,
                                     platform::RoutingId to, const std::vector<objects::QueuedMessage>& saved,
                                     std::int64_t deadline_store_ms) {
  const std::string payload = encode_payload(saved);
  const std::size_t chunks = std::max<std::size_t>(1, (payload.size() + _limits.chunk_bytes - 1) / _limits.chunk_bytes);
  RelocationCommand restore;
  restore.step = RelocationStep::kRestore;
  restore.relocation = handoff.binding().relocation.hex();
  restore.attempt = handoff.binding().attempt.value();
  restore.source_rid_hex = _rid_hex;
  restore.source = messaging::WireHostRun{handoff.binding().fence.owner_id, handoff.binding().fence.lease_generation};
  restore.owner_generation = handoff.binding().fence.authority_owner_generation;
  restore.kind = active.key.kind;
  restore.id = active.key.id;
  restore.object_generation = active.record.object_generation;
  restore.stable_type = active.record.allocation.stable_type;
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
  RelocationCommand step;
  step.relocation = handoff.binding().relocation.hex();
  step.attempt = handoff.binding().attempt.value();
  step.source_rid_hex = _rid_hex;
  step.source = messaging::WireHostRun{handoff.binding().fence.owner_id, handoff.binding().fence.lease_generation};
  step.owner_generation = handoff.binding().fence.authority_owner_generation;
  step.kind = key.kind;
  step.id = key.id;
  step.object_generation = active.record.object_generation;
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
    _objects.cancel_move(key, active.record.object_generation, std::move(ingress));
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

// §9.4: the saved work, then the ingress hold, back in the queue in order; dispatch reopens.
MoveOutcome RelocationRuntime::cancel(SourceHandoff& handoff, const AuthoritySnapshot& active,
                                      std::vector<objects::QueuedMessage> saved, std::string_view why) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  static_cast<void>(handoff.cancel());
  std::vector<objects::QueuedMessage> ingress = _objects.take_queued(key, active.record.object_generation);
  for (objects::QueuedMessage& queued : ingress) {
    saved.push_back(std::move(queued));
  }
  RelocationCommand about;
  about.kind = key.kind;
  about.id = key.id;
  about.object_generation = active.record.object_generation;
  about.owner_generation = active.record.authority_owner_generation;
  about.relocation = handoff.binding().relocation.hex();
  about.attempt = handoff.binding().attempt.value();
  about.source = messaging::WireHostRun{handoff.binding().fence.owner_id, handoff.binding().fence.lease_generation};
  progress(kinds::kRelocationCancelled, about, "", as_i64(saved.size()), why);
  platform::sometimes(_platform.events, platform::Mark::kRelocationCancelled);
  _objects.cancel_move(key, active.record.object_generation, std::move(saved));
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
                                             platform::RoutingId to, std::vector<objects::QueuedMessage> saved,
                                             TimeUs deadline_us) {
  const objects::ObjectKey key{active.key.kind, active.key.id};
  for (int round = 0; round < kSettleRoundsMax; ++round) {
    const Result<AuthoritySnapshot> fenced = _authority.preserve(active, active.record.payload);
    if (fenced.ok()) {
      return cancel(handoff, active, std::move(saved), "no_answer");
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
    }
    _platform.clock.sleep_for(std::max<TimeUs>(_limits.cas_retry_us, deadline_us - _platform.clock.now_us()));
  }
  static_cast<void>(handoff.relay_ready_accepted());  // never reopens: what it held is settled below
  for (const objects::QueuedMessage& queued : _objects.take_queued(key, active.record.object_generation)) {
    _objects.refuse_unrun(queued.from, queued.message);
  }
  _objects.end_move(key, active.record.object_generation);
  RelocationCommand about;
  about.kind = key.kind;
  about.id = key.id;
  about.object_generation = active.record.object_generation;
  about.owner_generation = active.record.authority_owner_generation;
  about.relocation = handoff.binding().relocation.hex();
  about.attempt = handoff.binding().attempt.value();
  about.source = messaging::WireHostRun{handoff.binding().fence.owner_id, handoff.binding().fence.lease_generation};
  progress(kinds::kRelocationHandedOver, about, messaging::routing_id_hex(to), as_i64(saved.size()), "unsettled");
  return MoveOutcome::kHandedOver;
}

void RelocationRuntime::moved(const messaging::ObjectMessage& message, std::string_view via, platform::RoutingId to,
                              std::string_view binding) {
  const HostRun& self = _lease.host_run();
  platform::emit_event(_platform.events, kinds::kRelocationMessageMoved,
                       events::RelocationMessage{records::to_string(message.kind), message.id,
                                                 as_i64(message.object_generation), message.source.owner_id,
                                                 as_i64(message.source.lease_generation), as_i64(message.stream),
                                                 as_i64(message.sequence), via, messaging::routing_id_hex(to),
                                                 self.owner_id, binding});
}

// ---- both sides --------------------------------------------------------------------------------

void RelocationRuntime::handle(platform::RoutingId from, RelocationCommand command) {
  switch (command.step) {
    case RelocationStep::kRestore:
      on_restore(from, command);
      return;
    case RelocationStep::kChunk:
      on_chunk(from, command);
      return;
    case RelocationStep::kRelay:
      on_relay(command);
      return;
    case RelocationStep::kCutover:
      on_cutover(command);
      return;
    case RelocationStep::kFollow:
      on_follow(from, command);
      return;
    case RelocationStep::kRelayReady:
    case RelocationStep::kFailed: {
      auto it = _sources.find(command.relocation);
      if (it == _sources.end() || it->second->attempt != command.attempt || it->second->answer.has_value()) {
        return;  // a late or foreign answer: the move it was for is settled
      }
      it->second->answer = command.step;
      it->second->why = command.bytes;
      it->second->answered->open();
      return;
    }
  }
}

std::optional<RestoreBinding> RelocationRuntime::binding_of(const RelocationCommand& command) {
  const std::optional<RelocationId> relocation = RelocationId::parse(command.relocation);
  if (!relocation.has_value() || relocation->empty() || command.attempt == 0 || command.source.owner_id.empty() ||
      command.owner_generation == 0) {
    return std::nullopt;
  }
  return RestoreBinding{*relocation, TargetAttemptGeneration::of(command.attempt),
                        SourceFence{command.source.owner_id, command.source.lease_generation, command.owner_generation}};
}

RelocationRuntime::TargetMove* RelocationRuntime::target_move(const RelocationCommand& command) {
  const std::optional<RestoreBinding> binding = binding_of(command);
  if (!binding.has_value()) {
    return nullptr;
  }
  auto it = _targets.find(binding->text());
  return it == _targets.end() ? nullptr : it->second.get();
}

// ---- target ------------------------------------------------------------------------------------

void RelocationRuntime::on_restore(platform::RoutingId from, const RelocationCommand& command) {
  const std::optional<RestoreBinding> binding = binding_of(command);
  if (!binding.has_value() || command.id.empty() || command.object_generation == 0) {
    return;  // malformed: never joins anything
  }
  const std::string text = binding->text();
  const DeclareOutcome declared = _assemblies.declare(RestoreDeclaration{
      *binding, command.total_length, static_cast<std::uint32_t>(std::min<std::uint64_t>(command.chunk_count, UINT32_MAX)),
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
  move->deadline_us = deadline_us;
  _targets[text] = move;
  _target_of_object[object_text(command.kind, command.id)] = text;
  // A payload that never completes (a chunk lost on the way) ends with the Restore deadline.
  _platform.tasks.spawn("relocation-expiry", [this, text, move] {
    _platform.clock.sleep_until(move->deadline_us);
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
  std::optional<std::vector<HandoffWork>> saved = decode_payload(payload);
  _assemblies.forget(move->handoff.binding());
  if (!saved.has_value()) {
    move->handoff.payload_failed();
    fail_target(*move, "payload");
    reply(move->source, move->restore, RelocationStep::kFailed, "payload");
    forget_target(binding_text, *move);
    return;
  }
  _platform.tasks.spawn("relocation-target", [this, binding_text, move, saved = std::move(*saved)]() mutable {
    const RelocationCommand& restore = move->restore;
    if (const objects::RestoreHook* hook = _objects.behaviors().find_restore(restore.kind, restore.stable_type)) {
      (*hook)(objects::ObjectKey{restore.kind, restore.id});
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
    const messaging::ObjectMessage& late = queued->message;
    platform::emit_event(_platform.events, kinds::kRelocationMessageLate,
                         events::RelocationMessage{records::to_string(late.kind), late.id, as_i64(late.object_generation),
                                                   late.source.owner_id, as_i64(late.source.lease_generation),
                                                   as_i64(late.stream), as_i64(late.sequence), "relay", "",
                                                   _lease.host_run().owner_id, binding->text()});
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
      const TimeUs wake = std::min(move->deadline_us, handoff.cutover_wait_ends_us());
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
  const Result<AuthorityRead> read = _authority.read(key, std::min(move.deadline_us, _platform.clock.now_us() +
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

// Owner: saved work, relay, temporary work enter the real queue in that order and dispatch opens.
void RelocationRuntime::finish_target(const std::string& binding_text) {
  std::shared_ptr<TargetMove> move = _targets.at(binding_text);
  std::vector<objects::QueuedMessage> queue;
  for (const HandoffWork& work : move->handoff.open_dispatch()) {
    if (std::optional<objects::QueuedMessage> queued = queued_of(work)) {
      queue.push_back(std::move(*queued));
    }
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
  _objects.activate_moved(objects::HostedObject{objects::ObjectKey{restore.kind, restore.id}, restore.object_generation,
                                                move->owner_generation, restore.stable_type},
                          std::move(queue));
  forget_target(binding_text, *move);
}

// The attempt failed (§10: location_update_failed, or another owner): nothing opens. The saved
// work goes silently (the source may run it again: it did not accept relay-ready, or it did and
// the spec lets the removed queue go); the relay and temporary work are answered unrun.
void RelocationRuntime::fail_target(TargetMove& move, std::string_view why) {
  progress(kinds::kRelocationFailed, move.restore, _rid_hex, 0, why);
  platform::sometimes(_platform.events, platform::Mark::kRelocationTargetFailed);
  const HostRun& self = _lease.host_run();
  for (const HandoffWork& work : move.handoff.take_saved()) {
    if (std::optional<objects::QueuedMessage> queued = queued_of(work)) {
      const messaging::ObjectMessage& message = queued->message;
      platform::emit_event(_platform.events, kinds::kRelocationWorkReturned,
                           events::RelocationMessage{records::to_string(message.kind), message.id,
                                                     as_i64(message.object_generation), message.source.owner_id,
                                                     as_i64(message.source.lease_generation), as_i64(message.stream),
                                                     as_i64(message.sequence), "restore", "", self.owner_id,
                                                     move.handoff.binding().text()});
    }
  }
  for (const HandoffWork& work : move.handoff.take_held()) {
    if (std::optional<objects::QueuedMessage> queued = queued_of(work)) {
      _objects.refuse_unrun(queued->from, queued->message);
    }
  }
}

void RelocationRuntime::reply(platform::RoutingId to, const RelocationCommand& about, RelocationStep step,
                              std::string why) {
  RelocationCommand answer = about;
  answer.step = step;
  answer.bytes = std::move(why);
  answer.source_rid_hex = _rid_hex;
  _dispatcher.send(to, messaging::Command{answer});
}

void RelocationRuntime::progress(std::string_view kind, const RelocationCommand& about, std::string_view target,
                                 std::int64_t count, std::string_view why) {
  const std::optional<RestoreBinding> binding = binding_of(about);
  const std::string text = binding.has_value() ? binding->text() : std::string();
  platform::emit_event(_platform.events, kind,
                       events::RelocationProgress{records::to_string(about.kind), about.id,
                                                  as_i64(about.object_generation), as_i64(about.owner_generation),
                                                  text, about.source.owner_id, target, _lease.host_run().owner_id,
                                                  count, why});
}

// ---- Message Follow (§7.3) --------------------------------------------------------------------

bool RelocationRuntime::follow(const messaging::ObjectMessage& message, const std::string& passed,
                               std::uint64_t last_owner_gen) {
  const std::optional<std::vector<platform::RoutingId>> routes = split_routes(passed);
  if (!routes.has_value()) {
    return false;
  }
  FollowedMessage followed{message.op_id.hex(), message.object_generation, message.payload, message.source_rid_hex,
                           *routes, last_owner_gen};
  FollowDecision decision =
      _follow.decide(object_text(message.kind, message.id), std::move(followed), _platform.clock.now_us());
  if (decision.outcome != FollowOutcome::kForward) {
    return false;  // answered as usual: not_here (the sender looks the object up again)
  }
  RelocationCommand forward;
  forward.step = RelocationStep::kFollow;
  forward.source_rid_hex = _rid_hex;
  forward.kind = message.kind;
  forward.id = message.id;
  forward.object_generation = message.object_generation;
  forward.owner_generation = decision.message.last_owner_generation;
  forward.passed = join_routes(decision.message.passed);
  forward.bytes = messaging::encode(messaging::Command{message});  // unchanged (§7.3)
  moved(message, "follow", decision.target, "");
  platform::sometimes(_platform.events, platform::Mark::kRelocationFollowed);
  _dispatcher.send(decision.target, messaging::Command{forward});
  return true;
}

void RelocationRuntime::on_follow(platform::RoutingId, const RelocationCommand& command) {
  std::optional<messaging::Command> decoded = messaging::decode(command.bytes);
  if (!decoded.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*decoded)) {
    return;
  }
  HandoffWork work{std::get<messaging::ObjectMessage>(*decoded).op_id.hex(), command.bytes};
  std::optional<objects::QueuedMessage> queued = queued_of(work);
  if (!queued.has_value()) {
    return;
  }
  auto pending = _target_of_object.find(object_text(queued->message.kind, queued->message.id));
  if (pending != _target_of_object.end()) {
    auto move = _targets.find(pending->second);
    if (move != _targets.end() && move->second->handoff.hold_temporary(work)) {
      return;  // the temporary queue (§9.2)
    }
  }
  if (_objects.hosts(objects::ObjectKey{queued->message.kind, queued->message.id})) {
    _objects.handle_followed(queued->from, std::move(queued->message));
    return;
  }
  if (follow(queued->message, command.passed, command.owner_generation)) {
    return;  // it moved on again
  }
  _objects.refuse_unrun(queued->from, queued->message);
}

}  // namespace spotcheck::location::relocation
