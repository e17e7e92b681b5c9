// The ways the shrinker makes a failing configuration smaller, one step at a time.
//
// Each step looks at the current configuration (and the violation it gives) and proposes one
// smaller configuration, or nothing when it no longer applies. Every step is bounded: it turns
// something off, or moves a value towards a floor it never passes, so repeating an accepted step
// ends.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/authority/authority_scenario.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

struct ShrinkCandidate {
  std::string change;  // what the step did, for the progress lines ("node-pause off", "nodes 4 -> 2")
  scenarios::authority::AuthorityScenarioConfig config;
};

struct ShrinkStepKind {
  std::string name;
  std::function<std::optional<ShrinkCandidate>(const scenarios::authority::AuthorityScenarioConfig& config,
                                               const scenarios::Violation& violation)>
      propose;
};

// In the order a pass tries them: fault kinds off, a shorter safety phase, fewer nodes, fewer
// objects, fewer requests (deletes off, aborts off, messages between nodes off, think times doubled), then gentler faults
// (probabilities halved, gaps doubled, windows halved).
std::vector<ShrinkStepKind> shrink_steps();

// Floors the steps never go below.
inline constexpr double kProbabilityFloor = 0.0005;
inline constexpr std::int64_t kWindowFloorMs = 100;
inline constexpr std::int64_t kFaultsPhaseFloorSeconds = 1;
// The workload's longest think time never goes above this (fewer requests, but some).
inline constexpr std::int64_t kThinkMaxCeilingMs = 16'000;

}  // namespace spotcheck::replay
