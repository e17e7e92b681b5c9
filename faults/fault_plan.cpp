#include "faults/fault_plan.h"

#include <array>

#include "impl/check/check.h"
#include "sim/time/time_text.h"

namespace spotcheck::faults {

namespace {

constexpr std::array<FaultKindInfo, 26> kFaultKinds{{
    {FaultKind::kStoreRequestLost, "store-request-lost", "a store request never reaches the store"},
    {FaultKind::kStoreReplyLost, "store-reply-lost", "the store applies a request, its reply is lost (indeterminate)"},
    {FaultKind::kStoreReplyDelayed, "store-reply-delayed", "a store reply arrives after the caller's deadline"},
    {FaultKind::kStoreOutage, "store-outage", "the store refuses every request for a window"},
    {FaultKind::kNodeKill, "node-kill", "a node dies and restarts later as a new host run"},
    {FaultKind::kNodePause, "node-pause", "a node freezes while time moves, at times longer than its owner lease"},
    {FaultKind::kNetworkLoss, "network-loss", "messages on the links between nodes and the store are dropped"},
    {FaultKind::kNetworkPartition, "network-partition", "a node is cut off from the store, both ways or one way, for a window"},
    {FaultKind::kClockDrift, "clock-drift", "node clocks run fast or slow within configured bounds"},
    {FaultKind::kNodeMessageLoss, "node-message-loss", "messages between nodes (node-to-node commands) are dropped"},
    {FaultKind::kNodeMessageDelay, "node-message-delay", "messages between nodes take up to a drawn latency (a long tail)"},
    {FaultKind::kNodePartition, "node-partition", "two nodes cannot reach each other, both ways or one way, for a window"},
    {FaultKind::kStoreDeleteSlow, "store-delete-slow", "the store holds a write that deletes a record before it applies it"},
    {FaultKind::kStoreLateApply, "store-late-apply", "the store applies a write after its caller gave up, before or after its re-read"},
    {FaultKind::kStoreStall, "store-stall", "the store stalls for a window: requests queue, then apply in order"},
    {FaultKind::kLinkTail, "link-tail", "every link's latency has a long tail: now and then a message takes up to seconds"},
    {FaultKind::kNodeLinkStall, "node-link-stall", "a link between two nodes holds its messages for a window, then delivers them in order"},
    {FaultKind::kStoreRenewLost, "store-renew-lost", "an owner lease renew is lost, applied with its reply lost, refused, or applied late, while reads still succeed"},
    {FaultKind::kNodePauseOnReply, "node-pause-on-reply", "a node freezes as a store reply reaches it, before it acts on it, at times past its owner lease"},
    {FaultKind::kNodeFreezeDrop, "node-freeze-drop", "a node freezes with a store request in flight, which is lost or whose reply is lost"},
    {FaultKind::kStoreScanExpired, "store-scan-expired", "the store pages scans small and forgets a scan between its pages (ScanExpired)"},
    {FaultKind::kNodeCrashPoint, "node-crash-point", "a node dies at a crash point of cold activation (after the payload, after Creating, after Ready) and restarts"},
    {FaultKind::kStorePayloadDamage, "store-payload-damage", "a stored payload read again turns invisible for a while, is lost, or is corrupted (§10 DataLost)"},
    {FaultKind::kStoreClockJump, "store-clock-jump", "out of contract: the store's clock jumps forward (a failover to a replica with another clock)"},
    {FaultKind::kStoreLostWrites, "store-lost-writes", "out of contract: the store loses writes it acknowledged lately (a failover to a lagging replica)"},
    {FaultKind::kNodeClockStep, "node-clock-step", "out of contract: a node's monotonic clock steps back or forward"},
}};

// The kinds a shape draws only when it lists them (SwarmShape::also).
bool opt_in_kind(FaultKind kind) {
  return kind == FaultKind::kNodeMessageLoss || kind == FaultKind::kNodeMessageDelay ||
         kind == FaultKind::kNodePartition || kind == FaultKind::kStoreDeleteSlow ||
         kind == FaultKind::kStoreLateApply || kind == FaultKind::kStoreStall || kind == FaultKind::kLinkTail ||
         kind == FaultKind::kNodeLinkStall || kind == FaultKind::kStoreRenewLost ||
         kind == FaultKind::kNodePauseOnReply || kind == FaultKind::kNodeFreezeDrop ||
         kind == FaultKind::kStoreScanExpired || kind == FaultKind::kNodeCrashPoint ||
         kind == FaultKind::kStorePayloadDamage;
}

// A kind that runs in windows: the mean gap between them and a window's length.
struct Window {
  TimeUs gap_us = 0;
  TimeUs length_us = 0;
};

// Swarm: one fault kind's switch (on with probability 1/2, or always), then its intensity, both
// always drawn so one kind's draws never shift another's. The intensity when on, zero (a
// value-initialized one) when off.
template <class DrawIntensity>
auto draw_kind(platform::Random& random, bool always, DrawIntensity draw_intensity) {
  const bool coin = random.chance(0.5);
  const auto intensity = draw_intensity();
  return coin || always ? intensity : decltype(draw_intensity()){};
}

// One draw of a rate in the shape's range, and of a window kind's gap, then its length.
double draw_rate(platform::Random& random, const SwarmShape::Rate& range) {
  return range.lo + (range.hi - range.lo) * static_cast<double>(random.below(1'000'001)) / 1e6;
}

Window draw_window(platform::Random& random, const SwarmShape::Window& range) {
  const TimeUs gap_us = random.between(range.gap_lo_us, range.gap_hi_us);
  const TimeUs length_us = random.between(range.length_lo_us, range.length_hi_us);
  return Window{gap_us, length_us};
}

bool valid_span(TimeUs lo_us, TimeUs hi_us) { return 0 < lo_us && lo_us <= hi_us; }

bool valid_rate(const SwarmShape::Rate& rate) { return 0.0 < rate.lo && rate.lo <= rate.hi && rate.hi <= 1.0; }

bool valid_window(const SwarmShape::Window& window) {
  return 0 < window.gap_lo_us && window.gap_lo_us <= window.gap_hi_us && 0 < window.length_lo_us &&
         window.length_lo_us <= window.length_hi_us;
}

}  // namespace

std::span<const FaultKindInfo> all_fault_kinds() { return kFaultKinds; }

bool SwarmShape::always_on(FaultKind kind) const {
  for (const FaultKind on : always) {
    if (on == kind) {
      return true;
    }
  }
  return false;
}

bool is_out_of_contract(FaultKind kind) {
  return kind == FaultKind::kStoreClockJump || kind == FaultKind::kStoreLostWrites || kind == FaultKind::kNodeClockStep;
}

bool SwarmShape::drawn(FaultKind kind) const {
  if (is_out_of_contract(kind)) {
    return false;
  }
  if (!opt_in_kind(kind) || always_on(kind)) {
    return true;
  }
  for (const FaultKind listed : also) {
    if (listed == kind) {
      return true;
    }
  }
  return false;
}

bool SwarmShape::valid() const {
  for (const std::vector<FaultKind>* kinds : {&always, &also}) {
    for (const FaultKind kind : *kinds) {
      if (is_out_of_contract(kind)) {
        return false;  // drawn only by faults/out_of_contract.h
      }
    }
  }
  return valid_rate(store_request_loss) && valid_rate(store_reply_loss) && valid_rate(store_reply_delay) &&
         valid_window(store_outage) && valid_window(node_kill) && valid_window(node_pause) &&
         valid_rate(network_loss) && valid_window(network_partition) && 0 < clock_drift_lo_ppm &&
         clock_drift_lo_ppm <= clock_drift_hi_ppm && valid_rate(node_message_loss) &&
         valid_span(node_message_delay_lo_us, node_message_delay_hi_us) && valid_window(node_partition) &&
         valid_span(store_delete_hold_lo_us, store_delete_hold_hi_us) && valid_rate(store_late_apply) &&
         valid_span(store_late_apply_lo_us, store_late_apply_hi_us) && valid_window(store_stall) &&
         valid_rate(link_tail) && valid_span(link_tail_lo_us, link_tail_hi_us) && valid_window(node_link_stall) &&
         valid_rate(store_renew_loss) && valid_rate(node_pause_on_reply) &&
         valid_span(node_pause_on_reply_lo_us, node_pause_on_reply_hi_us) && valid_rate(node_freeze_drop) &&
         valid_span(node_freeze_drop_lo_us, node_freeze_drop_hi_us) && valid_rate(store_scan_expiry) &&
         valid_rate(node_crash_point) && valid_span(node_crash_point_down_lo_us, node_crash_point_down_hi_us) &&
         valid_rate(store_payload_damage);
}

const char* to_string(FaultKind kind) {
  for (const auto& info : kFaultKinds) {
    if (info.kind == kind) {
      return info.name;
    }
  }
  SPOTCHECK_ASSERT_ABORT(false && "unknown fault kind");
  return "?";
}

FaultKind fault_kind_named(std::string_view name) {
  for (const auto& info : kFaultKinds) {
    if (name == info.name) {
      return info.kind;
    }
  }
  SPOTCHECK_ASSERT_ABORT(false && "no fault kind of that name");
  return FaultKind::kStoreRequestLost;
}

bool FaultPlan::enabled(FaultKind kind) const {
  switch (kind) {
    case FaultKind::kStoreRequestLost: return store_request_loss > 0.0;
    case FaultKind::kStoreReplyLost: return store_reply_loss > 0.0;
    case FaultKind::kStoreReplyDelayed: return store_reply_delay > 0.0;
    case FaultKind::kStoreOutage: return store_outage_gap_us > 0 && store_outage_length_us > 0;
    case FaultKind::kNodeKill: return node_kill_gap_us > 0;
    case FaultKind::kNodePause: return node_pause_gap_us > 0 && node_pause_max_us > 0;
    case FaultKind::kNetworkLoss: return network_loss > 0.0;
    case FaultKind::kNetworkPartition: return partition_gap_us > 0 && partition_length_us > 0;
    case FaultKind::kClockDrift: return clock_drift_max_ppm > 0;
    case FaultKind::kNodeMessageLoss: return node_message_loss > 0.0;
    case FaultKind::kNodeMessageDelay: return node_message_delay_max_us > 0;
    case FaultKind::kNodePartition: return node_partition_gap_us > 0 && node_partition_length_us > 0;
    case FaultKind::kStoreDeleteSlow: return store_delete_hold_max_us > 0;
    case FaultKind::kStoreLateApply: return store_late_apply > 0.0;
    case FaultKind::kStoreStall: return store_stall_gap_us > 0 && store_stall_length_us > 0;
    case FaultKind::kLinkTail: return link_tail > 0.0 && link_tail_max_us > 0;
    case FaultKind::kNodeLinkStall: return node_link_stall_gap_us > 0 && node_link_stall_length_us > 0;
    case FaultKind::kStoreRenewLost: return store_renew_loss > 0.0;
    case FaultKind::kNodePauseOnReply: return node_pause_on_reply > 0.0 && node_pause_on_reply_max_us > 0;
    case FaultKind::kNodeFreezeDrop: return node_freeze_drop > 0.0 && node_freeze_drop_max_us > 0;
    case FaultKind::kStoreScanExpired: return store_scan_expiry > 0.0;
    case FaultKind::kNodeCrashPoint: return node_crash_point > 0.0 && node_crash_point_down_max_us > 0;
    case FaultKind::kStorePayloadDamage: return store_payload_damage > 0.0;
    case FaultKind::kStoreClockJump: return store_clock_jump_gap_us > 0 && store_clock_jump_max_us > 0;
    case FaultKind::kStoreLostWrites: return store_lost_writes_gap_us > 0 && store_lost_writes_lag_us > 0;
    case FaultKind::kNodeClockStep: return node_clock_step_gap_us > 0 && node_clock_step_max_us > 0;
  }
  return false;
}

FaultPlan FaultPlan::without(FaultKind kind) const {
  FaultPlan plan = *this;
  switch (kind) {
    case FaultKind::kStoreRequestLost:
      plan.store_request_loss = 0.0;
      break;
    case FaultKind::kStoreReplyLost:
      plan.store_reply_loss = 0.0;
      break;
    case FaultKind::kStoreReplyDelayed:
      plan.store_reply_delay = 0.0;
      break;
    case FaultKind::kStoreOutage:
      plan.store_outage_gap_us = 0;
      plan.store_outage_length_us = 0;
      break;
    case FaultKind::kNodeKill:
      plan.node_kill_gap_us = 0;
      plan.node_down_us = 0;
      break;
    case FaultKind::kNodePause:
      plan.node_pause_gap_us = 0;
      plan.node_pause_max_us = 0;
      break;
    case FaultKind::kNetworkLoss:
      plan.network_loss = 0.0;
      break;
    case FaultKind::kNetworkPartition:
      plan.partition_gap_us = 0;
      plan.partition_length_us = 0;
      break;
    case FaultKind::kClockDrift:
      plan.clock_drift_max_ppm = 0;
      break;
    case FaultKind::kNodeMessageLoss:
      plan.node_message_loss = 0.0;
      break;
    case FaultKind::kNodeMessageDelay:
      plan.node_message_delay_max_us = 0;
      break;
    case FaultKind::kNodePartition:
      plan.node_partition_gap_us = 0;
      plan.node_partition_length_us = 0;
      break;
    case FaultKind::kStoreDeleteSlow:
      plan.store_delete_hold_max_us = 0;
      break;
    case FaultKind::kStoreLateApply:
      plan.store_late_apply = 0.0;
      plan.store_late_apply_max_us = 0;
      break;
    case FaultKind::kStoreRenewLost:
      plan.store_renew_loss = 0.0;
      break;
    case FaultKind::kNodePauseOnReply:
      plan.node_pause_on_reply = 0.0;
      plan.node_pause_on_reply_max_us = 0;
      break;
    case FaultKind::kNodeFreezeDrop:
      plan.node_freeze_drop = 0.0;
      plan.node_freeze_drop_max_us = 0;
      break;
    case FaultKind::kStoreScanExpired:
      plan.store_scan_expiry = 0.0;
      break;
    case FaultKind::kNodeCrashPoint:
      plan.node_crash_point = 0.0;
      plan.node_crash_point_down_max_us = 0;
      break;
    case FaultKind::kStorePayloadDamage:
      plan.store_payload_damage = 0.0;
      break;
    case FaultKind::kStoreStall:
      plan.store_stall_gap_us = 0;
      plan.store_stall_length_us = 0;
      break;
    case FaultKind::kLinkTail:
      plan.link_tail = 0.0;
      plan.link_tail_max_us = 0;
      break;
    case FaultKind::kNodeLinkStall:
      plan.node_link_stall_gap_us = 0;
      plan.node_link_stall_length_us = 0;
      break;
    case FaultKind::kStoreClockJump:
      plan.store_clock_jump_gap_us = 0;
      plan.store_clock_jump_max_us = 0;
      break;
    case FaultKind::kStoreLostWrites:
      plan.store_lost_writes_gap_us = 0;
      plan.store_lost_writes_lag_us = 0;
      break;
    case FaultKind::kNodeClockStep:
      plan.node_clock_step_gap_us = 0;
      plan.node_clock_step_max_us = 0;
      break;
  }
  SPOTCHECK_ASSERT_ABORT(!plan.enabled(kind));
  return plan;
}

std::string FaultPlan::describe() const {
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
  for (const auto& info : kFaultKinds) {
    if (!enabled(info.kind)) {
      continue;
    }
    switch (info.kind) {
      case FaultKind::kStoreRequestLost: add(std::string(info.name) + "=" + sim::probability_text(store_request_loss)); break;
      case FaultKind::kStoreReplyLost: add(std::string(info.name) + "=" + sim::probability_text(store_reply_loss)); break;
      case FaultKind::kStoreReplyDelayed: add(std::string(info.name) + "=" + sim::probability_text(store_reply_delay)); break;
      case FaultKind::kStoreOutage:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(store_outage_gap_us) + ",length=" + sim::seconds_short(store_outage_length_us) + ")");
        break;
      case FaultKind::kNodeKill:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(node_kill_gap_us) + ",down=" + sim::seconds_short(node_down_us) + ")");
        break;
      case FaultKind::kNodePause:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(node_pause_gap_us) + ",max=" + sim::seconds_short(node_pause_max_us) + ")");
        break;
      case FaultKind::kNetworkLoss: add(std::string(info.name) + "=" + sim::probability_text(network_loss)); break;
      case FaultKind::kNetworkPartition:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(partition_gap_us) + ",length=" + sim::seconds_short(partition_length_us) + ")");
        break;
      case FaultKind::kClockDrift: add(std::string(info.name) + "=" + std::to_string(clock_drift_max_ppm) + "ppm"); break;
      case FaultKind::kNodeMessageLoss: add(std::string(info.name) + "=" + sim::probability_text(node_message_loss)); break;
      case FaultKind::kNodeMessageDelay: add(std::string(info.name) + "(max=" + sim::seconds_short(node_message_delay_max_us) + ")"); break;
      case FaultKind::kNodePartition:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(node_partition_gap_us) + ",length=" + sim::seconds_short(node_partition_length_us) + ")");
        break;
      case FaultKind::kStoreDeleteSlow: add(std::string(info.name) + "(max=" + sim::seconds_short(store_delete_hold_max_us) + ")"); break;
      case FaultKind::kStoreLateApply:
        add(std::string(info.name) + "=" + sim::probability_text(store_late_apply) + "(max=" + sim::seconds_short(store_late_apply_max_us) + ")");
        break;
      case FaultKind::kStoreStall:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(store_stall_gap_us) + ",length=" + sim::seconds_short(store_stall_length_us) + ")");
        break;
      case FaultKind::kLinkTail:
        add(std::string(info.name) + "=" + sim::probability_text(link_tail) + "(max=" + sim::seconds_short(link_tail_max_us) + ")");
        break;
      case FaultKind::kNodeLinkStall:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(node_link_stall_gap_us) + ",length=" + sim::seconds_short(node_link_stall_length_us) + ")");
        break;
      case FaultKind::kStoreRenewLost: add(std::string(info.name) + "=" + sim::probability_text(store_renew_loss)); break;
      case FaultKind::kNodePauseOnReply:
        add(std::string(info.name) + "=" + sim::probability_text(node_pause_on_reply) + "(max=" +
            sim::seconds_short(node_pause_on_reply_max_us) + ")");
        break;
      case FaultKind::kNodeFreezeDrop:
        add(std::string(info.name) + "=" + sim::probability_text(node_freeze_drop) + "(max=" +
            sim::seconds_short(node_freeze_drop_max_us) + ")");
        break;
      case FaultKind::kStoreScanExpired: add(std::string(info.name) + "=" + sim::probability_text(store_scan_expiry)); break;
      case FaultKind::kNodeCrashPoint:
        add(std::string(info.name) + "=" + sim::probability_text(node_crash_point) + "(down=" +
            sim::seconds_short(node_crash_point_down_max_us) + ")");
        break;
      case FaultKind::kStorePayloadDamage:
        add(std::string(info.name) + "=" + sim::probability_text(store_payload_damage));
        break;
      case FaultKind::kStoreClockJump:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(store_clock_jump_gap_us) + ",max=" + sim::seconds_short(store_clock_jump_max_us) + ")");
        break;
      case FaultKind::kStoreLostWrites:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(store_lost_writes_gap_us) + ",lag=" + sim::seconds_short(store_lost_writes_lag_us) + ")");
        break;
      case FaultKind::kNodeClockStep:
        add(std::string(info.name) + "(gap=" + sim::seconds_short(node_clock_step_gap_us) + ",max=" + sim::seconds_short(node_clock_step_max_us) + ")");
        break;
    }
  }
  return out.empty() ? "none" : out;
}

