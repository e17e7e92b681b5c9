// Shrinking, first stage: from a scenario config (Location, creation or Instance Spot) and a seed
// that fails, a smaller configuration
// whose run of the same seed still fails the same way (failure_verdict.h: the same property, or
// the same run failure) with no more events. seed_shrink.h runs it and then edits the decision log.
//
// Greedy passes over the family's steps (shrink_steps.h): each proposed candidate is one deterministic
// run of the seed; it is kept only when that run fails the same way with no more events than the
// standing run (a smaller configuration that takes longer to fail is not simpler). A pass repeats a kept
// step until it no longer applies or is rejected, then moves on; passes repeat until one keeps
// nothing (a fixed point) or the run budget is spent. Same input, same result.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "faults/fault_plan.h"
#include "scenarios/authority/authority_scenario.h"
#include "scenarios/creation/creation_scenario.h"
#include "scenarios/instance/instance_scenario.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

inline constexpr std::uint32_t kDefaultShrinkRunsMax = 200;
// About 25 s of runs on this machine (docs/replay.md "Measured").
inline constexpr std::uint64_t kDefaultShrinkEventsMax = 10'000'000;

struct ShrinkOptions {
  // Runs of the seed the search may use, counting the two that confirm the failure.
  std::uint32_t max_runs = kDefaultShrinkRunsMax;
  // Events the search's runs may simulate in all (a bound on its work that is the same on every
  // machine; the runs that confirm the failure always run).
  std::uint64_t max_events = kDefaultShrinkEventsMax;
};

// One kept step.
struct ShrinkProgress {
  std::string change;
  std::uint32_t runs_used = 0;  // runs so far, this one included
  std::string still;            // "single-owner at 20s (event #309), 312 events"
};
// What a kept step's run still does (ShrinkProgress::still).
std::string still_text(const scenarios::SeedOutcome& outcome);

template <class Config>
struct ShrinkResultOf {
  std::uint64_t seed = 0;
  bool swarm = false;  // the input seed was a swarm seed (its drawn plan is `original`'s plan)
  // The input configuration with its seed's plan made explicit (what the search started from).
  Config original;
  scenarios::SeedOutcome original_outcome;
  Config shrunk;
  // The shrunk configuration's run of the seed, with its trace kept (for the story).
  scenarios::SeedOutcome shrunk_outcome;
  std::vector<ShrinkProgress> steps;
  std::uint32_t runs_used = 0;  // search runs (the traced run of the result is not counted)
  std::uint64_t events_used = 0;  // their events
  bool budget_spent = false;    // stopped by the budget, not at a fixed point
};
using ShrinkResult = ShrinkResultOf<scenarios::authority::AuthorityScenarioConfig>;

enum class ShrinkRefusal {
  kSeedPasses,        // the seed's run violates nothing
  kNotRepresentable,  // the seed's plan, rounded to what a scenario file holds, no longer fails
  kNondeterministic,  // the shrunk configuration's traced run differed from the search's run
};

struct ShrinkRefused : std::runtime_error {
  ShrinkRefused(ShrinkRefusal reason_, const std::string& what) : std::runtime_error(what), reason(reason_) {}
  ShrinkRefusal reason;
};

// Throws ShrinkRefused when there is nothing to shrink. `on_progress` (may be empty) hears every
// kept step as it is kept. One overload per scenario family, each with its own steps.
ShrinkResult shrink(const scenarios::authority::AuthorityScenarioConfig& config, std::uint64_t seed, bool swarm,
                    const ShrinkOptions& options, const std::function<void(const ShrinkProgress&)>& on_progress = {});
ShrinkResultOf<scenarios::creation::CreationScenarioConfig> shrink(
    const scenarios::creation::CreationScenarioConfig& config, std::uint64_t seed, bool swarm,
    const ShrinkOptions& options, const std::function<void(const ShrinkProgress&)>& on_progress = {});
ShrinkResultOf<scenarios::instance::InstanceScenarioConfig> shrink(
    const scenarios::instance::InstanceScenarioConfig& config, std::uint64_t seed, bool swarm,
    const ShrinkOptions& options, const std::function<void(const ShrinkProgress&)>& on_progress = {});

// The kinds of fault the plan of `config` turns on (at its own faults_stop_us).
template <class Config>
std::uint32_t enabled_fault_kinds(const Config& config) {
  const faults::FaultPlan plan = config.plan(config.faults_stop_us);
  std::uint32_t count = 0;
  for (const auto& info : faults::all_fault_kinds()) {
    count += plan.enabled(info.kind) ? 1 : 0;
  }
  return count;
}

}  // namespace spotcheck::replay
