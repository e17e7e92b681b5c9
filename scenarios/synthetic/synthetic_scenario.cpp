#include "scenarios/synthetic/synthetic_scenario.h"

#include "scenarios/common/seed_outcome.h"

#include <utility>

#include "scenarios/synthetic/synthetic_workload.h"
#include "sim/random/stream.h"

namespace spotcheck::scenarios::synthetic {

SyntheticScenario::SyntheticScenario(SyntheticConfig config) : config_(std::move(config)) {}

SeedOutcome SyntheticScenario::run(const SeedRequest& request) const {
  SyntheticConfig config = config_;
  config.keep_trace_events = request.keep_trace;
  config.record_decisions = request.record_decisions;
  config.replay_decisions = request.replay_decisions;
  config.lenient_replay = request.lenient_replay;
  if (request.swarm) {
    // Swarm testing: which fault kinds are on, and how many faults, come from the seed.
    sim::Stream swarm(request.seed, "swarm");
    config.fault_kinds = static_cast<std::uint32_t>(swarm.next_u64()) & kAllFaults;
    config.fault_count = static_cast<std::uint32_t>(swarm.below(2 * config_.fault_count + 1));
  }
  const SyntheticOutcome run = run_synthetic_seed(request.seed, config);
  std::optional<Violation> violation;
  if (run.run.status == sim::RunStatus::violation) {
    const std::uint64_t index = run.run.problem_event.value_or(0);
    const platform::TimeUs time_us = run.trace.keeps_events() && run.run.problem_event ? run.trace.event(index).time_us
                                                                             : run.run.end_time_us;
    violation = Violation{"synthetic.fifo", run.run.problem, time_us, index};
  }
  return with_decisions(make_seed_outcome(request.seed, run.run, run.trace, request.keep_trace, std::move(violation)),
                        run.decision_log, run.unread_decisions);
}

std::unique_ptr<Scenario> make_synthetic_scenario(SyntheticConfig config) {
  return std::make_unique<SyntheticScenario>(std::move(config));
}

}  // namespace spotcheck::scenarios::synthetic
