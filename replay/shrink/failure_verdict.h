// What a shrink must keep: the failure of the run it started from. A property violation is kept
// when a run violates the same property; a run failure (an assertion that fired, an exception, the
// step budget) when a run fails with the same text once its numbers are folded
// (reports::run_failure_signature): the same assertion at the same place.
#pragma once

#include <optional>
#include <string>

#include "scenarios/registry/scenario.h"

namespace spotcheck::replay {

class FailureVerdict {
 public:
  // nullopt for a run that passed.
  static std::optional<FailureVerdict> of(const scenarios::SeedOutcome& outcome);

  bool kept_by(const scenarios::SeedOutcome& outcome) const;
  bool run_failure() const { return _run_failure; }
  // "single-owner", or "run failure: invariant failed: ... (impl/...:#)".
  std::string describe() const;

 private:
  FailureVerdict(bool run_failure, std::string signature) : _run_failure(run_failure), _signature(std::move(signature)) {}

  bool _run_failure;
  std::string _signature;  // the property, or the run failure's folded text
};

// The run's violation, or for a run failure a stand-in the story can tell: property "run failure",
// the failure's text, at the run's last event.
scenarios::Violation failure_of(const scenarios::SeedOutcome& outcome);

// "violates P", "breaks (text)" or "passes".
std::string describe_outcome(const scenarios::SeedOutcome& outcome);

}  // namespace spotcheck::replay
