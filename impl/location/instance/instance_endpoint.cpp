#include "impl/location/instance/instance_endpoint.h"

#include <utility>

#include "impl/check/check.h"

namespace spotcheck::location::instance {

InstanceRequest request_of(const messaging::InstanceSpotRequest& command) {
  InstanceRequest request;
  request.stable_type = command.stable_type;
  request.mesh_name = command.mesh_name;
  request.spot_id = command.spot_id;
  request.source_rid_hex = command.source_rid_hex;
  request.source = command.source;
  request.op_id = command.op_id;
  request.deadline_store_ms = command.deadline_store_ms;
  request.args = command.args;
  request.first_message = command.first_message;
  return request;
}

InstanceEndpoint::InstanceEndpoint(platform::Platform& platform, messaging::Dispatcher& dispatcher,
                                   InstanceTarget& target)
    : _platform(platform), _dispatcher(dispatcher), _target(target) {
  _dispatcher.on_instance_request([this](platform::RoutingId from, messaging::InstanceSpotRequest command) {
    _platform.tasks.spawn("instance-target", [this, from, command = std::move(command)] { serve(from, command); });
  });
}

InstanceEndpoint::~InstanceEndpoint() { _dispatcher.on_instance_request({}); }

void InstanceEndpoint::serve(platform::RoutingId from, const messaging::InstanceSpotRequest& command) {
  SPOTCHECK_ASSERT(command.code() == messaging::CommandCode::kInstanceSpotRequest);
  messaging::InstanceSpotReply reply;
  reply.request = command.request;
  reply.op_id = command.op_id;
  reply.outcome = _target.handle(request_of(command));
  SPOTCHECK_ASSERT(reply.outcome.kind != InstanceOutcomeKind::kRoute || !reply.outcome.owner_rid_hex.empty());
  _dispatcher.send(from, messaging::Command{std::move(reply)});
}

}  // namespace spotcheck::location::instance
