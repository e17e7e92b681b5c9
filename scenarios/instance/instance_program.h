// One node process of the instance-route scenario: a CreationNode (owner lease, descriptor,
// authority ops, the Dispatcher over the node's Transport) and, once published, an
// InstanceTarget behind an InstanceEndpoint (server nodes: the stable type's factory and
// handler, the handler closing its Spot now and then) and an InstanceSource (client nodes:
// client tasks sending Instance Spot requests, command 50, wrapped in request.start /
// request.end).
#pragma once

#include <functional>
#include <memory>

#include "impl/location/config/location_config.h"
#include "impl/location/creation/creation_config.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"
#include "impl/store/spi/relocation_store.h"
#include "impl/location/instance/instance_source.h"
#include "scenarios/instance/instance_workload.h"

namespace spotcheck::scenarios::instance {

struct InstanceNodeEnv {
  bool server = false;  // registers the stable type (else: a client node sending requests)
  const location::LocationConfig* config = nullptr;
  const location::creation::CreationConfig* creation = nullptr;
  const InstanceWorkload* workload = nullptr;
  const location::instance::InstanceSourceConfig* source = nullptr;
  std::function<std::unique_ptr<store::LocationStore>()> make_store;
  std::function<std::unique_ptr<store::RelocationStore>()> make_relocation;
  // Ends this host run and starts a new one a little later (after its lease was lost for good).
  std::function<void()> request_restart;
};

// The process main: runs until the process is killed (it never returns on its own).
void run_instance_node(platform::Platform& platform, const InstanceNodeEnv& env);

}  // namespace spotcheck::scenarios::instance
