// Runs one scenario over a range of seeds, several seeds at a time (each seed its own world, on
// its own thread), and gathers a CampaignResult. Nothing here is inside a simulated run, so it
// may use threads and the wall clock.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "reports/campaign_result.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::cli {

struct CampaignProgress {
  std::uint64_t seeds_done = 0;
  std::uint64_t seeds_total = 0;
  std::uint64_t failures = 0;
  std::uint64_t events = 0;
  double wall_seconds = 0.0;
};

struct CampaignOptions {
  const scenarios::Scenario* scenario = nullptr;
  std::string scenario_label;  // how the user named it; used in replay commands
  std::uint64_t first_seed = 0;
  std::uint64_t seeds = 0;
  unsigned jobs = 1;
  bool swarm = false;
  bool check_determinism = false;
  // Called from the runner's own thread about twice a second, and once at the end.
  std::function<void(const CampaignProgress&)> on_progress;
};

reports::CampaignResult run_campaign(const CampaignOptions& options);

// Runs one seed twice and localizes the first diverging event, or says the runs agree.
// Returns nullopt when both runs gave the same trace.
std::optional<reports::DeterminismMismatch> check_seed_determinism(const scenarios::Scenario& scenario,
                                                                   const scenarios::SeedRequest& request);

}  // namespace spotcheck::cli
