// Runs one scenario over a range of seeds, several seeds at a time (each seed its own world, on
// its own thread), and gathers a CampaignResult. Nothing here is inside a simulated run, so it
// may use threads and the wall clock.
//
// The seed range is streamed: workers take the next seed as they free up, and the caller's thread
// folds finished seeds into the result in seed order, so memory does not grow with the seed count
// (at most kReorderWindowPerJob finished seeds per job wait for a slower one before it).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

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

inline constexpr std::uint64_t kReorderWindowPerJob = 1'024;
inline constexpr double kDeterminismSampleDefault = 0.05;

// Whether `seed` is among the `share` (0..1) of passing seeds a campaign runs again.
bool in_determinism_sample(std::uint64_t seed, double share);

struct CampaignOptions {
  const scenarios::Scenario* scenario = nullptr;
  std::string scenario_label;  // how the user named it; used in replay commands
  std::uint64_t first_seed = 0;
  std::uint64_t seeds = 0;     // first_seed + seeds - 1 must not pass 2^64 - 1
  // A shard of a larger campaign (`--shard K/N`): then first_seed and seeds are this shard's
  // (Shard::own_first_seed, own_seeds) and its seeds are N apart. The default: the whole campaign.
  std::optional<reports::Shard> shard;
  unsigned jobs = 1;
  bool swarm = false;
  bool check_determinism = false;
  // Without check_determinism: every seed that did not pass runs once more, and so does this share
  // of the others (chosen by a hash of the seed, so the same seeds in every campaign); a different
  // trace hash or event count is a determinism failure, localized like check_determinism's.
  double determinism_sample = kDeterminismSampleDefault;
  // Out-of-contract fault kinds to turn on in every seed (faults::OutOfContractSet; 0: none). A seed
  // that fails is re-run with them off, then with each off alone, to name the kinds (and so the
  // spec assumptions) it depends on (SeedOutcome::out_of_contract_needed).
  std::uint32_t out_of_contract = 0;
  // Called on the caller's thread about twice a second, and once at the end.
  std::function<void(const CampaignProgress&)> on_progress;
  // Called on the caller's thread for every finished seed, in seed order, before it is folded in.
  std::function<void(const scenarios::SeedOutcome&)> on_seed;
  // Polled while the campaign runs: once it returns a signal number, no new seed starts, the seeds
  // in flight finish, and the result is of the seeds that finished (interrupted_by says why).
  std::function<int()> stop_requested;
};

reports::CampaignResult run_campaign(const CampaignOptions& options);

// For a seed that failed with the out-of-contract kinds of `request` on: the kinds it needs (see
// SeedOutcome::out_of_contract_needed), or none when it fails with all of them off too.
std::vector<std::string> out_of_contract_needed(const scenarios::Scenario& scenario,
                                                const scenarios::SeedRequest& request);

// Runs one seed twice and localizes the first diverging event, or says the runs agree.
// Returns nullopt when both runs gave the same trace.
std::optional<reports::DeterminismMismatch> check_seed_determinism(const scenarios::Scenario& scenario,
                                                                   const scenarios::SeedRequest& request);

}  // namespace spotcheck::cli
