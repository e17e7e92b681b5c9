#include "replay/shrink/shrinker.h"

#include "impl/check/check.h"
#include "replay/shrink/failure_verdict.h"
#include "sim/time/time_text.h"
#include "replay/shrink/fixed_plan.h"
#include "replay/shrink/shrink_steps.h"

namespace spotcheck::replay {

namespace {

using scenarios::SeedOutcome;
using scenarios::SeedRequest;
using scenarios::authority::AuthorityScenario;
using scenarios::authority::AuthorityScenarioConfig;
using scenarios::creation::CreationScenario;
using scenarios::creation::CreationScenarioConfig;
using scenarios::instance::InstanceScenario;
using scenarios::instance::InstanceScenarioConfig;

// Bound on passes over the steps (each pass that keeps nothing ends the search; the run budget
// normally ends it first).
constexpr std::uint32_t kPassesMax = 64;
// Bound on repeating one kept step in a pass (each step also stops at its own floor).
constexpr std::uint32_t kStepRepeatsMax = 64;

// Runs of one seed under a budget. `ScenarioT` is the family's scenario (its constructor takes the
// family's config).
template <class ScenarioT>
class Search {
 public:
  Search(std::uint64_t seed, std::uint32_t max_runs, std::uint64_t max_events)
      : _seed(seed), _max_runs(max_runs), _max_events(max_events) {}

  bool budget_left() const { return _runs < _max_runs && _events < _max_events; }
  std::uint32_t runs() const { return _runs; }
  std::uint64_t events() const { return _events; }

  template <class Config>
  SeedOutcome run(const Config& config, bool swarm) {
    ++_runs;
    SeedOutcome outcome = ScenarioT(config).run(SeedRequest{_seed, swarm, false});
    _events += outcome.events;
    return outcome;
  }

 private:
  std::uint64_t _seed;
  std::uint32_t _max_runs;
  std::uint64_t _max_events;
  std::uint32_t _runs = 0;
  std::uint64_t _events = 0;
};

// 1. The seed as the campaign ran it must fail: how.
template <class SearchT, class Config>
FailureVerdict confirm_failure(SearchT& search, const Config& config, std::uint64_t seed, bool swarm) {
  const std::optional<FailureVerdict> verdict = FailureVerdict::of(search.run(config, swarm));
  if (!verdict.has_value()) {
    throw ShrinkRefused(ShrinkRefusal::kSeedPasses, "seed " + std::to_string(seed) + " of " + config.name +
                                                        (swarm ? " (swarm)" : "") +
                                                        " passes: there is no failure to shrink");
  }
  return *verdict;
}

// The run the search stands on: a configuration and what it did.
template <class Config>
struct Standing {
  Config config;
  SeedOutcome outcome;
};

// 2. The same seed with its plan explicit (and durations in whole ms, as a file holds them).
template <class SearchT, class Config>
Standing<Config> explicit_plan(SearchT& search, const Config& config, std::uint64_t seed, bool swarm,
                               const FailureVerdict& verdict) {
  Config fixed = with_fixed_plan(config, round_to_millis(seed_fault_plan(config, seed, swarm)));
  SeedOutcome outcome = search.run(fixed, false);
  if (!verdict.kept_by(outcome)) {
    throw ShrinkRefused(ShrinkRefusal::kNotRepresentable, "seed " + std::to_string(seed) + " fails (" + verdict.describe() + ")" +
                                                              ", but with its fault plan written as a "
                                                              "scenario file (durations in whole milliseconds) it " +
                                                              describe_outcome(outcome));
  }
  return Standing<Config>{std::move(fixed), std::move(outcome)};
}

// 3. Greedy passes over the steps, each kept change becoming the new standing.
template <class SearchT, class Config>
class GreedyPasses {
 public:
  GreedyPasses(SearchT& search, const FailureVerdict& verdict, Standing<Config> start,
               const std::function<void(const ShrinkProgress&)>& on_progress)
      : _search(search), _verdict(verdict), _current(std::move(start)), _on_progress(on_progress) {}

  // Runs passes over `steps` to a fixed point (true) or the end of the budget (false).
  bool run_to_fixed_point(const std::vector<ShrinkStepOf<Config>>& steps) {
    for (std::uint32_t pass = 0; pass < kPassesMax && _search.budget_left(); ++pass) {
      bool kept_in_pass = false;
      bool pass_complete = true;
      for (const ShrinkStepOf<Config>& step : steps) {
        const StepResult result = repeat_step(step);
        kept_in_pass = kept_in_pass || result.kept;
        pass_complete = pass_complete && !result.budget_ran_out;
      }
      if (pass_complete && !kept_in_pass) {
        return true;
      }
    }
    return false;
  }

  const Standing<Config>& current() const { return _current; }
  std::vector<ShrinkProgress> take_steps() { return std::move(_steps); }

 private:
  struct StepResult {
    bool kept = false;
    bool budget_ran_out = false;
  };

