#include "reports/campaign_result.h"

#include "impl/check/check.h"
#include "reports/shell_quote.h"

namespace spotcheck::reports {

namespace {

FailureKind* find_kind(std::vector<FailureKind>& kinds, bool run_failure, const std::string& signature) {
  for (FailureKind& kind : kinds) {
    if (kind.run_failure == run_failure && kind.signature == signature) {
      return &kind;
    }
  }
  return nullptr;
}

std::string seed_command(const char* verb, const std::string& scenario, std::uint64_t seed, bool swarm) {
  std::string command = std::string("spotcheck ") + verb + " --scenario " + shell_quote(scenario) + " --seed " +
                        std::to_string(seed);
  if (swarm) {
    command += " --swarm";
  }
  return command;
}

}  // namespace

std::vector<platform::Mark> CampaignResult::missing_marks() const {
  std::vector<platform::Mark> missing;
  if (!required_marks.has_value()) {
    return missing;
  }
  for (platform::Mark mark : *required_marks) {
    if (mark_seeds[static_cast<std::size_t>(mark)] == 0) {
      missing.push_back(mark);
    }
  }
  return missing;
}

void CampaignResult::add(const scenarios::SeedOutcome& outcome, std::optional<DeterminismMismatch> mismatch,
                         bool rechecked) {
  SPOTCHECK_ASSERT_ABORT(outcome.seed >= first_seed);
  ++seeds_run;
  determinism_rechecked += rechecked ? 1 : 0;
  events_total += outcome.events;
  simulated_us_total += outcome.simulated_us;
  for (std::size_t i = 0; i < platform::kMarkCount; ++i) {
    mark_hits[i] += outcome.marks[i];
    mark_seeds[i] += outcome.marks[i] != 0 ? 1 : 0;
  }
  if (mismatch.has_value()) {
    ++mismatching_seeds;
    if (mismatches.size() < kMismatchesKeptMax) {
      mismatches.push_back(std::move(*mismatch));
    }
  }
  if (outcome.ok()) {
    return;
  }
  if (outcome.failed_only_out_of_contract()) {
    add_out_of_contract(outcome);
    return;
  }
  const bool run_failure = !outcome.violation.has_value();
  if (run_failure) {
    ++run_failure_seeds;
  } else {
    ++violating_seeds;
    ++violations_per_property[outcome.violation->property];
  }
  if (failures.size() < kFailuresKeptMax) {
    scenarios::SeedOutcome kept = outcome;
    kept.event_hashes.clear();
    kept.event_lines.clear();
    failures.push_back(std::move(kept));
  }
  const std::string message = run_failure ? outcome.failure.value_or("?") : outcome.violation->message;
  const std::string signature = run_failure ? run_failure_signature(message) : outcome.violation->property;
  if (FailureKind* kind = find_kind(failure_kinds, run_failure, signature)) {
    ++kind->seeds;
  } else if (failure_kinds.size() < kFailureKindsKeptMax) {
    failure_kinds.push_back(FailureKind{run_failure, signature, message, outcome.seed, 1});
  } else {
    ++other_failure_seeds;
  }
}

void CampaignResult::add_out_of_contract(const scenarios::SeedOutcome& outcome) {
  ++out_of_contract_seeds;
  for (const std::string& kind : outcome.out_of_contract_needed) {
    ++out_of_contract_per_kind[kind];
  }
  if (out_of_contract_failures.size() < kFailuresKeptMax) {
    scenarios::SeedOutcome kept = outcome;
    kept.event_hashes.clear();
    kept.event_lines.clear();
    out_of_contract_failures.push_back(std::move(kept));
  }
}

std::string run_failure_signature(const std::string& failure) {
  std::string signature;
  signature.reserve(failure.size());
  for (std::size_t i = 0; i < failure.size(); ++i) {
    const bool digit = failure[i] >= '0' && failure[i] <= '9';
    if (!digit) {
      signature += failure[i];
    } else if (signature.empty() || signature.back() != '#') {
      signature += '#';
    }
  }
  return signature;
}

std::string replay_command(const std::string& scenario, std::uint64_t seed, bool swarm,
                           const std::string& out_of_contract) {
  std::string command = seed_command("replay", scenario, seed, swarm);
  if (!out_of_contract.empty()) {
    command += " --out-of-contract " + shell_quote(out_of_contract);
  }
  return command;
}

std::string shrink_command(const std::string& scenario, std::uint64_t seed, bool swarm) {
  return seed_command("shrink", scenario, seed, swarm);
}

}  // namespace spotcheck::reports
