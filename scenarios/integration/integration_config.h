// Integration scenarios: real impl/location nodes of one process, on the kernel's real-time mode
// (steady clock, in-process transport, the same fibers), against a real redis-server
// (docs/integration.md). Each scenario is a Location workload plus node faults (pauses, kills)
// scheduled in real time; the property suite judges the run and a store audit ends it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "impl/location/config/location_config.h"
#include "impl/platform/time.h"
#include "scenarios/authority/authority_node.h"

namespace spotcheck::scenarios::integration {

using platform::TimeUs;

// Node faults of a scenario, scheduled in real time. Each fault strikes the node that owns the
// most Active objects at that moment (as the trace tells), so a takeover is likely to follow.
struct NodeFaultPlan {
  // Pauses: every node fiber frozen (World::pause) for pause_us, longer than the owner lease TTL.
  TimeUs pause_first_us = 0;
  TimeUs pause_every_us = 0;  // 0: a single pause
  TimeUs pause_us = 0;        // 0: no pauses
  // Kills: the host run ends abruptly (fibers unwound, no cleanup); a new host run starts after down_us.
  TimeUs kill_first_us = 0;
  TimeUs kill_every_us = 0;  // 0: a single kill
  TimeUs down_us = 0;        // 0: no kills

  bool pauses() const { return pause_us > 0; }
  bool kills() const { return down_us > 0; }
};

struct IntegrationScenarioConfig {
  std::string name;
  std::string description;
  std::uint32_t node_count = 3;
  spotcheck::location::LocationConfig protocol;  // short owner lease; validate() holds
  authority::AuthorityWorkload workload;           // traffic_stop_us is set from the run's duration
  NodeFaultPlan faults;
  // Each store call first parks its fiber for a random 0..this (0: a yield), so other fibers run
  // between a node's read and its conditional write (NodeRedisStore).
  TimeUs store_call_jitter_max_us = platform::millis(1);
  // After traffic stops the nodes keep renewing for this long, so every open request can end.
  TimeUs drain_us = platform::millis(1'500);
  // A fault needs this long before the end of traffic to be followed by a takeover.
  TimeUs fault_tail_us = platform::millis(2'500);
  // What a run of this scenario must show (checked by run verdicts and tests).
  bool expects_takeover = false;
};

// The short-TTL owner lease timing of integration runs (spec §5; validate() holds):
// TTL 1.5 s, renew every 0.4 s with a 0.3 s timeout, fencing margin 0.5 s.
spotcheck::location::LocationConfig short_lease_config();

// contention, lease-expiry, owner-change.
std::vector<std::string> integration_scenario_names();
// One line per scenario, for help texts.
std::string integration_scenario_help();
// The named scenario; false when the name is unknown.
bool find_integration_scenario(const std::string& name, IntegrationScenarioConfig& out);

}  // namespace spotcheck::scenarios::integration
