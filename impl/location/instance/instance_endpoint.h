// The target side of the Instance Spot wire (spec §7.1): binds one host run's InstanceTarget to
// its node's Dispatcher. A command 50 that arrives gets its own task (the dispatcher's handlers
// never block), which runs InstanceTarget::handle and sends the outcome back as command 51 to
// the envelope's sender, with the request's correlation. A reply may be lost on the way (the
// source then sees no answer): the target never resends it, and the source never asks again.
//
// The creation info's wire-only fields (correlation, target descriptor, source SpotId, command-39
// information) stay on the wire: InstanceTarget gets the InstanceRequest it stores.
//
// RAII: the handler is installed by the constructor and removed by the destructor; a request
// that arrives without an endpoint is dropped unanswered.
#pragma once

#include "impl/location/instance/instance_request.h"
#include "impl/location/instance/instance_target.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/platform/platform.h"

namespace spotcheck::location::instance {

// The request InstanceTarget::handle takes, from command 50.
InstanceRequest request_of(const messaging::InstanceSpotRequest& command);

class InstanceEndpoint {
 public:
  InstanceEndpoint(platform::Platform& platform, messaging::Dispatcher& dispatcher, InstanceTarget& target);
  ~InstanceEndpoint();
  InstanceEndpoint(const InstanceEndpoint&) = delete;
  InstanceEndpoint& operator=(const InstanceEndpoint&) = delete;

 private:
  void serve(platform::RoutingId from, const messaging::InstanceSpotRequest& command);

  platform::Platform& _platform;
  messaging::Dispatcher& _dispatcher;
  InstanceTarget& _target;
};

}  // namespace spotcheck::location::instance
