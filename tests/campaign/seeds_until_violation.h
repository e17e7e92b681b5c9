// Campaign tests that plant a bug: run seeds 1.. of a scenario until one does not pass.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "scenarios/registry/scenario.h"

namespace spotcheck::scenarios::testing {

// (seeds run, outcome of the last); the last outcome passes when no seed up to seeds_max failed.
inline std::pair<std::uint64_t, SeedOutcome> seeds_until_violation(const Scenario& scenario, std::uint64_t seeds_max) {
  SeedOutcome last;
  for (std::uint64_t seed = 1; seed <= seeds_max; ++seed) {
    last = scenario.run(SeedRequest{seed, false, false});
    if (!last.ok()) {
      return {seed, last};
    }
  }
  return {seeds_max, last};
}

// One line for a test's failure message: the violation (property: message), the run failure, or "ok".
inline std::string what(const SeedOutcome& outcome) {
  if (outcome.violation) {
    return outcome.violation->property + ": " + outcome.violation->message;
  }
  return outcome.failure.value_or("ok");
}

}  // namespace spotcheck::scenarios::testing
