#include "scenarios/synthetic/synthetic_scenario.h"

#include <utility>

#include "scenarios/synthetic/synthetic_workload.h"
#include "sim/random/stream.h"

namespace spotcheck::scenarios::synthetic {

SyntheticScenario::SyntheticScenario(SyntheticConfig config) : config_(std::move(config)) {}

SeedOutcome SyntheticScenario::run(const SeedRequest& request) const {
  SyntheticConfig config = config_;
  config.keep_trace_events = request.keep_trace;
  if (request.swarm) {
    // Swarm testing: which fault kinds are on, and how many faults, come from the seed.
    sim::Stream swarm(request.seed, "swarm");
    config.fault_kinds = static_cast<std::uint32_t>(swarm.next_u64()) & kAllFaults;
    config.fault_count = static_cast<std::uint32_t>(swarm.below(2 * config_.fault_count + 1));
  }
  const SyntheticOutcome run = run_synthetic_seed(request.seed, config);
  SeedOutcome outcome;
  outcome.seed = request.seed;
  outcome.trace_hash = run.run.trace_hash;
  outcome.events = run.run.events;
  outcome.simulated_us = run.run.end_time_us;
  if (run.run.status == sim::RunStatus::violation) {
    Violation violation;
    violation.property = "synthetic.fifo";
    violation.message = run.run.problem;
    violation.event_index = run.run.problem_event.value_or(0);
    violation.time_us = run.trace.keeps_events() && run.run.problem_event
                            ? run.trace.event(*run.run.problem_event).time_us
                            : run.run.end_time_us;
    outcome.violation = std::move(violation);
  } else if (run.run.status == sim::RunStatus::failure) {
    outcome.failure = run.run.problem;
  } else if (run.run.status == sim::RunStatus::step_limit) {
    outcome.failure = "step budget exhausted before the end of the run";
  }
  if (request.keep_trace) {
    outcome.event_hashes.reserve(run.trace.size());
    outcome.event_lines.reserve(run.trace.size());
    for (std::uint64_t index = 0; index < run.trace.size(); ++index) {
      outcome.event_hashes.push_back(run.trace.event_hash(index));
      outcome.event_lines.push_back(run.trace.render(index));
    }
  }
  return outcome;
}

std::unique_ptr<Scenario> make_synthetic_scenario(SyntheticConfig config) {
  return std::make_unique<SyntheticScenario>(std::move(config));
}

}  // namespace spotcheck::scenarios::synthetic
