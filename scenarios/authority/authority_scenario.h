// A Location runtime scenario: N real impl/location nodes against the simulated store server,
// a fault plan (fixed, or drawn per seed in swarm mode), property checkers judging every event,
// a safety phase with faults and a liveness phase after they heal.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "faults/fault_plan.h"
#include "impl/location/config/location_config.h"
#include "scenarios/authority/authority_node.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::sim {
class StoreServer;
class World;
}  // namespace spotcheck::sim

namespace spotcheck::scenarios::authority {

struct AuthorityScenarioConfig {
  std::string name;
  std::string description;
  std::uint32_t node_count = 4;
  spotcheck::location::LocationConfig protocol;
  AuthorityWorkload workload;
  // Faults run until this time; traffic stops a little later; the run ends after the liveness
  // window, by which every request must have ended.
  platform::TimeUs faults_stop_us = platform::seconds(60);
  platform::TimeUs liveness_window_us = platform::seconds(40);
  // The fault plan of a seed when not in swarm mode.
  std::function<faults::FaultPlan(platform::TimeUs faults_stop_us)> plan = faults::FaultPlan::standard;
  // How swarm mode draws a seed's plan instead: the fault kinds this scenario is about stay on.
  faults::SwarmShape swarm;
  std::uint64_t max_steps = 20'000'000;
  // The properties that judge the run, by name (properties/registry.h); empty: every property.
  std::vector<std::string> properties;
  // The coverage marks its workload and faults must reach (docs/marks.md).
  std::vector<platform::Mark> required_marks;
  // The end of the ObjectGeneration sequence (§3.2): with this probability a seed starts with the
  // store's object-generation counter 0..generations_left_max below its last issuable value
  // (2^63-2), so Reserves run into GenerationExhausted. 0: never (and no draw is made).
  double generations_near_end_probability = 0.0;
  std::uint32_t generations_left_max = 30;
};

class AuthorityScenario final : public Scenario {
 public:
  explicit AuthorityScenario(AuthorityScenarioConfig config);
  const std::string& name() const override { return _config.name; }
  const std::string& description() const override { return _config.description; }
  SeedOutcome run(const SeedRequest& request) const override;
  std::vector<platform::Mark> required_marks() const override { return _config.required_marks; }
  bool takes_out_of_contract() const override { return true; }
  const AuthorityScenarioConfig& config() const { return _config; }

 private:
  void seed_generations_near_end(sim::World& world, sim::StoreServer& store) const;

  AuthorityScenarioConfig _config;
};

}  // namespace spotcheck::scenarios::authority
