// The instance-route scenario (spec §7.1): client nodes send Instance Spot requests to a few
// SpotIds of one stable type hosted by server nodes (real CreationNode + InstanceTarget +
// InstanceSource; the request and its reply are commands 50/51 over the simulated network), the
// application closing Spots now and then, a fault plan of lost, delayed and partitioned
// messages between nodes and slow store Deletes (faults/, carried out by sim::Network and the
// store host), every registered property judging every event (at-most-once included), a safety
// phase with faults and a liveness phase after they heal.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "faults/fault_plan.h"
#include "impl/location/config/location_config.h"
#include "impl/location/creation/creation_config.h"
#include "impl/location/instance/instance_source.h"
#include "scenarios/instance/instance_workload.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::scenarios::instance {

struct InstanceScenarioConfig {
  std::string name;
  std::string description;
  std::string base;  // the built-in scenario it is (or a scenario file extends): "instance-route"
  std::uint32_t client_nodes = 2;
  std::uint32_t server_nodes = 3;
  spotcheck::location::LocationConfig protocol;  // e.g. a planted bug in planted_bugs
  location::creation::CreationConfig creation;
  InstanceWorkload workload;
  location::instance::InstanceSourceConfig source;  // the send timeout
  platform::TimeUs faults_stop_us = platform::seconds(30);
  platform::TimeUs liveness_window_us = platform::seconds(25);
  // The fault plan of a seed when not in swarm mode, and the shape swarm mode draws one in.
  std::function<faults::FaultPlan(platform::TimeUs faults_stop_us)> plan;
  faults::SwarmShape swarm;
  std::vector<std::string> properties;  // empty: every registered property
  std::uint64_t max_steps = 30'000'000;
  // The Relocation Store on a server of its own, with its own faults and a clock skewed within
  // bounds (JudgedWorld::relocation_store); false: one server hosts both stores.
  bool separate_relocation_store = true;
  // The coverage marks its workload and faults must reach (docs/marks.md).
  std::vector<platform::Mark> required_marks;
};

InstanceScenarioConfig instance_scenario_config(const std::string& name);

class InstanceScenario final : public Scenario {
 public:
  explicit InstanceScenario(InstanceScenarioConfig config);
  const std::string& name() const override { return _config.name; }
  const std::string& description() const override { return _config.description; }
  SeedOutcome run(const SeedRequest& request) const override;
  std::vector<platform::Mark> required_marks() const override { return _config.required_marks; }
  bool takes_out_of_contract() const override { return true; }
  const InstanceScenarioConfig& config() const { return _config; }

 private:
  InstanceScenarioConfig _config;
};

std::vector<std::unique_ptr<Scenario>> make_instance_scenarios();

}  // namespace spotcheck::scenarios::instance
