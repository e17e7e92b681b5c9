// `spotcheck shrink`: a failing seed of any scenario made as small as the search can make it while
// it fails the same way (failure_verdict.h), in two stages:
//   1. for a scenario of a family a file can hold (Location, creation, Instance Spot), the parameter
//      passes of shrinker.h (fewer nodes, objects or IDs, fault kinds and kinds of request, a
//      shorter safety phase, gentler faults) — a smaller scenario file;
//   2. for every scenario, the decision log of that run edited (log_shrink.h) — fewer faults,
//      messages, delays and reorderings.
// Every kept change lowers the run's events: the result never has more events than the campaign's
// run. The result is a run of its decision log (its trace file replays from the log).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "replay/shrink/shrinker.h"
#include "scenarios/files/any_scenario_file.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

inline constexpr std::uint32_t kDefaultSeedShrinkRunsMax = 600;

// Stage 1's outcome, whatever the family.
struct ParameterStage {
  scenarios::files::AnyScenarioConfig original;  // the scenario with the seed's plan made explicit
  scenarios::files::AnyScenarioConfig shrunk;    // what the passes ended on
  scenarios::SeedOutcome shrunk_outcome;         // its run of the seed
  bool budget_spent = false;
};

struct SeedShrinkResult {
  std::uint64_t seed = 0;
  bool swarm = false;
  scenarios::SeedOutcome original_outcome;  // the seed as the campaign ran it
  // Stage 1 (not for a scenario no file can hold: the synthetic FIFO world).
  std::optional<ParameterStage> parameters;
  // The run the search ended on, run again from its log with its trace kept; its decision_log
  // replays it (strictly) on this build.
  scenarios::SeedOutcome shrunk_outcome;
  std::vector<ShrinkProgress> steps;  // both stages, in order
  std::uint32_t runs_used = 0;
  std::uint64_t events_used = 0;
  bool budget_spent = false;
};

// Throws ShrinkRefused (the seed passes; its plan cannot be written as a scenario file; the result
// did not run the same way twice). `max_runs` and `max_events` (the events the runs simulate in
// all) bound both stages; stage 1 gets at most half of each.
SeedShrinkResult shrink_seed(const scenarios::Scenario& scenario, std::uint64_t seed, bool swarm,
                             std::uint32_t max_runs, std::uint64_t max_events = kDefaultShrinkEventsMax,
                             const std::function<void(const ShrinkProgress&)>& on_progress = {});

}  // namespace spotcheck::replay
