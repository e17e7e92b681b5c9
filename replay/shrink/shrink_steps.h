// The ways the shrinker makes a failing configuration smaller, one step at a time, per scenario
// family (step_kinds.h holds the kinds the lists are made of).
//
// Each step looks at the current configuration (and the violation it gives) and proposes one
// smaller configuration, or nothing when it no longer applies. Every step is bounded: it turns
// something off, or moves a value towards a floor it never passes, so repeating an accepted step
// ends.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/authority/authority_scenario.h"
#include "scenarios/creation/creation_scenario.h"
#include "scenarios/instance/instance_scenario.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

template <class Config>
struct ShrinkCandidateOf {
  std::string change;  // what the step did, for the progress lines ("node-pause off", "nodes 4 -> 2")
  Config config;
};

template <class Config>
struct ShrinkStepOf {
  std::string name;
  std::function<std::optional<ShrinkCandidateOf<Config>>(const Config& config, const scenarios::Violation& violation)>
      propose;
};

using ShrinkCandidate = ShrinkCandidateOf<scenarios::authority::AuthorityScenarioConfig>;
using ShrinkStepKind = ShrinkStepOf<scenarios::authority::AuthorityScenarioConfig>;

// A Location scenario's, in the order a pass tries them: fault kinds off, a shorter safety phase,
// fewer nodes, fewer objects, fewer requests (deletes off, aborts off, messages between nodes off,
// think times doubled), then gentler faults (probabilities halved, gaps doubled, windows halved).
std::vector<ShrinkStepKind> shrink_steps();
// A creation scenario's (create-storm, message-storm): fault kinds off, a shorter safety phase,
// fewer nodes (at least 2), actor and spot IDs, clients per node; fewer kinds of request (messages,
// retries of an own OperationId, destroys, kept refs), of handler work (timers, Sends) and of
// factory trouble (rejects, throws, delays); the node links' loss, bursts and tail off; think times
// doubled; then gentler faults.
std::vector<ShrinkStepOf<scenarios::creation::CreationScenarioConfig>> creation_shrink_steps();
// instance-route's: fault kinds off, a shorter safety phase, fewer client and server nodes, Spot
// IDs and clients per node; the application's Closes (after a first message, on a message, with
// Reincarnate) and omitted types off; think times doubled; node message loss halved, then gentler
// faults.
std::vector<ShrinkStepOf<scenarios::instance::InstanceScenarioConfig>> instance_shrink_steps();

// Floors the steps never go below.
inline constexpr double kProbabilityFloor = 0.0005;
inline constexpr std::int64_t kWindowFloorMs = 100;
inline constexpr std::int64_t kFaultsPhaseFloorSeconds = 1;
// The workload's longest think time never goes above this (fewer requests, but some).
inline constexpr std::int64_t kThinkMaxCeilingMs = 16'000;

}  // namespace spotcheck::replay
