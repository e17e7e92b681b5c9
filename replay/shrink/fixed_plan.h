// A seed's fault plan as a constant a scenario file can hold: the scenario's own plan, or the one
// swarm mode draws from the seed, with every duration in whole milliseconds.
#pragma once

#include <cstdint>

#include "faults/fault_plan.h"
#include "scenarios/authority/authority_scenario.h"

namespace spotcheck::replay {

// The plan `seed` runs under: config.plan(faults_stop_us), or (swarm) the plan JudgedWorld draws
// from the seed's "swarm" stream. faults_stop_us is the config's.
faults::FaultPlan seed_fault_plan(const scenarios::authority::AuthorityScenarioConfig& config, std::uint64_t seed,
                                  bool swarm);
// Every duration rounded to the nearest whole millisecond (a window that was on stays on).
faults::FaultPlan round_to_millis(faults::FaultPlan plan);
// `config` running `plan` whatever its faults_stop_us becomes (as a scenario file's plan does).
scenarios::authority::AuthorityScenarioConfig with_fixed_plan(scenarios::authority::AuthorityScenarioConfig config,
                                                            const faults::FaultPlan& plan);

}  // namespace spotcheck::replay
