#include "scenarios/common/seed_outcome.h"

namespace spotcheck::scenarios {

SeedOutcome make_seed_outcome(std::uint64_t seed, const sim::RunOutcome& run, const sim::Trace& trace,
                              bool keep_trace, std::optional<Violation> violation) {
  SeedOutcome outcome;
  outcome.seed = seed;
  outcome.trace_hash = run.trace_hash;
  outcome.events = run.events;
  outcome.simulated_us = run.end_time_us;
  switch (run.status) {
    case sim::RunStatus::violation:
      if (!violation.has_value()) {
        violation = Violation{"unknown", run.problem, run.end_time_us, run.problem_event.value_or(0)};
      }
      outcome.violation = std::move(violation);
      break;
    case sim::RunStatus::failure:
      outcome.failure = run.problem;
      break;
    case sim::RunStatus::step_limit:
      outcome.failure = "step budget exhausted before the end of the run";
      break;
    case sim::RunStatus::quiescent:
    case sim::RunStatus::time_limit:
      break;
  }
  if (keep_trace && trace.keeps_events()) {
    outcome.event_hashes.reserve(trace.size());
    outcome.event_lines.reserve(trace.size());
    for (std::uint64_t index = 0; index < trace.size(); ++index) {
      outcome.event_hashes.push_back(trace.event_hash(index));
      outcome.event_lines.push_back(trace.render(index));
    }
  }
  return outcome;
}

SeedOutcome with_decisions(SeedOutcome outcome, std::shared_ptr<const sim::DecisionLog> log, std::size_t unread) {
  outcome.decision_log = std::move(log);
  if (unread > 0 && !outcome.failure.has_value()) {
    outcome.failure = "replay refused: the run ended with " + std::to_string(unread) + " decisions of its log unread";
  }
  return outcome;
}

}  // namespace spotcheck::scenarios
