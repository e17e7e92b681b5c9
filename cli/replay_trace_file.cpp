// `spotcheck replay FILE`: a trace file (replay/trace_file/trace_file.h) run again. On the build
// that wrote it the seed runs as the campaign ran it and its trace hash must match; on another
// build (another commit or binary) a warning says so, the run follows the file's decision log, and
// the first event where the two runs part is reported. A shrunk run's file ("replayFrom":
// "decisionLog") always runs from its decision log: the log, not the seed, is that run. Exit: 0 the run passed, 1 it failed (or,
// on the same build, did not reproduce), 2 bad input.
#include "cli/replay_trace_file.h"

#include <iostream>
#include <memory>

#include "cli/build_id.h"
#include "cli/commands.h"
#include "cli/scenario_lookup.h"
#include "faults/out_of_contract.h"
#include "scenarios/files/any_scenario_file.h"
#include "sim/choice/decision_log_text.h"

namespace spotcheck::cli {

namespace {

std::unique_ptr<scenarios::Scenario> owned_scenario_of(const replay::TraceFile& file) {
  if (!file.scenario_file_text.has_value()) {
    return nullptr;
  }
  try {
    return scenarios::files::make_file_scenario(
        scenarios::files::parse_any_scenario(*file.scenario_file_text, "the trace file's scenario"));
  } catch (const scenarios::files::ScenarioFileError& e) {
    throw UsageError(e.what());
  }
}

std::string verdict_of(const scenarios::SeedOutcome& outcome) {
  if (outcome.violation.has_value()) {
    return "VIOLATION " + outcome.violation->property + " (event " + std::to_string(outcome.violation->event_index) +
           "): " + outcome.violation->message;
  }
  return outcome.failure.has_value() ? "RUN FAILURE: " + *outcome.failure : std::string("passed");
}

// The first event where the file's run and this one part, or nullopt when they agree throughout.
std::optional<std::size_t> first_difference(const std::vector<std::string>& recorded,
                                            const std::vector<std::string>& now) {
  const std::size_t common = std::min(recorded.size(), now.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (recorded[i] != now[i]) {
      return i;
    }
  }
  return recorded.size() == now.size() ? std::nullopt : std::optional(common);
}

}  // namespace

int replay_trace_file(const std::string& path) {
  replay::TraceFile file;
  try {
    file = replay::read_trace_file(path);
  } catch (const replay::TraceFileError& e) {
    throw UsageError(e.what());
  }
  const std::unique_ptr<scenarios::Scenario> owned = owned_scenario_of(file);
  const scenarios::Scenario& scenario = owned != nullptr ? *owned : find_scenario(file.scenario_name);
  scenarios::SeedRequest request{file.seed, file.swarm, true};
  request.out_of_contract =
      out_of_contract_flag(file.out_of_contract.empty() ? std::nullopt : std::optional(file.out_of_contract), scenario);
  const bool same_build = file.build == this_build();
  if (!same_build) {
    std::cerr << "spotcheck: warning: the trace file is of another build (commit " << file.build.commit
              << "); replaying from its decision log\n";
  }
  if (!same_build || file.replay_from_decision_log) {
    try {
      request.replay_decisions = std::make_shared<const sim::DecisionLog>(sim::parse_decision_log(file.decision_log));
    } catch (const sim::DecisionLogError& e) {
      throw UsageError(std::string("trace file: ") + e.what());
    }
  }
  const scenarios::SeedOutcome outcome = scenario.run(request);
  std::cout << "scenario " << file.scenario_name << (file.swarm ? " (swarm)" : "") << ", seed " << file.seed << ": "
            << outcome.events << " events, trace hash " << std::hex << outcome.trace_hash << std::dec
            << " (the file: " << file.events << " events, trace hash " << std::hex << file.trace_hash << std::dec
            << ")\n";
  std::cout << "the file's verdict: " << file.verdict_kind << (file.property.empty() ? "" : " " + file.property)
            << "\nthis run:           " << verdict_of(outcome) << "\n";
  const std::optional<std::size_t> parted = first_difference(file.event_lines, outcome.event_lines);
  if (!parted.has_value()) {
    std::cout << (same_build ? "reproduced: the same trace, event for event\n"
                             : "the two runs agree on every event\n");
  } else {
    const std::size_t i = *parted;
    std::cout << "the runs part at event " << i << "\n  the file: "
              << (i < file.event_lines.size() ? file.event_lines[i] : "(its run ended)") << "\n  this run: "
              << (i < outcome.event_lines.size() ? outcome.event_lines[i] : "(this run ended)") << "\n";
    if (same_build) {
      std::cout << "NONDETERMINISM: the same build did not reproduce the file's run\n";
      return kExitViolations;
    }
  }
  return outcome.ok() ? kExitPassed : kExitViolations;
}

}  // namespace spotcheck::cli
