// The synthetic workload behind the campaign runner's Scenario interface (scenarios/registry).
#pragma once

#include <memory>
#include <string>

#include "scenarios/registry/scenario.h"
#include "scenarios/synthetic/synthetic_config.h"

namespace spotcheck::scenarios::synthetic {

class SyntheticScenario final : public Scenario {
 public:
  explicit SyntheticScenario(SyntheticConfig config = {});
  const std::string& name() const override { return name_; }
  const std::string& description() const override { return description_; }
  // With request.swarm, the enabled fault kinds and the fault count are drawn from the seed.
  SeedOutcome run(const SeedRequest& request) const override;

 private:
  SyntheticConfig config_;
  std::string name_ = "synthetic";
  std::string description_ =
      "nodes exchanging requests/replies with timers and workers under kills, restarts, pauses, partitions, "
      "disconnects and clock drift; checks per-connection FIFO";
};

std::unique_ptr<Scenario> make_synthetic_scenario(SyntheticConfig config = {});

}  // namespace spotcheck::scenarios::synthetic
