#include "replay/regression/regression_corpus.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "replay/shrink/failure_verdict.h"
#include "scenarios/files/any_scenario_file.h"
#include "scenarios/registry/registry.h"
#include "sim/choice/decision_log_text.h"

namespace spotcheck::replay {

namespace {

using scenarios::files::AnyScenarioConfig;

AnyScenarioConfig scenario_of(const TraceFile& file) {
  if (!file.scenario_file_text.has_value()) {
    throw TraceFileError("the corpus needs the scenario's file text; '" + file.scenario_name +
                         "' is a built-in name (run it from a scenario file)");
  }
  try {
    return scenarios::files::parse_any_scenario(*file.scenario_file_text, "the trace file's scenario");
  } catch (const scenarios::files::ScenarioFileError& e) {
    throw TraceFileError(e.what());
  }
}

scenarios::SeedOutcome from_log(const scenarios::Scenario& scenario, const TraceFile& file,
                                const std::shared_ptr<const sim::DecisionLog>& log) {
  scenarios::SeedRequest request{file.seed, file.swarm, false};
  request.replay_decisions = log;
  request.lenient_replay = true;
  return scenario.run(request);
}

// The recorded failure, as the file states it.
FailureVerdict recorded_verdict(const TraceFile& file) {
  scenarios::SeedOutcome recorded;
  if (file.verdict_kind == "violation") {
    recorded.violation = scenarios::Violation{file.property, file.message, 0, file.event_index};
  } else if (file.verdict_kind == "run_failure") {
    recorded.failure = file.message;
  } else {
    throw TraceFileError("the trace file's run passed: a corpus entry is a failure that was fixed");
  }
  return *FailureVerdict::of(recorded);
}

}  // namespace

RegressionVerdict check_regression(const std::string& path, const TraceFile& file) {
  const AnyScenarioConfig config = scenario_of(file);
  const FailureVerdict verdict = recorded_verdict(file);
  std::shared_ptr<const sim::DecisionLog> log;
  try {
    log = std::make_shared<const sim::DecisionLog>(sim::parse_decision_log(file.decision_log));
  } catch (const sim::DecisionLogError& e) {
    throw TraceFileError(std::string("its decision log: ") + e.what());
  }
  RegressionVerdict result{path, false, ""};
  const auto fixed = scenarios::files::make_file_scenario(scenarios::files::without_planted_bugs(config));
  const scenarios::SeedOutcome fixed_run = from_log(*fixed, file, log);
  if (!fixed_run.ok()) {
    result.what = "REGRESSION: the fixed run " + describe_outcome(fixed_run) + " (" +
                  failure_of(fixed_run).message + ")";
    return result;
  }
  result.what = "the fixed run passes (" + std::to_string(fixed_run.events) + " events)";
  if (scenarios::files::plants_bugs(config)) {
    const auto planted = scenarios::files::make_file_scenario(config);
    const scenarios::SeedOutcome planted_run = from_log(*planted, file, log);
    if (!verdict.kept_by(planted_run)) {
      result.what += "; STALE: with its bug planted the run " + describe_outcome(planted_run) + ", not " +
                     verdict.describe() + " as recorded";
      return result;
    }
    result.what += "; with the bug planted it still fails (" + verdict.describe() + ")";
  }
  result.passed = true;
  return result;
}

std::vector<std::string> corpus_files(const std::string& dir) {
  std::error_code error;
  std::vector<std::string> files;
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (it->is_regular_file() && name.ends_with(".trace.jsonl")) {
      files.push_back(it->path().string());
    }
    if (files.size() > kCorpusFilesMax) {
      throw TraceFileError("'" + dir + "' holds more than " + std::to_string(kCorpusFilesMax) + " trace files");
    }
  }
  if (error) {
    throw TraceFileError("cannot read the corpus folder '" + dir + "': " + error.message());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace spotcheck::replay