namespace {

// A per-event rate and the longest delay it brings (late write, link tail, pause on reply, freeze): the
// rate drawn first, then the longest delay in [lo_us, hi_us].
struct RateAndMax {
  double rate = 0.0;
  TimeUs max_us = 0;
};
RateAndMax draw_rate_and_max(platform::Random& random, const SwarmShape::Rate& rate, TimeUs lo_us, TimeUs hi_us) {
  const double drawn = draw_rate(random, rate);
  return RateAndMax{drawn, static_cast<TimeUs>(random.between(lo_us, hi_us))};
}

// An opt-in kind (SwarmShape::also): its switch and intensity drawn (draw_kind) only when the shape
// lists it; otherwise nothing is drawn and the intensity is zero.
template <class DrawIntensity>
auto draw_opt_in(platform::Random& random, const SwarmShape& shape, FaultKind kind, DrawIntensity draw_intensity) {
  return shape.drawn(kind) ? draw_kind(random, shape.always_on(kind), draw_intensity) : decltype(draw_intensity()){};
}

// The late write, the store stall, the link tail, the node link stall, the lost renew, the pause
// on reply, the freeze with a lost request, the expiring scan and the crash point (opt-in, in that order), after the
// slow Delete.
FaultPlan with_late_store_kinds(platform::Random& random, const SwarmShape& shape, FaultPlan plan) {
  const RateAndMax late = draw_opt_in(random, shape, FaultKind::kStoreLateApply, [&] {
    return draw_rate_and_max(random, shape.store_late_apply, shape.store_late_apply_lo_us, shape.store_late_apply_hi_us);
  });
  plan.store_late_apply = late.rate;
  plan.store_late_apply_max_us = late.max_us;
  const Window stall =
      draw_opt_in(random, shape, FaultKind::kStoreStall, [&] { return draw_window(random, shape.store_stall); });
  plan.store_stall_gap_us = stall.gap_us;
  plan.store_stall_length_us = stall.length_us;
  const RateAndMax tail = draw_opt_in(random, shape, FaultKind::kLinkTail, [&] {
    return draw_rate_and_max(random, shape.link_tail, shape.link_tail_lo_us, shape.link_tail_hi_us);
  });
  plan.link_tail = tail.rate;
  plan.link_tail_max_us = tail.max_us;
  const Window link_stall =
      draw_opt_in(random, shape, FaultKind::kNodeLinkStall, [&] { return draw_window(random, shape.node_link_stall); });
  plan.node_link_stall_gap_us = link_stall.gap_us;
  plan.node_link_stall_length_us = link_stall.length_us;
  plan.store_renew_loss =
      draw_opt_in(random, shape, FaultKind::kStoreRenewLost, [&] { return draw_rate(random, shape.store_renew_loss); });
  const RateAndMax pause = draw_opt_in(random, shape, FaultKind::kNodePauseOnReply, [&] {
    return draw_rate_and_max(random, shape.node_pause_on_reply, shape.node_pause_on_reply_lo_us,
                             shape.node_pause_on_reply_hi_us);
  });
  plan.node_pause_on_reply = pause.rate;
  plan.node_pause_on_reply_max_us = pause.max_us;
  const RateAndMax freeze = draw_opt_in(random, shape, FaultKind::kNodeFreezeDrop, [&] {
    return draw_rate_and_max(random, shape.node_freeze_drop, shape.node_freeze_drop_lo_us, shape.node_freeze_drop_hi_us);
  });
  plan.node_freeze_drop = freeze.rate;
  plan.node_freeze_drop_max_us = freeze.max_us;
  plan.store_scan_expiry =
      draw_opt_in(random, shape, FaultKind::kStoreScanExpired, [&] { return draw_rate(random, shape.store_scan_expiry); });
  const RateAndMax crash = draw_opt_in(random, shape, FaultKind::kNodeCrashPoint, [&] {
    return draw_rate_and_max(random, shape.node_crash_point, shape.node_crash_point_down_lo_us,
                             shape.node_crash_point_down_hi_us);
  });
  plan.node_crash_point = crash.rate;
  plan.node_crash_point_down_max_us = crash.max_us;
  plan.store_payload_damage = draw_opt_in(random, shape, FaultKind::kStorePayloadDamage,
                                          [&] { return draw_rate(random, shape.store_payload_damage); });
  return plan;
}

// The node-to-node kinds, the slow Delete, the late write and the stall, drawn after every other
// kind and only those the shape lists: a shape that lists none draws exactly what it drew before
// these kinds existed. `plan` holds none of them yet (each is set here, zero when not listed).
FaultPlan with_opt_in_kinds(platform::Random& random, const SwarmShape& shape, FaultPlan plan) {
  plan.node_message_loss =
      draw_opt_in(random, shape, FaultKind::kNodeMessageLoss, [&] { return draw_rate(random, shape.node_message_loss); });
  plan.node_message_delay_max_us = draw_opt_in(random, shape, FaultKind::kNodeMessageDelay, [&] {
    return static_cast<TimeUs>(random.between(shape.node_message_delay_lo_us, shape.node_message_delay_hi_us));
  });
  const Window partition =
      draw_opt_in(random, shape, FaultKind::kNodePartition, [&] { return draw_window(random, shape.node_partition); });
  plan.node_partition_gap_us = partition.gap_us;
  plan.node_partition_length_us = partition.length_us;
  plan.store_delete_hold_max_us = draw_opt_in(random, shape, FaultKind::kStoreDeleteSlow, [&] {
    return static_cast<TimeUs>(random.between(shape.store_delete_hold_lo_us, shape.store_delete_hold_hi_us));
  });
  return with_late_store_kinds(random, shape, plan);
}

}  // namespace

