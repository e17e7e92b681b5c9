#include "impl/location/relocation/relocation_runtime.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/events/relocation_events.h"
#include "impl/location/relocation/relocation_payload.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::relocation {

using messaging::RelocationCommand;
using messaging::RelocationStep;
using platform::as_i64;
using platform::TimeUs;

const char* to_string(MoveOutcome outcome) {
  switch (outcome) {
    case MoveOutcome::kRejected:
      return "rejected";
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

RelocationRuntime::RelocationRuntime(const LocationConfig& config, platform::Platform& platform,
                                     store::LocationStore& store, OwnerLease& lease, AuthorityOps& authority,
                                     messaging::Dispatcher& dispatcher, objects::ObjectHost& objects,
                                     std::string rid_hex, std::string mesh_name,
                                     std::vector<records::ObjectCapability> capabilities, RelocationLimits limits)
    : _config(config),
      _platform(platform),
      _store(store),
      _lease(lease),
      _authority(authority),
      _dispatcher(dispatcher),
      _objects(objects),
      _rid_hex(std::move(rid_hex)),
      _mesh_name(std::move(mesh_name)),
      _capabilities(std::move(capabilities)),
      _limits(limits),
      _follow(messaging::parse_routing_id_hex(_rid_hex).value_or(0), limits.message_follow_us) {
  SPOTCHECK_ASSERT(messaging::parse_routing_id_hex(_rid_hex).has_value());
  SPOTCHECK_ASSERT(_limits.chunk_bytes > 0 && _limits.restore_timeout_us > 0);
}

namespace {

const records::ObjectCapability* capability_in(const std::vector<records::ObjectCapability>& capabilities,
                                               records::AuthorityKind kind, const std::string& stable_type) {
  for (const records::ObjectCapability& capability : capabilities) {
    if (records::authority_kind(capability.object_kind) == kind && capability.stable_type == stable_type) {
      return &capability;
    }
  }
  return nullptr;
}

}  // namespace

bool relocates(records::CapabilityPolicy policy) {
  return policy == records::CapabilityPolicy::kRecreate || policy == records::CapabilityPolicy::kSnapshot;
}

records::CapabilityPolicy RelocationRuntime::policy_of(records::AuthorityKind kind, const std::string& stable_type) const {
  const records::ObjectCapability* own = capability_in(_capabilities, kind, stable_type);
  return own == nullptr ? records::CapabilityPolicy::kDisabled : own->policy;
}

std::string RelocationRuntime::refusal(const AuthoritySnapshot& active, const NodeView& target) const {
  const std::string& stable_type = active.record.allocation.stable_type;
  const records::CapabilityPolicy policy = policy_of(active.key.kind, stable_type);
  if (!relocates(policy)) {
    return "relocation_disabled";
  }
  const records::ObjectCapability* theirs =
      capability_in(target.descriptor.object_capabilities, active.key.kind, stable_type);
  if (theirs == nullptr || theirs->policy != policy) {
    return "target_unsupported";
  }
  if (policy == records::CapabilityPolicy::kSnapshot && !theirs->has_snapshot_adapter) {
    return "no_snapshot_adapter";
  }
  return "";
}

bool RelocationRuntime::busy(const objects::ObjectKey& key, std::uint64_t owner_generation) const {
  const std::string object = object_text(key.kind, key.id);
  return _moving.count(object) != 0 || _target_of_object.count(object) != 0 ||
         _follow.moved_from(object, owner_generation, _platform.clock.now_us());
}

void RelocationRuntime::message_event(std::string_view kind, const messaging::ObjectMessage& message,
                                      std::string_view via, std::string_view to, std::string_view binding) {
  platform::emit_event(_platform.events, kind,
                       events::RelocationMessage{records::to_string(message.kind), message.id,
                                                 as_i64(message.object_generation), message.source.owner_id,
                                                 as_i64(message.source.lease_generation), as_i64(message.stream),
                                                 as_i64(message.sequence), via, to, _lease.host_run().owner_id,
                                                 binding});
}

void RelocationRuntime::moved(const messaging::ObjectMessage& message, std::string_view via, platform::RoutingId to,
                              std::string_view binding) {
  message_event(kinds::kRelocationMessageMoved, message, via, messaging::routing_id_hex(to), binding);
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

}  // namespace spotcheck::location::relocation