  // Repeats a kept step: each step moves towards a floor, so this ends.
  StepResult repeat_step(const ShrinkStepOf<Config>& step) {
    StepResult result;
    for (std::uint32_t repeat = 0; repeat < kStepRepeatsMax; ++repeat) {
      auto candidate = step.propose(_current.config, _current.outcome.violation.value_or(scenarios::Violation{}));
      if (!candidate.has_value()) {
        break;
      }
      if (!_search.budget_left()) {
        result.budget_ran_out = true;
        break;
      }
      SeedOutcome outcome = _search.run(candidate->config, false);
      if (!_verdict.kept_by(outcome) || outcome.events > _current.outcome.events) {
        break;
      }
      _current = Standing<Config>{std::move(candidate->config), std::move(outcome)};
      result.kept = true;
      _steps.push_back(ShrinkProgress{candidate->change, _search.runs(), still_text(_current.outcome)});
      if (_on_progress) {
        _on_progress(_steps.back());
      }
    }
    return result;
  }

  SearchT& _search;
  const FailureVerdict& _verdict;
  Standing<Config> _current;
  const std::function<void(const ShrinkProgress&)>& _on_progress;
  std::vector<ShrinkProgress> _steps;
};

}  // namespace

std::string still_text(const SeedOutcome& outcome) {
  const std::string events = std::to_string(outcome.events) + " events";
  if (outcome.violation.has_value()) {
    const auto& v = *outcome.violation;
    return v.property + " at " + sim::seconds_short(v.time_us) + " (event #" + std::to_string(v.event_index) + "), " +
           events;
  }
  return "run failure, " + events;
}

namespace {

// The search of every family: `ScenarioT` runs a `Config`; `steps` are the family's.
template <class ScenarioT, class Config>
ShrinkResultOf<Config> shrink_config(const Config& config, std::uint64_t seed, bool swarm, const ShrinkOptions& options,
                                     const std::vector<ShrinkStepOf<Config>>& steps,
                                     const std::function<void(const ShrinkProgress&)>& on_progress) {
  SPOTCHECK_ASSERT_ABORT(options.max_runs >= 2 && "the search needs two runs to confirm the failure");
  Search<ScenarioT> search(seed, options.max_runs, options.max_events);
  ShrinkResultOf<Config> result;
  result.seed = seed;
  result.swarm = swarm;

  const FailureVerdict verdict = confirm_failure(search, config, seed, swarm);
  Standing<Config> start = explicit_plan(search, config, seed, swarm, verdict);
  result.original = start.config;
  result.original_outcome = start.outcome;

  GreedyPasses<Search<ScenarioT>, Config> passes(search, verdict, std::move(start), on_progress);
  const bool fixed_point = passes.run_to_fixed_point(steps);
  result.steps = passes.take_steps();
  result.runs_used = search.runs();
  result.events_used = search.events();
  result.budget_spent = !fixed_point;

  // 4. The result's run again, keeping its trace for the story. Determinism: it must be the run the
  // search saw.
  const Standing<Config>& current = passes.current();
  result.shrunk = current.config;
  result.shrunk.name = config.name + "-seed-" + std::to_string(seed) + "-shrunk";
  result.shrunk.description = "spotcheck shrink of " + config.name + " seed " + std::to_string(seed) +
                              (swarm ? " (swarm)" : "") + ": " + std::to_string(result.steps.size()) + " step(s) in " +
                              std::to_string(result.runs_used) + " run(s)";
  result.shrunk_outcome = ScenarioT(current.config).run(SeedRequest{seed, false, true});
  if (result.shrunk_outcome.trace_hash != current.outcome.trace_hash || !verdict.kept_by(result.shrunk_outcome)) {
    throw ShrinkRefused(ShrinkRefusal::kNondeterministic,
                        "the shrunk configuration did not run the same way twice (a determinism bug): seed " +
                            std::to_string(seed) + " " + describe_outcome(current.outcome) + ", then " +
                            describe_outcome(result.shrunk_outcome));
  }
  return result;
}

}  // namespace

ShrinkResult shrink(const AuthorityScenarioConfig& config, std::uint64_t seed, bool swarm, const ShrinkOptions& options,
                    const std::function<void(const ShrinkProgress&)>& on_progress) {
  return shrink_config<AuthorityScenario>(config, seed, swarm, options, shrink_steps(), on_progress);
}

ShrinkResultOf<CreationScenarioConfig> shrink(const CreationScenarioConfig& config, std::uint64_t seed, bool swarm,
                                              const ShrinkOptions& options,
                                              const std::function<void(const ShrinkProgress&)>& on_progress) {
  return shrink_config<CreationScenario>(config, seed, swarm, options, creation_shrink_steps(), on_progress);
}

ShrinkResultOf<InstanceScenarioConfig> shrink(const InstanceScenarioConfig& config, std::uint64_t seed, bool swarm,
                                              const ShrinkOptions& options,
                                              const std::function<void(const ShrinkProgress&)>& on_progress) {
  return shrink_config<InstanceScenario>(config, seed, swarm, options, instance_shrink_steps(), on_progress);
}

}  // namespace spotcheck::replay
