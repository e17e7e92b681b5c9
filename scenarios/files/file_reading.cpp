#include "scenarios/files/file_reading.h"

#include "impl/check/check.h"

namespace spotcheck::scenarios::files::detail {

namespace {

// {"gapMs": .., "<second>Ms": ..}
void read_window(ObjectReader& parent, std::string_view key, std::string_view second, TimeUs& gap_us,
                 TimeUs& second_us) {
  const json* v = parent.find(key);
  if (v == nullptr) {
    return;
  }
  ObjectReader r(*v, parent.child(key), parent.origin());
  gap_us = platform::seconds(10);
  second_us = platform::seconds(1);
  r.millis("gapMs", gap_us, 1, kHourMs);
  r.millis(second, second_us, 1, kHourMs);
  r.reject_unknown_keys();
}

// {"probability": .., "maxMs": ..}: writes applied after their caller gave up (storeLateApply), a
// long tail of link latency (linkTail).
void read_chance_and_max(ObjectReader& parent, std::string_view key, double& probability, TimeUs& max_us) {
  const json* v = parent.find(key);
  if (v == nullptr) {
    return;
  }
  ObjectReader r(*v, parent.child(key), parent.origin());
  probability = 0.01;
  max_us = platform::seconds(1);
  r.number("probability", probability, 0, 1, false);
  r.millis("maxMs", max_us, 1, kHourMs);
  r.reject_unknown_keys();
}

}  // namespace

planted::PlantedBugs read_planted_bugs(const ObjectReader& top, const json& value, ScenarioFamily family,
                                       const std::string& base) {
  const auto known = [](const std::string& name) { return find_planted_bug(name) != nullptr; };
  const std::vector<std::string> names =
      read_names(top, value, "plantedBugs", known, joined_names(planted_bugs()));
  planted::PlantedBugs bugs;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string item = top.child("plantedBugs") + "[" + std::to_string(i) + "]";
    if (!planted::kPlantedBugsCompiled) {
      top.fail(item, "\"" + names[i] + "\" cannot be planted: this spotcheck was built with SPOTCHECK_PLANTED_BUGS=OFF");
    }
    const PlantedBugInfo& info = *find_planted_bug(names[i]);
    if (!info.plantable_in(family)) {
      top.fail(item, "\"" + names[i] + "\" cannot be planted in " + a_scenario_of(family) + " (base \"" + base + "\"); it is caught in " + std::string(info.caught_in));
    }
    bugs.insert(info.bug);
  }
  return bugs;
}

void plant(const planted::PlantedBugs& bugs, spotcheck::location::LocationConfig& protocol,
           spotcheck::location::creation::CreationConfig* creation) {
  for (const PlantedBugInfo& info : planted_bugs()) {
    if (!bugs.contains(info.bug)) {
      continue;
    }
    if (info.planted_in == PlantedIn::kLocationConfig) {
      protocol.planted_bugs.insert(info.bug);
    } else {
      SPOTCHECK_ASSERT_ABORT(creation != nullptr);  // read_planted_bugs refused it for a Location file
      creation->planted_bugs.insert(info.bug);
    }
  }
}

Phases read_phases(ObjectReader& top, Phases current) {
  double faults_s = static_cast<double>(current.faults_stop_us) / 1e6;
  double liveness_s = static_cast<double>(current.liveness_window_us) / 1e6;
  double traffic_s = static_cast<double>(current.traffic_stop_us) / 1e6;
  top.number("faultsSeconds", faults_s, 0, 86'400, false);
  top.number("livenessSeconds", liveness_s, 0, 86'400, false);
  top.number("trafficSeconds", traffic_s, 0, 172'800, false);
  Phases phases{static_cast<TimeUs>(faults_s * 1e6), static_cast<TimeUs>(liveness_s * 1e6),
                static_cast<TimeUs>(traffic_s * 1e6)};
  if (phases.traffic_stop_us > phases.faults_stop_us + phases.liveness_window_us) {
    top.fail("trafficSeconds", "must not exceed faultsSeconds + livenessSeconds (requests must end in the liveness window)");
  }
  return phases;
}

faults::FaultPlan read_faults(ObjectReader& parent, const json& v, TimeUs stop_us) {
  if (v.is_string()) {
    const auto name = v.get<std::string>();
    if (name == "standard") {
      return faults::FaultPlan::standard(stop_us);
    }
    if (name == "none") {
      return faults::FaultPlan::none();
    }
    parent.fail(parent.child("faults"), "must be \"standard\", \"none\" or an object, not \"" + name + "\"");
  }
  ObjectReader r(v, parent.child("faults"), parent.origin());
  faults::FaultPlan plan;
  r.number("storeRequestLoss", plan.store_request_loss, 0, 1, false);
  r.number("storeReplyLoss", plan.store_reply_loss, 0, 1, false);
  r.number("storeReplyDelay", plan.store_reply_delay, 0, 1, false);
  r.number("storeRenewLoss", plan.store_renew_loss, 0, 1, false);
  r.number("storeScanExpiry", plan.store_scan_expiry, 0, 1, false);
  read_window(r, "storeOutage", "lengthMs", plan.store_outage_gap_us, plan.store_outage_length_us);
  read_window(r, "storeStall", "lengthMs", plan.store_stall_gap_us, plan.store_stall_length_us);
  read_chance_and_max(r, "storeLateApply", plan.store_late_apply, plan.store_late_apply_max_us);
  read_chance_and_max(r, "linkTail", plan.link_tail, plan.link_tail_max_us);
  read_chance_and_max(r, "nodePauseOnReply", plan.node_pause_on_reply, plan.node_pause_on_reply_max_us);
  read_chance_and_max(r, "nodeFreezeDrop", plan.node_freeze_drop, plan.node_freeze_drop_max_us);
  read_chance_and_max(r, "nodeCrashPoint", plan.node_crash_point, plan.node_crash_point_down_max_us);  // maxMs: down
  r.number("storePayloadDamage", plan.store_payload_damage, 0, 1, false);
  r.number("nodeMessageLoss", plan.node_message_loss, 0, 1, false);
  r.millis("nodeMessageDelayMaxMs", plan.node_message_delay_max_us, 0, kHourMs);
  read_window(r, "nodePartition", "lengthMs", plan.node_partition_gap_us, plan.node_partition_length_us);
  read_window(r, "nodeLinkStall", "lengthMs", plan.node_link_stall_gap_us, plan.node_link_stall_length_us);
  read_window(r, "nodeKill", "downMs", plan.node_kill_gap_us, plan.node_down_us);
  read_window(r, "nodePause", "maxMs", plan.node_pause_gap_us, plan.node_pause_max_us);
  r.number("networkLoss", plan.network_loss, 0, 1, false);
  read_window(r, "networkPartition", "lengthMs", plan.partition_gap_us, plan.partition_length_us);
  r.number("clockDriftMaxPpm", plan.clock_drift_max_ppm, 0, 1000);
  r.reject_unknown_keys();
  return plan;
}

}  // namespace spotcheck::scenarios::files::detail
