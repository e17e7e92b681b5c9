#include "impl/location/instance/instance_source.h"

#include <algorithm>
#include <span>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/creation/in_mesh.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/events/instance_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/instance/instance_type.h"
#include "impl/location/placement/placement.h"
#include "impl/records/authority_record.h"
#include "impl/records/keys.h"

namespace spotcheck::location::instance {


namespace {

TargetNode target_of(const NodeView& node) {
  return TargetNode{node.descriptor.routing_id_hex,
                    messaging::WireHostRun{node.descriptor.owner_id, node.descriptor.lease_generation}};
}

// Command 50 for one send of `request` to `target`, correlated by `correlation`.
messaging::InstanceSpotRequest command_of(const InstanceCall& call, const InstanceRequest& request,
                                          const TargetNode& target, std::uint64_t correlation) {
  messaging::InstanceSpotRequest command;
  command.request = correlation;
  command.op_id = request.op_id;
  command.stable_type = request.stable_type;
  command.mesh_name = request.mesh_name;
  command.target_rid_hex = target.rid_hex;
  command.target = target.host_run;
  command.spot_id = request.spot_id;
  command.source_rid_hex = request.source_rid_hex;
  command.source = request.source;
  command.source_spot_id = call.source_spot_id;
  command.deadline_store_ms = request.deadline_store_ms;
  command.command39 = call.command39;
  command.args = request.args;
  command.first_message = request.first_message;
  return command;
}

// The outcome an InMesh refusal (creation::choose_mesh) answers an Instance Spot request with.
InstanceOutcomeKind in_mesh_outcome(creation::ManagerErrorKind kind) {
  switch (kind) {
    case creation::ManagerErrorKind::kNotFound:
      return InstanceOutcomeKind::kNotFound;
    case creation::ManagerErrorKind::kInvalidOperation:
      return InstanceOutcomeKind::kInvalidOperation;
    default:
      return InstanceOutcomeKind::kNotConfigured;
  }
}

}  // namespace

InstanceSource::InstanceSource(const LocationConfig& config, platform::Platform& platform,
                               store::LocationStore& store, OwnerLease& lease, messaging::Dispatcher& dispatcher,
                               std::string mesh_name, std::string rid_hex, InstanceSourceConfig source_config)
    : _config(config),
      _platform(platform),
      _store(store),
      _lease(lease),
      _dispatcher(dispatcher),
      _mesh_name(std::move(mesh_name)),
      _rid_hex(std::move(rid_hex)),
      _source_config(source_config) {
  SPOTCHECK_ASSERT(_source_config.send_timeout_us > 0);
}

PreparedRequest InstanceSource::prepare(const InstanceCall& call) {
  PreparedRequest prepared;
  const std::span<const std::string> meshes = _source_config.object_meshes.has_value()
                                                  ? std::span<const std::string>(*_source_config.object_meshes)
                                                  : std::span<const std::string>(&_mesh_name, 1);
  std::variant<std::string, creation::ManagerError> chosen = creation::choose_mesh(call.in_mesh, meshes);
  if (const auto* refused = std::get_if<creation::ManagerError>(&chosen)) {
    prepared.outcome = InstanceOutcome{in_mesh_outcome(refused->kind), 0, {}, {}, refused->message};
    return prepared;
  }
  const std::string mesh_name = std::get<std::string>(std::move(chosen));
  Result<DescriptorList> list = read_descriptor_list(_store, _platform, _config, mesh_name);
  if (!list.ok()) {
    prepared.outcome = InstanceOutcome{InstanceOutcomeKind::kStoreError, 0, {}, {}, describe(list.error())};
    return prepared;
  }
  const TypeChoice type = choose_instance_type(call.stable_type, list.value().nodes);
  platform::emit_event(_platform.events, kinds::kInstanceTypeSelected,
                       events::InstanceTypeSelected{call.spot_id, call.stable_type.has_value() ? 1 : 0,
                                                    type.stable_type, to_string(type.error)});
  if (!type.ok()) {
    prepared.outcome = InstanceOutcome{type.error, 0, {}, {}, "Instance Spot type selection"};
    return prepared;
  }
  const PlacementRequest placement{records::ObjectKind::kInstanceSpot, type.stable_type, {}};
  Result<NodeView> target = choose_placement_target(_store, _platform, _config, list.value().nodes, placement);
  if (!target.ok()) {
    const bool none = target.error_kind() == ErrorKind::kNoCandidate;
    prepared.outcome = InstanceOutcome{none ? InstanceOutcomeKind::kNotConfigured : InstanceOutcomeKind::kStoreError,
                                       0, {}, type.stable_type, describe(target.error())};
    return prepared;
  }
  const std::int64_t left_ms = (call.deadline_us - _platform.clock.now_us()) / platform::kMicrosPerMilli;
  InstanceRequest& request = prepared.request;
  request.stable_type = type.stable_type;
  request.mesh_name = mesh_name;
  request.spot_id = call.spot_id;
  request.source_rid_hex = _rid_hex;
  request.source = messaging::WireHostRun{_lease.host_run().owner_id, _lease.host_run().lease_generation};
  request.op_id = messaging::OperationId::random(_platform.random);
  request.deadline_store_ms = _lease.estimated_store_now_ms() + left_ms;
  request.args = call.args;
  request.first_message = call.first_message;
  prepared.target = target_of(target.value());
  prepared.outcome = InstanceOutcome{InstanceOutcomeKind::kCreated, 0, prepared.target.rid_hex, type.stable_type, {}};
  return prepared;
}

TargetNode InstanceSource::placement_target(const std::string& mesh_name, const std::string& stable_type) {
  Result<DescriptorList> list = read_descriptor_list(_store, _platform, _config, mesh_name);
  if (!list.ok()) {
    return {};
  }
  const PlacementRequest placement{records::ObjectKind::kInstanceSpot, stable_type, {}};
  Result<NodeView> target = choose_placement_target(_store, _platform, _config, list.value().nodes, placement);
  return target.ok() ? target_of(target.value()) : TargetNode{};
}

InstanceSource::AuthorityAnswer InstanceSource::read_authority(const InstanceRequest& request,
                                                               platform::TimeUs deadline_us, std::string_view why) {
  const platform::TimeUs store_deadline_us =
      std::min(deadline_us, _platform.clock.now_us() + _config.store_request_timeout_us);
  const store::ReadResult read =
      _store.read(records::authority_preimage(records::AuthorityKind::kSpot, request.spot_id), store_deadline_us);
  AuthorityAnswer answer;
  if (std::holds_alternative<store::Missing>(read)) {
    answer.kind = AuthorityAnswer::Kind::kMissing;
  } else if (const auto* found = std::get_if<store::Found>(&read)) {
    const records::RecordResult<records::AuthorityRecord> record = records::decode_authority_record(found->value);
    if (record.ok()) {
      const bool ready = record.value().allocation.state == records::AllocationState::kActive;
      answer.kind = ready ? AuthorityAnswer::Kind::kReady : AuthorityAnswer::Kind::kCreating;
      answer.owner_rid_hex = record.value().allocation.descriptor.routing_id_hex;
      answer.object_generation = record.value().object_generation;
    }
  }
  constexpr std::string_view kNames[] = {"missing", "ready", "creating", "store_error"};  // AuthorityAnswer::Kind order
  static_assert(static_cast<int>(AuthorityAnswer::Kind::kError) == 3);
  platform::emit_event(
      _platform.events, kinds::kInstanceAuthorityRead,
      events::InstanceAuthorityRead{request.spot_id, request.op_id.hex(), why,
                                    kNames[static_cast<int>(answer.kind)], answer.owner_rid_hex});
  return answer;
}

#if SPOTCHECK_PLANTED_BUGS
// Framework 0.26's recoverStaleInstanceRoute, planted as 0.26 had it: on RequestTargetNotFound
// from an existing route (isInstanceRouteStaleError: "a pre-admission route lookup failure") it
// re-resolves the Spot until the route changes — Missing: the cold path with the same operation;
// another route: resubmit there; the same route: wait min(10 ms, time left) and resolve again.
// But a target completes an already admitted request with RequestTargetNotFound when the Spot
// closed before its reply (InstanceTarget::on_ready), so the operation runs twice.
std::optional<std::string> InstanceSource::stale_route_retry(const InstanceCall& call, const InstanceRequest& request,
                                                             const InstanceOutcome& failed) {
  SPOTCHECK_ASSERT(SPOTCHECK_PLANTED(_config.planted_bugs, kRetryStaleInstanceRoute));
  if (failed.kind != InstanceOutcomeKind::kRequestTargetNotFound) {
    return std::nullopt;
  }
  constexpr int kRereadsMax = 4'096;
  constexpr platform::TimeUs kRefreshWaitUs = platform::millis(10);
  for (int reread = 0; reread < kRereadsMax; ++reread) {
    if (_platform.clock.now_us() >= call.deadline_us) {
      return std::nullopt;
    }
    const AuthorityAnswer answer = read_authority(request, call.deadline_us, "stale_route");
    if (answer.kind == AuthorityAnswer::Kind::kMissing) {
      std::string target = placement_target(request.mesh_name, request.stable_type).rid_hex;  // cold: the same first message again
      if (!target.empty()) {
        return target;
      }
    } else if (answer.kind == AuthorityAnswer::Kind::kReady && (answer.owner_rid_hex != failed.owner_rid_hex ||
                                                                 answer.object_generation != failed.object_generation)) {
      return answer.owner_rid_hex;  // a refreshed route (sameSpotRouteSnapshot was false)
    }
    const platform::TimeUs left_us = std::max<platform::TimeUs>(1, call.deadline_us - _platform.clock.now_us());
    _platform.clock.sleep_for(std::min(kRefreshWaitUs, left_us));  // wait for the route to refresh
  }
  return std::nullopt;
}

// The planted 0.26 step after a failed send: where to resubmit the same OperationId (emitting
// instance.resubmitted), or nullopt (terminal).
std::optional<std::string> InstanceSource::planted_resubmit_target(const InstanceCall& call,
                                                                   const InstanceRequest& request,
                                                                   const std::string& from_rid_hex,
                                                                   InstanceOutcome failed) {
  SPOTCHECK_ASSERT(SPOTCHECK_PLANTED(_config.planted_bugs, kRetryStaleInstanceRoute));
  if (failed.owner_rid_hex.empty()) {
    failed.owner_rid_hex = from_rid_hex;  // the stale route
  }
  std::optional<std::string> next = stale_route_retry(call, request, failed);
  if (next.has_value()) {
    platform::emit_event(_platform.events, kinds::kInstanceResubmitted,
                         events::InstanceResubmitted{request.spot_id, request.op_id.hex(),
                                                     to_string(failed.kind), from_rid_hex, *next});
  }
  return next;
}
#endif  // SPOTCHECK_PLANTED_BUGS

InstanceOutcome InstanceSource::exchange(const InstanceCall& call, const InstanceRequest& request,
                                         const TargetNode& target) {
  const std::optional<std::uint64_t> to = messaging::parse_routing_id_hex(target.rid_hex);
  if (!to.has_value()) {
    return InstanceOutcome{InstanceOutcomeKind::kNotConfigured, 0, {}, request.stable_type,
                           "the target's routing id does not parse"};
  }
  messaging::Dispatcher::PendingCall pending = _dispatcher.open_call(messaging::CommandCode::kInstanceSpotReply);
  _dispatcher.send(*to, messaging::Command{command_of(call, request, target, pending.request())});
  const platform::TimeUs wait_end_us =
      std::min(call.deadline_us, _platform.clock.now_us() + _source_config.send_timeout_us);
  std::optional<messaging::InstanceSpotReply> reply = pending.wait_instance(wait_end_us);
  pending.close();  // a reply after this is late: dropped by the dispatcher, never a second answer
  if (!reply.has_value()) {
    return InstanceOutcome{InstanceOutcomeKind::kDeadlineExceeded, 0, {}, {},
                           "no answer within the send timeout (the target may have admitted the request)"};
  }
  if (reply->op_id != request.op_id) {
    return InstanceOutcome{InstanceOutcomeKind::kFailed, 0, {}, request.stable_type,
                           "the reply names another operation"};
  }
  return std::move(reply->outcome);
}

InstanceOutcome InstanceSource::deliver_once(const InstanceCall& call, const InstanceRequest& request,
                                             TargetNode target) {
  constexpr int kForwardsMax = 1;  // a route is followed once per activation
  constexpr int kSendsMax = 64;    // bound of the planted loop; the 0.27 policy sends at most 4 times
  int forwards = 0;
  bool reactivated = false;
  for (int hop = 0; hop < kSendsMax; ++hop) {
    SPOTCHECK_ASSERT(!target.rid_hex.empty());
    platform::emit_event(_platform.events, kinds::kInstanceRequestSent,
                         events::InstanceRequestSent{request.spot_id, request.op_id.hex(),
                                                     request.stable_type, target.rid_hex, hop});
    InstanceOutcome outcome = exchange(call, request, target);
    if (outcome.kind == InstanceOutcomeKind::kRoute) {
      // Pre-admission: the target ran nothing and named the Ready owner.
      SPOTCHECK_ASSERT(!outcome.owner_rid_hex.empty());
      if (forwards >= kForwardsMax) {
        return InstanceOutcome{InstanceOutcomeKind::kInvalidOperation, 0, {}, request.stable_type,
                               "the Spot moved again while the request was forwarded"};
      }
      ++forwards;
      platform::emit_event(_platform.events, kinds::kInstanceRouted,
                           events::InstanceRouted{request.spot_id, request.op_id.hex(), target.rid_hex,
                                                  outcome.owner_rid_hex});
      target = TargetNode{outcome.owner_rid_hex, {}};
      continue;
    }
    if (outcome.ok()) {
      return outcome;
    }
#if SPOTCHECK_PLANTED_BUGS
    if (SPOTCHECK_PLANTED(_config.planted_bugs, kRetryStaleInstanceRoute)) {
      std::optional<std::string> next = planted_resubmit_target(call, request, target.rid_hex, outcome);
      if (!next.has_value()) {
        return outcome;
      }
      target = TargetNode{std::move(*next), {}};
      forwards = 0;
      continue;
    }
#endif
    // 0.27: only the owner-fence refusal, made before admission, is followed — by ONE authority
    // read under the same deadline. Every other error may follow admission: terminal.
    if (outcome.kind != InstanceOutcomeKind::kSpotMoving || reactivated) {
      return outcome;
    }
    const AuthorityAnswer answer = read_authority(request, call.deadline_us, "owner_fence");
    if (answer.kind != AuthorityAnswer::Kind::kMissing || _platform.clock.now_us() >= call.deadline_us) {
      return outcome;
    }
    TargetNode next = placement_target(request.mesh_name, request.stable_type);  // Close released it: one new incarnation
    if (next.rid_hex.empty()) {
      return outcome;
    }
    reactivated = true;
    forwards = 0;
    target = std::move(next);
  }
  return InstanceOutcome{InstanceOutcomeKind::kDeadlineExceeded, 0, {}, request.stable_type,
                         "the request was resubmitted too many times"};
}

InstanceOutcome InstanceSource::send(const InstanceCall& call) {
  PreparedRequest prepared = prepare(call);
  if (!prepared.outcome.ok()) {
    return prepared.outcome;  // nothing was sent
  }
  const InstanceRequest& request = prepared.request;
  InstanceOutcome outcome = deliver_once(call, request, prepared.target);
  platform::emit_event(
      _platform.events, kinds::kInstanceReplyDelivered,
      events::InstanceReplyDelivered{
          request.spot_id, request.op_id.hex(), request.source_rid_hex, request.source.owner_id,
          platform::as_i64(request.source.lease_generation), to_string(outcome.kind),
          platform::as_i64(outcome.object_generation)});
  return outcome;
}

}  // namespace spotcheck::location::instance
