#include "scenarios/instance/instance_scenario.h"

#include "impl/check/check.h"
#include "scenarios/common/judged_world.h"
#include "scenarios/instance/type_choice_checker.h"
#include "scenarios/instance/instance_program.h"

namespace spotcheck::scenarios::instance {

namespace {

using platform::seconds;

constexpr platform::RoutingId kFirstNodeRoutingId = 0x00d1'0000;
constexpr platform::TimeUs kRestartDelayUs = seconds(1);

// The faults between nodes and the slow Delete, no other store or process faults: lost, delayed
// and partitioned commands 50/51 (a lost reply after the target ran the request is the hazard of
// at-most-once), and a slow Delete of a closed Spot's row (the window where a request meets a
// closing instance and the source's authority read finds the row gone).
faults::FaultPlan node_message_faults(platform::TimeUs stop_us) {
  faults::FaultPlan p;
  p.node_message_loss = 0.15;
  p.node_message_delay_max_us = platform::millis(100);
  p.node_partition_gap_us = seconds(15);
  p.node_partition_length_us = seconds(2);
  p.store_delete_hold_max_us = platform::millis(400);
  // A long tail on every link (a reply that comes seconds late), and a direction between two
  // nodes that holds its commands, then delivers them in order.
  p.link_tail = 0.01;
  p.link_tail_max_us = seconds(2);
  p.node_link_stall_gap_us = seconds(10);
  p.node_link_stall_length_us = platform::millis(1'500);
  // Store replies lost now and then: a Close whose Delete applied waits out its reply, re-reads,
  // and meanwhile a request for the same Spot reaches this node and finds no row (§7.1: the
  // store and the in-process list are read together; no new incarnation while the Close runs).
  p.store_reply_loss = 0.03;
  // Server nodes die at the crash points of cold activation (after the payload, after Creating,
  // after Ready) and come back within 2 s: the restarted run recovers what the dead one left (§7.1).
  p.node_crash_point = 0.05;
  p.node_crash_point_down_max_us = seconds(2);
  // The stored first message a restore reads is damaged half the time: invisible for a while (the
  // restore re-reads it), lost or corrupted (DataLost recorded in the row, never guessed at; §10).
  p.store_payload_damage = 0.5;
  p.faults_stop_us = stop_us;
  return p;
}

// Swarm: the standard shape with the node-to-node kinds and the slow Delete drawn too; loss and
// the slow Delete on in every seed (this scenario is about them).
faults::SwarmShape instance_swarm_shape() {
  faults::SwarmShape shape;
  shape.also = {faults::FaultKind::kNodeMessageDelay, faults::FaultKind::kNodePartition, faults::FaultKind::kLinkTail,
                faults::FaultKind::kNodeLinkStall, faults::FaultKind::kNodeCrashPoint,
                faults::FaultKind::kStorePayloadDamage};
  shape.always = {faults::FaultKind::kNodeMessageLoss, faults::FaultKind::kStoreDeleteSlow};
  return shape;
}

}  // namespace

InstanceScenarioConfig instance_scenario_config(const std::string& name) {
  SPOTCHECK_ASSERT_ABORT(name == "instance-route" && "unknown instance scenario");
  (void)name;
  InstanceScenarioConfig c;
  c.name = "instance-route";
  c.base = c.name;
  c.description =
      "2 client nodes send Instance Spot requests (commands 50/51) to 2 Chat Spots on 3 server nodes; lost, "
      "delayed and partitioned messages between nodes, the application closing Spots, slow Deletes, servers dying "
      "mid-activation, stored first messages lost or corrupted";
  c.plan = node_message_faults;
  c.swarm = instance_swarm_shape();
  c.required_marks = {platform::Mark::kInstanceRoute,
                      platform::Mark::kInstanceReadyDelivery,
                      platform::Mark::kCrashAfterPayloadStored,
                      platform::Mark::kCrashAfterCreating,
                      platform::Mark::kCrashAfterReady,
                      platform::Mark::kRecoveryCreatingCancelled,
                      platform::Mark::kRecoveryFirstMessageRestored,
                      platform::Mark::kRecoveryCompletedRemoved,
                      platform::Mark::kPayloadFoundOnReread,
                      platform::Mark::kRecoveryDataLost,
                      platform::Mark::kPayloadDamageHit,
                      platform::Mark::kInstanceReincarnated};
  return c;
}

InstanceScenario::InstanceScenario(InstanceScenarioConfig config) : _config(std::move(config)) {
  SPOTCHECK_ASSERT_ABORT(_config.client_nodes >= 1 && _config.server_nodes >= 1);
  SPOTCHECK_ASSERT_ABORT(!location::validate(_config.protocol).has_value());
  SPOTCHECK_ASSERT_ABORT(_config.plan);
  SPOTCHECK_ASSERT_ABORT(_config.swarm.valid());
  SPOTCHECK_ASSERT_ABORT(_config.source.send_timeout_us > 0);
  SPOTCHECK_ASSERT_ABORT(_config.workload.traffic_stop_us + _config.workload.request_deadline_us <=
         _config.faults_stop_us + _config.liveness_window_us);
}

SeedOutcome InstanceScenario::run(const SeedRequest& request) const {
  // The node environments outlive the world (declared before it): the process mains refer to
  // them until their host runs unwind.
  const std::uint32_t node_count = _config.server_nodes + _config.client_nodes;
  std::vector<InstanceNodeEnv> envs(node_count);
  JudgedWorld judged(request, _config.properties);
  judged.add_checker(std::make_unique<TypeChoiceChecker>(
      std::set<std::string>{_config.workload.stable_type, _config.workload.second_type}));
  sim::World& world = judged.world();
  sim::StoreServer& store = judged.store();
  sim::StoreServer& relocation_store = _config.separate_relocation_store ? judged.relocation_store() : store;

  // Servers first.
  std::vector<sim::ProcessId> nodes;
  nodes.reserve(node_count);
  for (std::uint32_t i = 0; i < node_count; ++i) {
    InstanceNodeEnv* env = &envs[i];
    const bool server = i < _config.server_nodes;
    const platform::RoutingId rid = kFirstNodeRoutingId + i;
    const sim::ProcessId pid = world.add_process((server ? "server-" : "client-") + std::to_string(i), rid,
                                                 [env](platform::Platform& p) { run_instance_node(p, *env); });
    env->server = server;
    env->config = &_config.protocol;
    env->creation = &_config.creation;
    env->workload = &_config.workload;
    env->source = &_config.source;
    env->make_store = [&store, pid] { return store.location_client(pid); };
    env->make_relocation = [&relocation_store, pid] { return relocation_store.relocation_client(pid); };
    env->request_restart = [&world, pid] {
      world.at(world.now_us() + kRestartDelayUs, [&world, pid] { world.restart(pid); });
    };
    nodes.push_back(pid);
  }

  judged.install_faults(nodes, _config.plan(_config.faults_stop_us), _config.faults_stop_us, _config.swarm);
  judged.start_staggered(nodes, platform::millis(50));
  return judged.run_and_judge(_config.faults_stop_us + _config.liveness_window_us, _config.max_steps);
}

std::vector<std::unique_ptr<Scenario>> make_instance_scenarios() {
  std::vector<std::unique_ptr<Scenario>> out;
  out.push_back(std::make_unique<InstanceScenario>(instance_scenario_config("instance-route")));
  return out;
}

}  // namespace spotcheck::scenarios::instance
