#include "scenarios/creation/creation_scenarios.h"

#include "impl/check/check.h"

namespace spotcheck::scenarios::creation {

namespace {

using platform::millis;
using platform::seconds;

faults::FaultPlan storm_faults(platform::TimeUs stop_us) {
  faults::FaultPlan p;
  p.store_request_loss = 0.02;
  p.store_reply_loss = 0.03;
  p.store_reply_delay = 0.01;
  // Store trouble a Close or a creation meets halfway: short outages (a Delete and its re-reads
  // can all go unanswered: the outcome stays unknown, §10), and writes that land after their
  // caller gave up or re-read.
  p.store_outage_gap_us = seconds(15);
  p.store_outage_length_us = seconds(2);
  p.store_late_apply = 0.02;
  p.store_late_apply_max_us = seconds(1);
  p.node_kill_gap_us = seconds(9);
  p.node_down_us = seconds(3);
  p.node_pause_gap_us = seconds(12);
  p.node_pause_max_us = seconds(4);
  // Between nodes, besides the scenario's own loss and tail (CreationScenarioConfig): partitions
  // of a pair, and a direction that holds its commands for a while and then delivers them.
  p.node_partition_gap_us = seconds(15);
  p.node_partition_length_us = seconds(2);
  p.node_link_stall_gap_us = seconds(12);
  p.node_link_stall_length_us = millis(1'500);
  p.faults_stop_us = stop_us;
  return p;
}

// message-storm: create-storm's faults, and what closes a node's admission while messages keep
// arriving from the others: a node cut off from the store for longer than its lease's fencing
// window, and a node paused on a store reply long enough for its lease to run out (§5).
faults::FaultPlan message_storm_faults(platform::TimeUs stop_us) {
  faults::FaultPlan p = storm_faults(stop_us);
  p.partition_gap_us = seconds(20);
  p.partition_length_us = seconds(12);
  p.node_pause_on_reply = 0.002;
  p.node_pause_on_reply_max_us = seconds(14);
  return p;
}

}  // namespace

CreationScenarioConfig creation_scenario_config(const std::string& name) {
  if (name == "create-storm") {
    CreationScenarioConfig c;
    c.name = "create-storm";
    c.base = c.name;
    c.description =
        "6 nodes in two Meshes Create/GetOrCreate/destroy the same 3 actors and 2 rooms; lost store replies, short "
        "store outages, late writes, kills, pauses, node-to-node loss, rejecting and throwing factories";
    c.node_count = 6;
    c.faults_stop_us = seconds(45);
    c.liveness_window_us = seconds(35);
    c.workload.traffic_stop_us = seconds(70);
    // One actor slot per node: three actors fill half the nodes, so placement has to pass over
    // full ones (§4) and a Reserve that races another for the last slot is refused.
    c.workload.actors_limit = 1;
    // Two Meshes (§7 InMesh): three nodes publish in each, every node places in both; a creation
    // names its Mesh, or none (InvalidOperation), or one no host has (NotFound).
    c.workload.mesh_names = {"game", "lobby"};
    c.creation.object_meshes = c.workload.mesh_names;
    c.plan = storm_faults;
    // Swarm: the standard kinds, and (1/2 each, drawn after them) what the plain plan has between
    // nodes and at the store besides: delays, partitions of a pair, link stalls and tails, writes
    // that apply late, a stalling store (issue 11: node-to-node faults in every scenario whose
    // nodes talk to each other, in swarm mode too).
    c.swarm.also = {faults::FaultKind::kNodeMessageDelay, faults::FaultKind::kNodePartition,
                    faults::FaultKind::kLinkTail,         faults::FaultKind::kNodeLinkStall,
                    faults::FaultKind::kStoreLateApply,   faults::FaultKind::kStoreStall};
    c.required_marks = {platform::Mark::kCreationAnsweredFromStore, platform::Mark::kCreationWaitsOnCreating,
                        platform::Mark::kCreationResultReadUnknown, platform::Mark::kOperationIdReusedAcrossRuns};
    return c;
  }
  if (name == "message-storm") {
    CreationScenarioConfig c = creation_scenario_config("create-storm");
    c.name = "message-storm";
    c.base = c.name;
    c.description =
        "create-storm's 6 nodes send regular messages to the actors and rooms they create and destroy, over the "
        "location cache; handlers start timers and Send to actors; node-store partitions and long pauses close admission meanwhile";
    c.workload.actors_limit = 0;
    c.workload.send_message_weight = 45;
    c.workload.get_or_create_actor_weight = 20;
    c.workload.create_actor_weight = 5;
    c.workload.get_or_create_spot_weight = 10;
    c.workload.create_spot_weight = 3;
    c.workload.destroy_weight = 8;
    c.workload.find_weight = 4;
    c.workload.retry_own_operation_weight = 5;
    c.workload.handler_delay_max_us = millis(30);
    c.workload.timer_probability = 0.3;
    c.workload.post_probability = 0.2;
    c.plan = message_storm_faults;
    c.required_marks = {platform::Mark::kRouteCacheHit, platform::Mark::kRouteCacheDropped,
                        platform::Mark::kTurnRefusedAdmission, platform::Mark::kTimerFired, platform::Mark::kSendRan,
                        platform::Mark::kRemovalFoundRowGone};
    return c;
  }
  SPOTCHECK_ASSERT_ABORT(false && "unknown creation scenario");
  return CreationScenarioConfig{};
}

std::vector<std::unique_ptr<Scenario>> make_creation_scenarios() {
  std::vector<std::unique_ptr<Scenario>> out;
  out.push_back(std::make_unique<CreationScenario>(creation_scenario_config("create-storm")));
  out.push_back(std::make_unique<CreationScenario>(creation_scenario_config("message-storm")));
  return out;
}

}  // namespace spotcheck::scenarios::creation