FaultPlan FaultPlan::none() { return FaultPlan{}; }

FaultPlan FaultPlan::standard(TimeUs faults_stop_us) {
  FaultPlan plan;
  plan.store_request_loss = 0.01;
  plan.store_reply_loss = 0.01;
  plan.store_reply_delay = 0.01;
  plan.store_outage_gap_us = platform::seconds(40);
  plan.store_outage_length_us = platform::seconds(2);
  plan.node_kill_gap_us = platform::seconds(30);
  plan.node_down_us = platform::seconds(3);
  plan.node_pause_gap_us = platform::seconds(30);
  plan.node_pause_max_us = platform::seconds(20);
  plan.network_loss = 0.01;
  plan.partition_gap_us = platform::seconds(30);
  plan.partition_length_us = platform::seconds(5);
  plan.clock_drift_max_ppm = 200;
  plan.store_late_apply = 0.005;
  plan.store_late_apply_max_us = platform::seconds(2);
  plan.store_stall_gap_us = platform::seconds(45);
  plan.store_stall_length_us = platform::seconds(3);
  plan.link_tail = 0.005;
  plan.link_tail_max_us = platform::seconds(1);
  plan.store_renew_loss = 0.05;
  plan.node_pause_on_reply = 0.0005;
  plan.node_pause_on_reply_max_us = platform::seconds(20);
  plan.node_freeze_drop = 0.001;
  plan.node_freeze_drop_max_us = platform::seconds(20);
  plan.store_scan_expiry = 0.1;
  plan.faults_stop_us = faults_stop_us;
  return plan;
}

