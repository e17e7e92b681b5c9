#include "impl/location/instance/instance_source.h"

#include "impl/location/check.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/instance/instance_events.h"
#include "impl/location/instance/instance_type.h"
#include "impl/location/placement/placement.h"

namespace spotcheck::location::instance {

using platform::Field;

InstanceSource::InstanceSource(const LocationConfig& config, platform::Platform& platform,
                               store::LocationStore& store, OwnerLease& lease, std::string mesh_name,
                               std::string rid_hex)
    : _config(config),
      _platform(platform),
      _store(store),
      _lease(lease),
      _mesh_name(std::move(mesh_name)),
      _rid_hex(std::move(rid_hex)) {}

InstanceOutcome InstanceSource::prepare(const InstanceCall& call, InstanceRequest& request) {
  Result<DescriptorList> list = read_descriptor_list(_store, _platform, _config, _mesh_name);
  if (!list.ok()) {
    return InstanceOutcome{InstanceOutcomeKind::kStoreError, 0, {}, {}, describe(list.error())};
  }
  const TypeChoice type = choose_instance_type(call.stable_type, list.value().nodes);
  _platform.events.emit(events::kTypeSelected,
                        {Field::str("id", call.spot_id), Field::num("requested", call.stable_type.has_value() ? 1 : 0),
                         Field::str("stable_type", type.stable_type), Field::str("outcome", to_string(type.error))});
  if (!type.ok()) {
    return InstanceOutcome{type.error, 0, {}, {}, "Instance Spot type selection"};
  }
  const PlacementRequest placement{records::ObjectKind::kInstanceSpot, type.stable_type, {}};
  Result<NodeView> target = choose_placement_target(_store, _platform, _config, list.value().nodes, placement);
  if (!target.ok()) {
    const bool none = target.error_kind() == ErrorKind::kNoCandidate;
    return InstanceOutcome{none ? InstanceOutcomeKind::kNotConfigured : InstanceOutcomeKind::kStoreError, 0, {},
                           type.stable_type, describe(target.error())};
  }
  const std::int64_t left_ms = (call.deadline_us - _platform.clock.now_us()) / platform::kMicrosPerMilli;
  request = InstanceRequest{};
  request.stable_type = type.stable_type;
  request.mesh_name = _mesh_name;
  request.spot_id = call.spot_id;
  request.source_rid_hex = _rid_hex;
  request.source = messaging::WireHostRun{_lease.host_run().owner_id, _lease.host_run().lease_generation};
  request.op_id = messaging::OperationId::random(_platform.random);
  request.deadline_store_ms = _lease.estimated_store_now_ms() + left_ms;
  request.args = call.args;
  request.first_message = call.first_message;
  return InstanceOutcome{InstanceOutcomeKind::kCreated, 0, target.value().descriptor.routing_id_hex,
                         type.stable_type, {}};
}

InstanceOutcome InstanceSource::send(const InstanceCall& call, const Deliver& deliver) {
  InstanceRequest request;
  InstanceOutcome prepared = prepare(call, request);
  if (!prepared.ok()) {
    return prepared;
  }
  std::string target = prepared.owner_rid_hex;
  constexpr int kForwardsMax = 1;  // a route is followed once
  for (int hop = 0; hop <= kForwardsMax; ++hop) {
    _platform.events.emit(events::kRequestSent,
                          {Field::str("id", request.spot_id), Field::str("op_id", request.op_id.hex()),
                           Field::str("stable_type", request.stable_type), Field::str("to", target),
                           Field::num("hop", hop)});
    InstanceOutcome outcome = deliver(target, request);
    if (outcome.kind != InstanceOutcomeKind::kRoute) {
      return outcome;
    }
    LOCATION_ASSERT(!outcome.owner_rid_hex.empty());
    _platform.events.emit(events::kRouted, {Field::str("id", request.spot_id), Field::str("op_id", request.op_id.hex()),
                                            Field::str("from", target), Field::str("to", outcome.owner_rid_hex)});
    target = outcome.owner_rid_hex;
  }
  return InstanceOutcome{InstanceOutcomeKind::kInvalidOperation, 0, {}, request.stable_type,
                         "the Spot moved again while the request was forwarded"};
}

}  // namespace spotcheck::location::instance
