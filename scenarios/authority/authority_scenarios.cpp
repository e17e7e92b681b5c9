#include "scenarios/authority/authority_scenarios.h"

#include <algorithm>

#include "impl/check/check.h"

namespace spotcheck::scenarios::authority {

namespace {

using platform::Mark;
using platform::millis;
using platform::seconds;

AuthorityScenarioConfig base(std::string name, std::string description) {
  AuthorityScenarioConfig c;
  c.name = std::move(name);
  c.description = std::move(description);
  c.faults_stop_us = seconds(60);
  c.liveness_window_us = seconds(40);
  c.workload.traffic_stop_us = seconds(75);
  // Half the requests on an object another live host run owns go to it as a regular message
  // (§7.3, the object runtime): the node-to-node traffic the node-link faults below strike.
  c.workload.message_probability = 0.5;
  // A quarter of them with a second message to the same object from another stream at once.
  c.workload.concurrent_message_probability = 0.25;
  return c;
}

// Node-to-node hazards, added to every plan of these scenarios: lost messages, latency up to
// 200 ms with a long tail (1% of messages up to 1.5 s), pairs of nodes cut apart (symmetric or
// one-way, gap 15 s, up to 2 s) and directions that stall, then deliver in order (gap 12 s, up
// to 1.5 s).
faults::FaultPlan with_node_links(faults::FaultPlan p) {
  p.node_message_loss = 0.02;
  p.node_message_delay_max_us = millis(200);
  p.node_partition_gap_us = seconds(15);
  p.node_partition_length_us = seconds(2);
  p.node_link_stall_gap_us = seconds(12);
  p.node_link_stall_length_us = millis(1'500);
  p.link_tail = std::max(p.link_tail, 0.01);
  p.link_tail_max_us = std::max(p.link_tail_max_us, millis(1'500));
  return p;
}

// The node-to-node kinds under --swarm: drawn like the others (after them, so the kinds before
// keep their draws).
void add_node_link_kinds(faults::SwarmShape& shape) {
  for (const faults::FaultKind kind : {faults::FaultKind::kNodeMessageLoss, faults::FaultKind::kNodeMessageDelay,
                                       faults::FaultKind::kNodePartition, faults::FaultKind::kNodeLinkStall,
                                       faults::FaultKind::kLinkTail}) {
    if (std::find(shape.also.begin(), shape.also.end(), kind) == shape.also.end() &&
        std::find(shape.always.begin(), shape.always.end(), kind) == shape.always.end()) {
      shape.also.push_back(kind);
    }
  }
}

// Only one fault kind, hard: the scenarios below each aim at one hazard.
faults::FaultPlan only_pauses(platform::TimeUs stop_us) {
  faults::FaultPlan p;
  p.node_pause_gap_us = seconds(8);
  p.node_pause_max_us = seconds(30);  // longer than the 15 s owner lease TTL
  // And pauses that begin as a store reply reaches the node, before it acts on it: a planning
  // read's answer, or a write's outcome, is acted on after the admission deadline may have passed.
  p.node_pause_on_reply = 0.003;
  p.node_pause_on_reply_max_us = seconds(30);
  p.faults_stop_us = stop_us;
  return p;
}

faults::FaultPlan store_trouble(platform::TimeUs stop_us) {
  faults::FaultPlan p;
  p.store_outage_gap_us = seconds(10);
  p.store_outage_length_us = seconds(8);
  p.store_request_loss = 0.05;
  p.store_reply_loss = 0.05;
  p.store_reply_delay = 0.05;
  // Writes that land after their caller gave up, and a store that stalls and then applies the
  // queue in order (§10): the hazards a fast refusal never shows.
  p.store_late_apply = 0.05;
  p.store_late_apply_max_us = seconds(2);
  p.store_stall_gap_us = seconds(15);
  p.store_stall_length_us = seconds(4);
  // Renewals that fail while every read is served: admission deadlines lapse under live traffic.
  p.store_renew_loss = 0.3;
  p.faults_stop_us = stop_us;
  return p;
}

// Swarm shapes (faults/fault_plan.h SwarmShape): under --swarm a scenario aimed at one hazard
// keeps the fault kinds it is about on in every seed, hard; the other kinds are still drawn.
using faults::FaultKind;

faults::SwarmShape lost_store_messages_shape() {
  faults::SwarmShape shape;
  shape.always = {FaultKind::kStoreRequestLost, FaultKind::kStoreReplyLost, FaultKind::kStoreLateApply};
  shape.also = {FaultKind::kNodePauseOnReply, FaultKind::kNodeFreezeDrop};
  shape.store_request_loss = {0.01, 0.1};
  shape.store_reply_loss = {0.01, 0.1};
  return shape;
}

// Pauses past the owner lease on and likely: a pause every 4-10 s on average, the longest drawn
// well past the lease TTL (a pause is uniform in [0, max]: with max >= TTL + 10 s, at least 40 %
// of them outlive the lease).
faults::SwarmShape pauses_shape(platform::TimeUs owner_lease_ttl_us) {
  faults::SwarmShape shape;
  shape.always = {FaultKind::kNodePause, FaultKind::kNodePauseOnReply};
  const platform::TimeUs longest_lo_us = owner_lease_ttl_us + seconds(10);
  shape.node_pause = {seconds(4), seconds(10), longest_lo_us, std::max(longest_lo_us, seconds(45))};
  shape.node_pause_on_reply = {0.001, 0.01};
  shape.node_pause_on_reply_lo_us = owner_lease_ttl_us;
  return shape;
}

faults::SwarmShape store_trouble_shape() {
  faults::SwarmShape shape;
  shape.always = {FaultKind::kStoreOutage, FaultKind::kStoreRequestLost, FaultKind::kStoreReplyLost,
                  FaultKind::kStoreReplyDelayed, FaultKind::kStoreLateApply, FaultKind::kStoreStall,
                  FaultKind::kStoreRenewLost};
  shape.store_outage = {seconds(5), seconds(20), seconds(1), seconds(10)};
  shape.store_request_loss = {0.01, 0.1};
  shape.store_reply_loss = {0.01, 0.1};
  shape.store_reply_delay = {0.01, 0.1};
  return shape;
}

// Kill/restart churn: a kill every few seconds, nodes down up to several seconds.
faults::SwarmShape churn_shape() {
  faults::SwarmShape shape;
  shape.always = {FaultKind::kNodeKill, FaultKind::kStoreScanExpired};
  shape.node_kill = {seconds(2), seconds(8), seconds(1), seconds(8)};
  return shape;
}

// Host maintenance under --swarm: pauses that may outlast a source's admission deadline but not
// its lease, kills of sources and targets mid-move, and lost handoff messages, in every draw.
faults::SwarmShape relocation_shape() {
  faults::SwarmShape shape;
  shape.always = {FaultKind::kNodePause, FaultKind::kNodeKill, FaultKind::kNodeMessageLoss};
  shape.node_pause = {seconds(3), seconds(10), seconds(5), seconds(15)};
  shape.node_kill = {seconds(5), seconds(15), seconds(1), seconds(5)};
  shape.node_message_loss = {0.01, 0.1};
  shape.also = {FaultKind::kStoreLateApply};
  return shape;
}

faults::FaultPlan churn(platform::TimeUs stop_us) {
  faults::FaultPlan p;
  p.node_kill_gap_us = seconds(4);
  p.node_down_us = seconds(5);
  p.store_reply_loss = 0.02;
  // Scans in small pages, forgotten between pages now and then: the owner sweep's list starts over.
  p.store_scan_expiry = 0.2;
  p.faults_stop_us = stop_us;
  return p;
}

// Host maintenance under trouble (§8-§10): kills and long pauses of sources and targets mid-move,
// lost and late store replies around the target's CAS, short store outages during a Restore.
faults::FaultPlan relocation_trouble(platform::TimeUs stop_us) {
  faults::FaultPlan p;
  p.node_kill_gap_us = seconds(12);
  p.node_down_us = seconds(3);
  // Pauses up to the owner lease TTL, every 6 s on average: a source frozen mid-handover often comes
  // back past its admission deadline with its lease still alive (§5: closed, then renewed).
  p.node_pause_gap_us = seconds(6);
  p.node_pause_max_us = seconds(15);
  p.store_reply_loss = 0.02;
  p.store_request_loss = 0.02;
  p.store_late_apply = 0.02;
  p.store_late_apply_max_us = seconds(1);
  p.store_outage_gap_us = seconds(20);
  p.store_outage_length_us = seconds(3);
  p.faults_stop_us = stop_us;
  return p;
}

AuthorityScenarioConfig with_node_traffic(AuthorityScenarioConfig c) {
  c.plan = [inner = c.plan](platform::TimeUs stop_us) { return with_node_links(inner(stop_us)); };
  add_node_link_kinds(c.swarm);
  return c;
}

// A built-in by name, before with_node_traffic.
AuthorityScenarioConfig named_config(const std::string& name) {
  if (name == "default") {
    // Swarm: every kind on with probability 1/2 (the standard shape).
    AuthorityScenarioConfig c = base("default", "the mixed campaign: 4 nodes contend for 6 actors under every fault kind");
    // 2 actor slots per node (8 for 6 actors): nodes fill up, so the bounded increment and the
    // full-node refusal run (§3.3), and the capacity property holds each node to its limit.
    c.workload.actors_limit = 2;
    c.workload.shutdown_probability = 0.002;  // now and then a graceful shutdown: the owner sweep under every fault
    // Descriptors change (the next Revision) and are republished unchanged (a same-Revision RENEW)
    // now and then, under every fault: store-truth holds each stored Revision to §4.
    c.workload.descriptor_update_probability = 0.01;
    c.workload.descriptor_renew_probability = 0.01;
    c.swarm.also = {FaultKind::kStoreLateApply, FaultKind::kStoreStall, FaultKind::kLinkTail,
                    FaultKind::kStoreRenewLost, FaultKind::kNodePauseOnReply,
                    FaultKind::kNodeFreezeDrop, FaultKind::kStoreScanExpired};  // drawn like the others
    c.required_marks = {Mark::kIndeterminateResolvedApplied, Mark::kIndeterminateResolvedNotApplied,
                        Mark::kIndeterminateResolvedSuperseded,
                        Mark::kIndeterminateUnresolved,      Mark::kContentionRetry,
                        Mark::kCapacityFull,                 Mark::kDescriptorTakeover,
                        Mark::kDescriptorRevised,            Mark::kDescriptorRenewIgnored,
                        Mark::kScanExpiredRestart,           Mark::kLeaseLostInReread,
                        Mark::kRenewFaultHit,                Mark::kRouteCacheHit,
                        Mark::kRouteCacheDropped};
    return c;
  }
  if (name == "authority-race") {
    AuthorityScenarioConfig c = base("authority-race", "8 nodes race to create, use and delete the same 3 actors");
    c.node_count = 8;
    c.workload.object_count = 3;
    c.workload.think_min_us = millis(5);
    c.workload.think_max_us = millis(100);
    c.workload.delete_probability = 0.2;
    c.workload.actors_limit = 1;  // one actor per node: 8 slots for 3 actors, every node fills
    c.plan = [](platform::TimeUs stop_us) {
      faults::FaultPlan p;
      p.store_reply_loss = 0.03;
      p.store_request_loss = 0.03;
      p.store_late_apply = 0.03;  // a racing write may land after its caller's re-read
      p.store_late_apply_max_us = seconds(1);
      // A host frozen between a store reply and what it does next: its deadline may pass, another
      // node take the row over, before it acts (§5, §10).
      p.node_pause_on_reply = 0.002;
      p.node_pause_on_reply_max_us = seconds(25);
      // A host frozen with its write in flight, the write or its reply lost: when it resumes and
      // re-reads, another node may have taken the row over, in the same ObjectGeneration (§10).
      // 2% (1% before the nodes sent messages, whose lookups are reads: the same share of the
      // writes it strikes).
      p.node_freeze_drop = 0.02;
      p.node_freeze_drop_max_us = seconds(25);
      p.faults_stop_us = stop_us;
      return p;
    };
    c.swarm = lost_store_messages_shape();
    c.generations_near_end_probability = 0.25;  // a quarter of the seeds race into GenerationExhausted
    c.required_marks = {Mark::kIndeterminateResolvedApplied, Mark::kIndeterminateResolvedNotApplied,
                        Mark::kIndeterminateResolvedSuperseded,
                        Mark::kContentionRetry, Mark::kCapacityFull, Mark::kEarlierAttemptAppliedLate,
                        Mark::kGenerationExhausted, Mark::kRouteCacheHit};
    return c;
  }
  if (name == "lease-pause") {
    AuthorityScenarioConfig c = base("lease-pause", "owners freeze longer than their owner lease while others take over");
    c.plan = only_pauses;
    c.swarm = pauses_shape(c.protocol.owner_lease_ttl_us);
    // A message reaches an owner whose admission closed while it was frozen: not run (§5).
    c.required_marks = {Mark::kDescriptorTakeover, Mark::kContentionRetry, Mark::kTurnRefusedAdmission};
    return c;
  }
  if (name == "store-outage") {
    AuthorityScenarioConfig c = base("store-outage", "store outages, lost requests, lost and late replies");
    c.plan = store_trouble;
    c.swarm = store_trouble_shape();
    c.required_marks = {Mark::kIndeterminateResolvedApplied, Mark::kIndeterminateResolvedNotApplied,
                        Mark::kIndeterminateResolvedSuperseded,
                        Mark::kIndeterminateUnresolved, Mark::kEarlierAttemptAppliedLate, Mark::kLeaseLostInReread,
                        Mark::kRenewFaultHit, Mark::kTurnRefusedAdmission};
    return c;
  }
  if (name == "churn") {
    AuthorityScenarioConfig c = base("churn", "nodes killed and restarted as new host runs while they create");
    c.plan = churn;
    c.swarm = churn_shape();
    // Besides the kills, graceful shutdowns: the owner sweep (§11) under the churn's faults.
    c.workload.shutdown_probability = 0.01;
    // And host runs started with an owner-lease timing at the §5 boundary (one in ten).
    c.workload.boundary_timing_probability = 0.1;
    // Descriptor changes between kills: a new host run's Revisions start again at 1 (§4).
    c.workload.descriptor_update_probability = 0.01;
    c.required_marks = {Mark::kDescriptorTakeover, Mark::kIndeterminateResolvedApplied, Mark::kOwnerSweepDeleted,
                        Mark::kStartupRefused, Mark::kScanExpiredRestart, Mark::kOwnerSweepRowChanged,
                        Mark::kRouteCacheDropped};
    return c;
  }
  if (name == "relocation") {
    AuthorityScenarioConfig c = base(
        "relocation", "host maintenance: owners move their actors to other nodes while clients keep sending");
    c.workload.relocate_probability = 0.6;
    // Every request on another host run's object is a message, most of them bursts of Sends.
    c.workload.message_probability = 1.0;
    c.workload.post_probability = 0.6;
    // Long bursts of Sends with gaps (up to 8, 30 ms apart): one sender's stream straddles a move's
    // capture, handover and CAS, so §9.2's order is what keeps it.
    c.workload.post_burst_max = 8;
    c.workload.post_gap_max_us = millis(30);
    // The application's restore on the target takes up to 300 ms: the source waits for relay-ready
    // that long, and a pause may freeze it there.
    c.workload.restore_max_us = millis(300);
    // A third of the message turns start a timer callback up to 2 s later: a move carries the
    // timers not yet run (§1.3 step 3) and the target arms them (object-timers).
    c.workload.timer_probability = 0.3;
    c.workload.timer_delay_max_us = seconds(2);
    // One host run in eight registers Player with DisableRelocation and one in five of the others
    // with RecreateOnRelocation (§2): moves from or to the first are rejected before Capture, moves
    // between the second carry no application state, the rest carry it (PreserveStateWith).
    c.workload.disable_relocation_probability = 0.125;
    c.workload.recreate_probability = 0.2;
    c.workload.delete_probability = 0.02;
    c.workload.think_min_us = millis(20);
    c.workload.think_max_us = millis(300);
    // Every lookup reads the row: a sender's next Send follows the move as soon as the row does,
    // so it may reach the target while an older one is still in the source's relay (§9.2's order).
    c.protocol.route_cache_max_age_us = 0;
    c.plan = relocation_trouble;
    c.swarm = relocation_shape();
    c.required_marks = {Mark::kRelocationCancelled,      Mark::kRelocationCutoverWait,
                        Mark::kRelocationLateRelay,      Mark::kRelocationCutoverRefused,
                        Mark::kRelocationTargetFailed,   Mark::kRelocationFollowed,
                        Mark::kRelocationTimersMoved,    Mark::kRelocationRejected,
                        Mark::kRelocationStateRestored,  Mark::kRelocationRecreated,
                        Mark::kTurnRefusedAdmission,     Mark::kSendRan};
    // Shorter than the others (55 s, not 100 s): moves are many and quick; the liveness window
    // still outlasts every Restore deadline and a lease TTL.
    c.faults_stop_us = seconds(30);
    c.liveness_window_us = seconds(25);
    c.workload.traffic_stop_us = seconds(40);
    return c;
  }
  SPOTCHECK_ASSERT_ABORT(false && "unknown location scenario");
  return base(name, "");
}

}  // namespace

AuthorityScenarioConfig authority_scenario_config(const std::string& name) {
  return with_node_traffic(named_config(name));
}

std::vector<std::unique_ptr<Scenario>> make_authority_scenarios() {
  std::vector<std::unique_ptr<Scenario>> out;
  for (const char* name : {"default", "authority-race", "lease-pause", "store-outage", "churn", "relocation"}) {
    out.push_back(std::make_unique<AuthorityScenario>(authority_scenario_config(name)));
  }
  return out;
}

}  // namespace spotcheck::scenarios::authority
