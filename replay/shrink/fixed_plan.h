// A seed's fault plan as a constant a scenario file can hold: the scenario's own plan, or the one
// swarm mode draws from the seed, with every duration in whole milliseconds.
#pragma once

#include <cstdint>

#include "faults/fault_plan.h"
#include "impl/platform/time.h"

namespace spotcheck::replay {

// The plan `seed` runs under: `plan`, or (swarm) the plan JudgedWorld draws from the seed's
// "swarm" stream in `shape`. faults_stop_us is `stop_us`.
faults::FaultPlan seed_fault_plan(faults::FaultPlan plan, const faults::SwarmShape& shape, platform::TimeUs stop_us,
                                  std::uint64_t seed, bool swarm);
// The same for a scenario config of any family (its plan, swarm shape and faults_stop_us).
template <class Config>
faults::FaultPlan seed_fault_plan(const Config& config, std::uint64_t seed, bool swarm) {
  return seed_fault_plan(config.plan(config.faults_stop_us), config.swarm, config.faults_stop_us, seed, swarm);
}
// Every duration rounded to the nearest whole millisecond (a window that was on stays on).
faults::FaultPlan round_to_millis(faults::FaultPlan plan);
// `config` running `plan` whatever its faults_stop_us becomes (as a scenario file's plan does).
template <class Config>
Config with_fixed_plan(Config config, const faults::FaultPlan& plan) {
  config.plan = [plan](platform::TimeUs stop_us) {
    faults::FaultPlan p = plan;
    p.faults_stop_us = stop_us;
    return p;
  };
  return config;
}

}  // namespace spotcheck::replay
