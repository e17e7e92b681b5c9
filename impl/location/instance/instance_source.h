// The source side of an Instance Spot request (spec §7.1). The source reads the descriptor list
// of the mesh, resolves the stable type (instance_type.h), picks a target by placement among the
// nodes registering that type, and sends the request — creation info plus the first message. It
// never writes the Location Store: no owner, no generation, no Creating row is made here.
//
// Delivery is a seam (`Deliver`): it hands the request to the named target node and returns that
// target's outcome. If the target answers kRoute (Ready on another node) the source forwards the
// same request once to that route; a second kRoute ends as kInvalidOperation.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "impl/location/config/location_config.h"
#include "impl/location/instance/instance_outcome.h"
#include "impl/location/instance/instance_request.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::instance {

struct InstanceCall {
  std::string spot_id;
  std::optional<std::string> stable_type;  // omitted: chosen by the §7.1 rule
  std::string args;
  std::string first_message;
  platform::TimeUs deadline_us = 0;  // local
};

class InstanceSource {
 public:
  using Deliver = std::function<InstanceOutcome(const std::string& target_rid_hex, const InstanceRequest& request)>;

  InstanceSource(const LocationConfig& config, platform::Platform& platform, store::LocationStore& store,
                 OwnerLease& lease, std::string mesh_name, std::string rid_hex);

  // Builds the request and picks the target; kCreated in `outcome.kind` means "ready to send",
  // with the target's RID in `outcome.owner_rid_hex`.
  InstanceOutcome prepare(const InstanceCall& call, InstanceRequest& request);
  // prepare + deliver (+ one forward on kRoute).
  InstanceOutcome send(const InstanceCall& call, const Deliver& deliver);

 private:
  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;
  OwnerLease& _lease;
  std::string _mesh_name;
  std::string _rid_hex;
};

}  // namespace spotcheck::location::instance
