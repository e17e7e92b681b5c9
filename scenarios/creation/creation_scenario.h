// A creation scenario: N CreationNodes (real impl/location code) against the simulated store
// server, a fault plan for the store link and the processes (faults/), loss on the links between
// nodes (commands 47/48/49 and their command-20 replies), every registered property judging
// every event, a safety phase with faults and a liveness phase after they heal.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "faults/fault_plan.h"
#include "impl/location/config/location_config.h"
#include "impl/location/creation/creation_config.h"
#include "scenarios/creation/creation_workload.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::scenarios::creation {

struct CreationScenarioConfig {
  std::string name;
  std::string description;
  // The built-in scenario it is (or a scenario file extends): "create-storm" or "message-storm".
  std::string base;
  std::uint32_t node_count = 6;
  location::LocationConfig protocol;
  location::creation::CreationConfig creation;
  CreationWorkload workload;
  platform::TimeUs faults_stop_us = platform::seconds(45);
  platform::TimeUs liveness_window_us = platform::seconds(35);
  // The store/process fault plan of a seed when not in swarm mode.
  std::function<faults::FaultPlan(platform::TimeUs faults_stop_us)> plan;
  // How swarm mode draws a seed's plan (faults/fault_plan.h); the node-link loss below is the
  // scenario's own in either mode.
  faults::SwarmShape swarm;
  // Loss on every link between two nodes during the safety phase, and bursts of heavy loss.
  double node_link_loss = 0.05;
  double node_link_burst_loss = 0.6;
  platform::TimeUs node_link_burst_gap_us = platform::seconds(8);  // 0: no bursts
  platform::TimeUs node_link_burst_length_us = platform::seconds(2);
  // A heavy tail on the same links (sim::LinkConfig::tail_probability): now and then a command
  // takes up to node_link_tail_max_us. 0: none.
  double node_link_tail = 0.01;
  platform::TimeUs node_link_tail_max_us = platform::millis(1'500);
  std::uint64_t max_steps = 30'000'000;
  // The properties that judge a seed (properties/registry.h); empty: every property.
  std::vector<std::string> properties;
  // The coverage marks its workload and faults must reach (docs/marks.md).
  std::vector<platform::Mark> required_marks;
};

class CreationScenario final : public Scenario {
 public:
  explicit CreationScenario(CreationScenarioConfig config);
  const std::string& name() const override { return _config.name; }
  const std::string& description() const override { return _config.description; }
  SeedOutcome run(const SeedRequest& request) const override;
  std::vector<platform::Mark> required_marks() const override { return _config.required_marks; }
  bool takes_out_of_contract() const override { return true; }
  const CreationScenarioConfig& config() const { return _config; }

 private:
  CreationScenarioConfig _config;
};

}  // namespace spotcheck::scenarios::creation
