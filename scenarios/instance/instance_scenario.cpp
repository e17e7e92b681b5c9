#include "scenarios/instance/instance_scenario.h"

#include <cassert>

#include "impl/location/messaging/operation_id.h"
#include "scenarios/common/judged_world.h"
#include "scenarios/instance/instance_delivery.h"
#include "scenarios/instance/instance_program.h"

namespace spotcheck::scenarios::instance {

namespace {

using platform::seconds;

constexpr platform::RoutingId kFirstNodeRoutingId = 0x00d1'0000;
constexpr platform::TimeUs kRestartDelayUs = seconds(1);

// No store or process faults: the delivery's lost and delayed answers and the Closes are this
// scenario's faults (swarm mode draws a plan of its own).
faults::FaultPlan no_store_faults(platform::TimeUs stop_us) {
  faults::FaultPlan p;
  p.faults_stop_us = stop_us;
  return p;
}

}  // namespace

InstanceScenarioConfig instance_scenario_config(const std::string& name) {
  assert(name == "instance-route" && "unknown instance scenario");
  (void)name;
  InstanceScenarioConfig c;
  c.name = "instance-route";
  c.description =
      "2 client nodes send Instance Spot requests to 2 Chat Spots on 3 server nodes; lost and delayed answers, "
      "the application closing Spots, slow Deletes";
  c.plan = no_store_faults;
  return c;
}

InstanceScenario::InstanceScenario(InstanceScenarioConfig config) : _config(std::move(config)) {
  assert(_config.client_nodes >= 1 && _config.server_nodes >= 1);
  assert(!location::validate(_config.protocol).has_value());
  assert(_config.plan);
  assert(_config.workload.traffic_stop_us + _config.workload.request_deadline_us <=
         _config.faults_stop_us + _config.liveness_window_us);
}

SeedOutcome InstanceScenario::run(const SeedRequest& request) const {
  // The node environments and the delivery outlive the world (declared before it): the process
  // mains refer to them until their host runs unwind.
  const std::uint32_t node_count = _config.server_nodes + _config.client_nodes;
  std::vector<InstanceNodeEnv> envs(node_count);
  std::unique_ptr<InstanceDelivery> delivery_owner;
  JudgedWorld judged(request, _config.properties);
  sim::World& world = judged.world();
  sim::StoreServer& store = judged.store();
  delivery_owner = std::make_unique<InstanceDelivery>(world, _config.delivery, _config.faults_stop_us);
  InstanceDelivery& delivery = *delivery_owner;

  // Servers first.
  std::vector<sim::ProcessId> nodes;
  nodes.reserve(node_count);
  for (std::uint32_t i = 0; i < node_count; ++i) {
    InstanceNodeEnv* env = &envs[i];
    const bool server = i < _config.server_nodes;
    const platform::RoutingId rid = kFirstNodeRoutingId + i;
    const sim::ProcessId pid = world.add_process((server ? "server-" : "client-") + std::to_string(i), rid,
                                                 [env](platform::Platform& p) { run_instance_node(p, *env); });
    env->index = i;
    env->server = server;
    env->config = &_config.protocol;
    env->creation = &_config.creation;
    env->workload = &_config.workload;
    env->faults = &_config.delivery;
    env->faults_stop_us = _config.faults_stop_us;
    env->delivery = &delivery;
    env->make_store = [&store, pid] { return store.location_client(pid); };
    env->make_relocation = [&store, pid] { return store.relocation_client(pid); };
    env->request_restart = [&world, pid] {
      world.at(world.now_us() + kRestartDelayUs, [&world, pid] { world.restart(pid); });
    };
    delivery.add_node(pid, location::messaging::routing_id_hex(rid));
    nodes.push_back(pid);
  }

  judged.install_faults(nodes, _config.plan(_config.faults_stop_us), _config.faults_stop_us);
  judged.start_staggered(nodes, platform::millis(50));
  return judged.run_and_judge(_config.faults_stop_us + _config.liveness_window_us, _config.max_steps);
}

std::vector<std::unique_ptr<Scenario>> make_instance_scenarios() {
  std::vector<std::unique_ptr<Scenario>> out;
  out.push_back(std::make_unique<InstanceScenario>(instance_scenario_config("instance-route")));
  return out;
}

}  // namespace spotcheck::scenarios::instance
