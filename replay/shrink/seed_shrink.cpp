#include "replay/shrink/seed_shrink.h"

#include <utility>

#include "impl/check/check.h"
#include "replay/shrink/failure_verdict.h"
#include "replay/shrink/log_shrink.h"
#include "scenarios/authority/authority_scenario.h"
#include "scenarios/creation/creation_scenario.h"
#include "scenarios/instance/instance_scenario.h"

namespace spotcheck::replay {

namespace {

using scenarios::Scenario;
using scenarios::SeedOutcome;
using scenarios::SeedRequest;

SeedOutcome recorded_run(const Scenario& scenario, std::uint64_t seed, bool swarm) {
  SeedRequest request{seed, swarm, true};
  request.record_decisions = true;
  return scenario.run(request);
}

LogRun lenient_runner(const Scenario& scenario, std::uint64_t seed, bool swarm) {
  return [&scenario, seed, swarm](std::shared_ptr<const sim::DecisionLog> log) {
    SeedRequest request{seed, swarm, true};
    request.replay_decisions = std::move(log);
    request.lenient_replay = true;
    request.record_decisions = true;
    return scenario.run(request);
  };
}

// The search's last run, from its recorded log, strictly and traced: it must be the same run.
SeedOutcome traced_replay(const Scenario& scenario, const SeedOutcome& searched, std::uint64_t seed, bool swarm,
                          const FailureVerdict& verdict) {
  SeedRequest request{seed, swarm, true};
  request.replay_decisions = searched.decision_log;
  SeedOutcome traced = scenario.run(request);
  if (traced.trace_hash != searched.trace_hash || !verdict.kept_by(traced)) {
    throw ShrinkRefused(ShrinkRefusal::kNondeterministic,
                        "the shrunk run did not run the same way from its decision log (a determinism bug): seed " +
                            std::to_string(seed) + " " + describe_outcome(searched) + ", then " +
                            describe_outcome(traced));
  }
  traced.decision_log = searched.decision_log;
  return traced;
}

// The config of a scenario whose family a file can hold, or nothing.
std::optional<scenarios::files::AnyScenarioConfig> file_config_of(const Scenario& scenario) {
  if (const auto* location = dynamic_cast<const scenarios::authority::AuthorityScenario*>(&scenario)) {
    return location->config();
  }
  if (const auto* creation = dynamic_cast<const scenarios::creation::CreationScenario*>(&scenario)) {
    return creation->config();
  }
  if (const auto* instance = dynamic_cast<const scenarios::instance::InstanceScenario*>(&scenario)) {
    return instance->config();
  }
  return std::nullopt;
}

// Stage 1 on the family's own config; the progress so far goes into `result`.
ParameterStage parameter_stage(const scenarios::files::AnyScenarioConfig& config, std::uint64_t seed, bool swarm,
                               const ShrinkOptions& options,
                               const std::function<void(const ShrinkProgress&)>& on_progress,
                               SeedShrinkResult& result) {
  return std::visit(
      [&](const auto& family_config) {
        auto stage = shrink(family_config, seed, swarm, options, on_progress);
        result.original_outcome = stage.original_outcome;
        result.steps = stage.steps;
        result.runs_used = stage.runs_used;
        result.events_used = stage.events_used;
        return ParameterStage{stage.original, stage.shrunk, stage.shrunk_outcome, stage.budget_spent};
      },
      config);
}

}  // namespace

SeedShrinkResult shrink_seed(const Scenario& scenario, std::uint64_t seed, bool swarm, std::uint32_t max_runs,
                             std::uint64_t max_events, const std::function<void(const ShrinkProgress&)>& on_progress) {
  SPOTCHECK_ASSERT_ABORT(max_runs >= 4 && "two runs confirm the failure, two start the log stage");
  SeedShrinkResult result;
  result.seed = seed;
  result.swarm = swarm;

  // Stage 1, or the failure confirmed.
  std::unique_ptr<Scenario> shrunk_scenario;
  const Scenario* standing = &scenario;
  bool standing_swarm = swarm;
  if (const auto config = file_config_of(scenario)) {
    ShrinkOptions options;
    options.max_runs = max_runs / 2;
    options.max_events = max_events / 2;
    result.parameters = parameter_stage(*config, seed, swarm, options, on_progress, result);
    shrunk_scenario = scenarios::files::make_file_scenario(result.parameters->shrunk);
    standing = shrunk_scenario.get();
    standing_swarm = false;  // the seed's plan is explicit in the shrunk configuration
  }

  ++result.runs_used;
  SeedOutcome start = recorded_run(*standing, seed, standing_swarm);
  result.events_used += start.events;
  const std::optional<FailureVerdict> verdict = FailureVerdict::of(start);
  if (!verdict.has_value()) {
    throw ShrinkRefused(ShrinkRefusal::kSeedPasses, "seed " + std::to_string(seed) + " of " + scenario.name() +
                                                        (swarm ? " (swarm)" : "") +
                                                        " passes: there is no failure to shrink");
  }
  if (!result.parameters.has_value()) {
    result.original_outcome = start;
  }

  // Stage 2.
  const std::uint32_t log_runs = max_runs > result.runs_used ? max_runs - result.runs_used : 0;
  const std::uint64_t log_events = max_events > result.events_used ? max_events - result.events_used : 0;
  const std::uint32_t runs_before = result.runs_used;
  LogShrinkResult log = shrink_decision_log(
      lenient_runner(*standing, seed, standing_swarm), std::move(start), *verdict, log_runs, log_events,
      [&](const LogShrinkStep& step) {
        result.steps.push_back(ShrinkProgress{step.change, runs_before + step.runs_used, step.still});
        if (on_progress) {
          on_progress(result.steps.back());
        }
      });
  result.runs_used += log.runs_used;
  result.events_used += log.events_used;
  result.budget_spent = log.budget_spent || (result.parameters.has_value() && result.parameters->budget_spent);
  result.shrunk_outcome = traced_replay(*standing, log.outcome, seed, standing_swarm, *verdict);
  SPOTCHECK_ASSERT_ABORT(result.shrunk_outcome.events <= result.original_outcome.events);
  return result;
}

}  // namespace spotcheck::replay
