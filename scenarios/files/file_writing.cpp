#include "scenarios/files/file_writing.h"

#include <cmath>
#include <limits>

namespace spotcheck::scenarios::files::detail {

namespace {

// {"gapMs": .., "<second>Ms": ..}; only a window whose gap and length are both set is written.
void write_window(ordered_json& faults, const char* key, const char* second, TimeUs gap_us, TimeUs second_us) {
  if (gap_us > 0 && second_us > 0) {
    faults[key] = ordered_json{{"gapMs", millis_of(gap_us)}, {second, millis_of(second_us)}};
  }
}

}  // namespace

// The nearest double may land a hair below the whole microsecond: step up by ulps until it does not.
double seconds_of(TimeUs us) {
  constexpr int kUlpStepsMax = 8;
  double s = static_cast<double>(us) / 1e6;
  for (int i = 0; i < kUlpStepsMax && static_cast<TimeUs>(s * 1e6) < us; ++i) {
    s = std::nextafter(s, std::numeric_limits<double>::infinity());
  }
  return s;
}
std::int64_t millis_of(TimeUs us) { return us / platform::kMicrosPerMilli; }

ordered_json write_faults(const faults::FaultPlan& plan) {
  ordered_json f = ordered_json::object();
  if (plan.store_request_loss > 0.0) {
    f["storeRequestLoss"] = plan.store_request_loss;
  }
  if (plan.store_reply_loss > 0.0) {
    f["storeReplyLoss"] = plan.store_reply_loss;
  }
  if (plan.store_reply_delay > 0.0) {
    f["storeReplyDelay"] = plan.store_reply_delay;
  }
  if (plan.store_renew_loss > 0.0) {
    f["storeRenewLoss"] = plan.store_renew_loss;
  }
  if (plan.store_scan_expiry > 0.0) {
    f["storeScanExpiry"] = plan.store_scan_expiry;
  }
  write_window(f, "storeOutage", "lengthMs", plan.store_outage_gap_us, plan.store_outage_length_us);
  write_window(f, "storeStall", "lengthMs", plan.store_stall_gap_us, plan.store_stall_length_us);
  if (plan.store_late_apply > 0.0) {
    f["storeLateApply"] = ordered_json{{"probability", plan.store_late_apply},
                                       {"maxMs", millis_of(plan.store_late_apply_max_us)}};
  }
  if (plan.link_tail > 0.0) {
    f["linkTail"] = ordered_json{{"probability", plan.link_tail}, {"maxMs", millis_of(plan.link_tail_max_us)}};
  }
  if (plan.node_pause_on_reply > 0.0) {
    f["nodePauseOnReply"] = ordered_json{{"probability", plan.node_pause_on_reply},
                                          {"maxMs", millis_of(plan.node_pause_on_reply_max_us)}};
  }
  if (plan.node_freeze_drop > 0.0) {
    f["nodeFreezeDrop"] = ordered_json{{"probability", plan.node_freeze_drop},
                                        {"maxMs", millis_of(plan.node_freeze_drop_max_us)}};
  }
  if (plan.store_payload_damage > 0.0) {
    f["storePayloadDamage"] = plan.store_payload_damage;
  }
  if (plan.node_crash_point > 0.0) {
    f["nodeCrashPoint"] = ordered_json{{"probability", plan.node_crash_point},
                                        {"maxMs", millis_of(plan.node_crash_point_down_max_us)}};
  }
  if (plan.node_message_loss > 0.0) {
    f["nodeMessageLoss"] = plan.node_message_loss;
  }
  if (plan.node_message_delay_max_us > 0) {
    f["nodeMessageDelayMaxMs"] = millis_of(plan.node_message_delay_max_us);
  }
  write_window(f, "nodePartition", "lengthMs", plan.node_partition_gap_us, plan.node_partition_length_us);
  write_window(f, "nodeLinkStall", "lengthMs", plan.node_link_stall_gap_us, plan.node_link_stall_length_us);
  write_window(f, "nodeKill", "downMs", plan.node_kill_gap_us, plan.node_down_us);
  write_window(f, "nodePause", "maxMs", plan.node_pause_gap_us, plan.node_pause_max_us);
  if (plan.network_loss > 0.0) {
    f["networkLoss"] = plan.network_loss;
  }
  write_window(f, "networkPartition", "lengthMs", plan.partition_gap_us, plan.partition_length_us);
  if (plan.clock_drift_max_ppm > 0) {
    f["clockDriftMaxPpm"] = plan.clock_drift_max_ppm;
  }
  return f;
}

void compare_plans(Differences& d, const faults::FaultPlan& a, const faults::FaultPlan& b) {
  d.check("faults.storeRequestLoss", a.store_request_loss, b.store_request_loss);
  d.check("faults.storeReplyLoss", a.store_reply_loss, b.store_reply_loss);
  d.check("faults.storeReplyDelay", a.store_reply_delay, b.store_reply_delay);
  d.check("faults.storeRenewLoss", a.store_renew_loss, b.store_renew_loss);
  d.check("faults.storeScanExpiry", a.store_scan_expiry, b.store_scan_expiry);
  d.check("faults.storeOutage.gap_us", a.store_outage_gap_us, b.store_outage_gap_us);
  d.check("faults.storeOutage.length_us", a.store_outage_length_us, b.store_outage_length_us);
  d.check("faults.storeStall.gap_us", a.store_stall_gap_us, b.store_stall_gap_us);
  d.check("faults.storeStall.length_us", a.store_stall_length_us, b.store_stall_length_us);
  d.check("faults.storeLateApply.probability", a.store_late_apply, b.store_late_apply);
  d.check("faults.storeLateApply.max_us", a.store_late_apply_max_us, b.store_late_apply_max_us);
  d.check("faults.nodePauseOnReply.probability", a.node_pause_on_reply, b.node_pause_on_reply);
  d.check("faults.nodePauseOnReply.max_us", a.node_pause_on_reply_max_us, b.node_pause_on_reply_max_us);
  d.check("faults.nodeFreezeDrop.probability", a.node_freeze_drop, b.node_freeze_drop);
  d.check("faults.nodeFreezeDrop.max_us", a.node_freeze_drop_max_us, b.node_freeze_drop_max_us);
  d.check("faults.nodeCrashPoint.probability", a.node_crash_point, b.node_crash_point);
  d.check("faults.nodeCrashPoint.max_us", a.node_crash_point_down_max_us, b.node_crash_point_down_max_us);
  d.check("faults.storePayloadDamage", a.store_payload_damage, b.store_payload_damage);
  d.check("faults.linkTail.probability", a.link_tail, b.link_tail);
  d.check("faults.linkTail.max_us", a.link_tail_max_us, b.link_tail_max_us);
  d.check("faults.nodeMessageLoss", a.node_message_loss, b.node_message_loss);
  d.check("faults.nodeMessageDelayMaxMs", a.node_message_delay_max_us, b.node_message_delay_max_us);
  d.check("faults.nodePartition.gap_us", a.node_partition_gap_us, b.node_partition_gap_us);
  d.check("faults.nodePartition.length_us", a.node_partition_length_us, b.node_partition_length_us);
  d.check("faults.nodeLinkStall.gap_us", a.node_link_stall_gap_us, b.node_link_stall_gap_us);
  d.check("faults.nodeLinkStall.length_us", a.node_link_stall_length_us, b.node_link_stall_length_us);
  d.check("faults.nodeKill.gap_us", a.node_kill_gap_us, b.node_kill_gap_us);
  d.check("faults.nodeKill.down_us", a.node_down_us, b.node_down_us);
  d.check("faults.nodePause.gap_us", a.node_pause_gap_us, b.node_pause_gap_us);
  d.check("faults.nodePause.max_us", a.node_pause_max_us, b.node_pause_max_us);
  d.check("faults.networkLoss", a.network_loss, b.network_loss);
  d.check("faults.networkPartition.gap_us", a.partition_gap_us, b.partition_gap_us);
  d.check("faults.networkPartition.length_us", a.partition_length_us, b.partition_length_us);
  d.check("faults.clockDriftMaxPpm", a.clock_drift_max_ppm, b.clock_drift_max_ppm);
  d.check("faults.faults_stop_us", a.faults_stop_us, b.faults_stop_us);
}

}  // namespace spotcheck::scenarios::files::detail
