#include "replay/shrink/fixed_plan.h"

#include "sim/world.h"

namespace spotcheck::replay {

namespace {

using platform::TimeUs;

TimeUs round_duration(TimeUs us) {
  if (us <= 0) {
    return us;
  }
  const TimeUs ms = (us + platform::kMicrosPerMilli / 2) / platform::kMicrosPerMilli;
  return platform::millis(ms < 1 ? 1 : ms);
}

}  // namespace

faults::FaultPlan seed_fault_plan(faults::FaultPlan plan, const faults::SwarmShape& shape, TimeUs stop_us,
                                  std::uint64_t seed, bool swarm) {
  if (swarm) {
    // The same draw as JudgedWorld::install_faults: named streams depend only on (seed, name).
    sim::WorldConfig world_config;
    world_config.seed = seed;
    sim::World world(world_config);
    plan = faults::FaultPlan::swarm(world.stream("swarm"), stop_us, shape);
  }
  plan.faults_stop_us = stop_us;
  return plan;
}

faults::FaultPlan round_to_millis(faults::FaultPlan plan) {
  plan.store_outage_gap_us = round_duration(plan.store_outage_gap_us);
  plan.store_outage_length_us = round_duration(plan.store_outage_length_us);
  plan.node_kill_gap_us = round_duration(plan.node_kill_gap_us);
  plan.node_down_us = round_duration(plan.node_down_us);
  plan.node_pause_gap_us = round_duration(plan.node_pause_gap_us);
  plan.node_pause_max_us = round_duration(plan.node_pause_max_us);
  plan.partition_gap_us = round_duration(plan.partition_gap_us);
  plan.partition_length_us = round_duration(plan.partition_length_us);
  // Every other duration a scenario file holds in whole milliseconds, too.
  plan.store_stall_gap_us = round_duration(plan.store_stall_gap_us);
  plan.store_stall_length_us = round_duration(plan.store_stall_length_us);
  plan.store_late_apply_max_us = round_duration(plan.store_late_apply_max_us);
  plan.link_tail_max_us = round_duration(plan.link_tail_max_us);
  plan.node_pause_on_reply_max_us = round_duration(plan.node_pause_on_reply_max_us);
  plan.node_freeze_drop_max_us = round_duration(plan.node_freeze_drop_max_us);
  plan.node_crash_point_down_max_us = round_duration(plan.node_crash_point_down_max_us);
  plan.node_message_delay_max_us = round_duration(plan.node_message_delay_max_us);
  plan.node_partition_gap_us = round_duration(plan.node_partition_gap_us);
  plan.node_partition_length_us = round_duration(plan.node_partition_length_us);
  plan.node_link_stall_gap_us = round_duration(plan.node_link_stall_gap_us);
  plan.node_link_stall_length_us = round_duration(plan.node_link_stall_length_us);
  return plan;
}

}  // namespace spotcheck::replay
