#include "replay/shrink/failure_verdict.h"

#include "reports/campaign_result.h"

namespace spotcheck::replay {

std::optional<FailureVerdict> FailureVerdict::of(const scenarios::SeedOutcome& outcome) {
  if (outcome.violation.has_value()) {
    return FailureVerdict(false, outcome.violation->property);
  }
  if (outcome.failure.has_value()) {
    return FailureVerdict(true, reports::run_failure_signature(*outcome.failure));
  }
  return std::nullopt;
}

bool FailureVerdict::kept_by(const scenarios::SeedOutcome& outcome) const {
  if (_run_failure) {
    return !outcome.violation.has_value() && outcome.failure.has_value() &&
           reports::run_failure_signature(*outcome.failure) == _signature;
  }
  return outcome.violation.has_value() && outcome.violation->property == _signature;
}

std::string FailureVerdict::describe() const { return _run_failure ? "run failure: " + _signature : _signature; }

scenarios::Violation failure_of(const scenarios::SeedOutcome& outcome) {
  if (outcome.violation.has_value()) {
    return *outcome.violation;
  }
  return scenarios::Violation{"run failure", outcome.failure.value_or("(passed)"), outcome.simulated_us,
                              outcome.events == 0 ? 0 : outcome.events - 1};
}

std::string describe_outcome(const scenarios::SeedOutcome& outcome) {
  if (outcome.violation.has_value()) {
    return "violates " + outcome.violation->property;
  }
  if (outcome.failure.has_value()) {
    return "breaks (" + *outcome.failure + ")";
  }
  return "passes";
}

}  // namespace spotcheck::replay
