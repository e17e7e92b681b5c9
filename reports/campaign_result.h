// What one campaign found: the input to every report (text summary, JUnit XML, HTML).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/registry/divergence.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::reports {

struct DeterminismMismatch {
  std::uint64_t seed = 0;
  scenarios::Divergence divergence;
};

struct CampaignResult {
  std::string scenario;        // as given on the command line (a name or a scenario file)
  std::uint64_t first_seed = 0;
  std::uint64_t seeds_requested = 0;
  std::uint64_t seeds_run = 0;
  bool swarm = false;
  bool checked_determinism = false;
  unsigned jobs = 1;
  std::uint64_t events_total = 0;
  std::int64_t simulated_us_total = 0;
  double wall_seconds = 0.0;
  // Every seed that did not pass, in seed order, without traces.
  std::vector<scenarios::SeedOutcome> failures;
  std::vector<DeterminismMismatch> mismatches;
  // Seeds and their outcome, in seed order (trace fields empty); kept for JUnit.
  std::vector<scenarios::SeedOutcome> outcomes;

  bool passed() const { return failures.empty() && mismatches.empty(); }
  std::map<std::string, std::uint64_t> violations_by_property() const;
};

// The one command that reproduces a seed exactly.
std::string replay_command(const std::string& scenario, std::uint64_t seed, bool swarm);
// The command that shrinks a violating seed (Location scenarios; docs/replay.md).
std::string shrink_command(const std::string& scenario, std::uint64_t seed, bool swarm);

}  // namespace spotcheck::reports