FaultPlan FaultPlan::swarm(platform::Random& random, TimeUs faults_stop_us, const SwarmShape& shape) {
  SPOTCHECK_ASSERT_ABORT(shape.valid());
  FaultPlan plan;
  plan.faults_stop_us = faults_stop_us;
  // Draw every kind's switch and intensity in a fixed order, whether or not it ends up on, so
  // one kind's draw never shifts another's.
  auto rate = [&random](const SwarmShape::Rate& range) { return draw_rate(random, range); };
  auto window = [&random](const SwarmShape::Window& range) { return draw_window(random, range); };
  auto on = [&shape](FaultKind kind) { return shape.always_on(kind); };
  plan.store_request_loss =
      draw_kind(random, on(FaultKind::kStoreRequestLost), [&] { return rate(shape.store_request_loss); });
  plan.store_reply_loss = draw_kind(random, on(FaultKind::kStoreReplyLost), [&] { return rate(shape.store_reply_loss); });
  plan.store_reply_delay =
      draw_kind(random, on(FaultKind::kStoreReplyDelayed), [&] { return rate(shape.store_reply_delay); });
  const Window outage = draw_kind(random, on(FaultKind::kStoreOutage), [&] { return window(shape.store_outage); });
  plan.store_outage_gap_us = outage.gap_us;
  plan.store_outage_length_us = outage.length_us;
  const Window kill = draw_kind(random, on(FaultKind::kNodeKill), [&] { return window(shape.node_kill); });
  plan.node_kill_gap_us = kill.gap_us;
  plan.node_down_us = kill.length_us;
  const Window pause = draw_kind(random, on(FaultKind::kNodePause), [&] { return window(shape.node_pause); });
  plan.node_pause_gap_us = pause.gap_us;
  plan.node_pause_max_us = pause.length_us;
  plan.network_loss = draw_kind(random, on(FaultKind::kNetworkLoss), [&] { return rate(shape.network_loss); });
  const Window partition =
      draw_kind(random, on(FaultKind::kNetworkPartition), [&] { return window(shape.network_partition); });
  plan.partition_gap_us = partition.gap_us;
  plan.partition_length_us = partition.length_us;
  plan.clock_drift_max_ppm = draw_kind(random, on(FaultKind::kClockDrift), [&] {
    return random.between(shape.clock_drift_lo_ppm, shape.clock_drift_hi_ppm);
  });
  plan = with_opt_in_kinds(random, shape, plan);
  for (const FaultKind kind : shape.always) {
    SPOTCHECK_ASSERT_ABORT(plan.enabled(kind) && "an always-on kind is on in every draw");
    (void)kind;
  }
  return plan;
}

}  // namespace spotcheck::faults
