#include "scenarios/integration/integration_config.h"

#include "impl/check/check.h"

namespace spotcheck::scenarios::integration {

namespace {

using platform::millis;
using platform::seconds;

IntegrationScenarioConfig base(std::string name, std::string description) {
  IntegrationScenarioConfig c;
  c.name = std::move(name);
  c.description = std::move(description);
  c.protocol = short_lease_config();
  c.workload.mesh_name = "it";
  c.workload.request_deadline_us = seconds(3);
  return c;
}

IntegrationScenarioConfig contention() {
  IntegrationScenarioConfig c =
      base("contention", "4 nodes race to create, use, abort and delete the same 3 actors (no faults)");
  c.node_count = 4;
  c.workload.object_count = 3;
  c.workload.think_min_us = millis(5);
  c.workload.think_max_us = millis(60);
  c.workload.delete_probability = 0.2;
  c.workload.abort_probability = 0.2;
  c.store_call_jitter_max_us = millis(3);  // wide windows between a read and its write
  return c;
}

IntegrationScenarioConfig lease_expiry() {
  IntegrationScenarioConfig c = base(
      "lease-expiry", "3 nodes share 4 actors; the busiest owner freezes 2.5 s (TTL 1.5 s) and another node takes over");
  c.node_count = 3;
  c.workload.object_count = 4;
  c.workload.think_min_us = millis(20);
  c.workload.think_max_us = millis(120);
  c.workload.delete_probability = 0.02;
  c.workload.abort_probability = 0.1;
  c.faults.pause_first_us = millis(1'500);
  c.faults.pause_every_us = millis(4'500);
  c.faults.pause_us = millis(2'500);
  c.expects_takeover = true;
  return c;
}

IntegrationScenarioConfig owner_change() {
  IntegrationScenarioConfig c = base(
      "owner-change", "3 nodes share 4 actors; the busiest owner is killed and restarts as a new host run; deletes and re-creations");
  c.node_count = 3;
  c.workload.object_count = 4;
  c.workload.think_min_us = millis(20);
  c.workload.think_max_us = millis(120);
  c.workload.delete_probability = 0.15;
  c.workload.abort_probability = 0.1;
  c.faults.kill_first_us = millis(1'500);
  c.faults.kill_every_us = millis(3'000);
  c.faults.down_us = millis(1'000);
  c.expects_takeover = true;
  return c;
}

}  // namespace

spotcheck::location::LocationConfig short_lease_config() {
  spotcheck::location::LocationConfig config;
  config.owner_lease_ttl_us = millis(1'500);
  config.renew_interval_us = millis(400);
  config.renew_timeout_us = millis(300);
  config.fencing_margin_us = millis(500);
  config.store_request_timeout_us = millis(300);
  SPOTCHECK_ASSERT_ABORT(!spotcheck::location::validate(config).has_value());
  return config;
}

std::vector<std::string> integration_scenario_names() { return {"contention", "lease-expiry", "owner-change"}; }

std::string integration_scenario_help() {
  std::string out;
  for (const std::string& name : integration_scenario_names()) {
    IntegrationScenarioConfig c;
    [[maybe_unused]] const bool found = find_integration_scenario(name, c);
    SPOTCHECK_ASSERT_ABORT(found);
    out += "  " + c.name + ": " + c.description + "\n";
  }
  return out;
}

bool find_integration_scenario(const std::string& name, IntegrationScenarioConfig& out) {
  if (name == "contention") {
    out = contention();
    return true;
  }
  if (name == "lease-expiry") {
    out = lease_expiry();
    return true;
  }
  if (name == "owner-change") {
    out = owner_change();
    return true;
  }
  return false;
}

}  // namespace spotcheck::scenarios::integration
