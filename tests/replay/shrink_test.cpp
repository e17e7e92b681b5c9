// Shrinking a seed that fails because of a planted protocol bug (LocationConfig::planted_bugs).
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "replay/shrink/fixed_plan.h"
#include "replay/shrink/shrink_report.h"
#include "replay/shrink/shrinker.h"
#include "replay/story/story.h"
#include "scenarios/files/scenario_file.h"
#include "scenarios/authority/authority_scenarios.h"
#include "tests/campaign/needs_planted_bugs.h"

namespace spotcheck::replay {
namespace {

using scenarios::SeedOutcome;
using scenarios::SeedRequest;
using scenarios::authority::AuthorityScenario;
using scenarios::authority::AuthorityScenarioConfig;

constexpr std::uint64_t kSeedsMax = 60;
constexpr std::uint32_t kRunsMax = 120;

// lease-pause with handlers running past the admission deadline: single-owner catches it.
AuthorityScenarioConfig planted_config() {
  AuthorityScenarioConfig config = scenarios::authority::authority_scenario_config("lease-pause");
  config.protocol.planted_bugs.insert(planted::PlantedBug::kAdmitPastDeadline);
  return config;
}

// The default mix (every fault kind on) with NewOwner keeping the owner generation.
AuthorityScenarioConfig planted_mixed_config() {
  AuthorityScenarioConfig config = scenarios::authority::authority_scenario_config("default");
  config.protocol.planted_bugs.insert(planted::PlantedBug::kNewOwnerKeepsOwnerGeneration);
  return config;
}

std::uint64_t first_failing_seed(const AuthorityScenarioConfig& config, bool swarm) {
  const AuthorityScenario scenario(config);
  for (std::uint64_t seed = 1; seed <= kSeedsMax; ++seed) {
    if (scenario.run(SeedRequest{seed, swarm, false}).violation.has_value()) {
      return seed;
    }
  }
  return 0;
}

// The shrink of the planted bug's first failing seed, computed once for the tests that read it.
const ShrinkResult& planted_result() {
  static const ShrinkResult result = [] {
    const AuthorityScenarioConfig config = planted_config();
    const std::uint64_t seed = first_failing_seed(config, false);
    EXPECT_NE(seed, 0u) << "the planted bug was not caught in " << kSeedsMax << " seeds";
    ShrinkOptions options;
    options.max_runs = kRunsMax;
    return shrink(config, seed, false, options);
  }();
  return result;
}

std::uint32_t total_nodes_objects_kinds(const AuthorityScenarioConfig& c) {
  return c.node_count + c.workload.object_count + enabled_fault_kinds(c);
}

TEST(Shrink, KeepsTheSamePropertyAndIsSmaller) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const ShrinkResult& r = planted_result();
  ASSERT_TRUE(r.original_outcome.violation.has_value());
  ASSERT_TRUE(r.shrunk_outcome.violation.has_value());
  EXPECT_EQ(r.shrunk_outcome.violation->property, r.original_outcome.violation->property);
  EXPECT_LE(r.runs_used, kRunsMax);
  EXPECT_GE(r.runs_used, 2u + r.steps.size());
  // Nothing grew ...
  EXPECT_LE(enabled_fault_kinds(r.shrunk), enabled_fault_kinds(r.original));
  EXPECT_LE(r.shrunk.node_count, r.original.node_count);
  EXPECT_LE(r.shrunk.workload.object_count, r.original.workload.object_count);
  EXPECT_LE(r.shrunk.faults_stop_us, r.original.faults_stop_us);
  // ... and something shrank.
  ASSERT_FALSE(r.steps.empty());
  EXPECT_TRUE(total_nodes_objects_kinds(r.shrunk) < total_nodes_objects_kinds(r.original) ||
              r.shrunk.faults_stop_us < r.original.faults_stop_us)
      << describe_config(r.original) << "\n"
      << describe_config(r.shrunk);
  // The trace was kept for the story, and the shrunk configuration replays to the same run.
  EXPECT_EQ(r.shrunk_outcome.event_lines.size(), r.shrunk_outcome.events);
  const SeedOutcome again = AuthorityScenario(r.shrunk).run(SeedRequest{r.seed, false, false});
  EXPECT_EQ(again.trace_hash, r.shrunk_outcome.trace_hash);
  ASSERT_TRUE(again.violation.has_value());
  EXPECT_EQ(again.violation->event_index, r.shrunk_outcome.violation->event_index);
}

TEST(Shrink, TheWrittenFileReplaysToTheSameViolation) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const ShrinkResult& r = planted_result();
  const scenarios::files::ScenarioFileText text = scenarios::files::write_scenario(r.shrunk);
  // The planted bug travels in the file ("plantedBugs"), so the file alone replays the failure.
  EXPECT_TRUE(text.not_written.empty());
  const AuthorityScenarioConfig loaded = scenarios::files::parse_scenario(text.json, "shrunk.json");
  EXPECT_TRUE(loaded.protocol.planted_bugs.contains(planted::PlantedBug::kAdmitPastDeadline));
  EXPECT_EQ(scenarios::files::scenario_difference(r.shrunk, loaded), "");
  const SeedOutcome replayed = AuthorityScenario(loaded).run(SeedRequest{r.seed, false, false});
  EXPECT_EQ(replayed.trace_hash, r.shrunk_outcome.trace_hash);
  ASSERT_TRUE(replayed.violation.has_value());
  EXPECT_EQ(replayed.violation->property, r.shrunk_outcome.violation->property);
  EXPECT_EQ(replayed.violation->event_index, r.shrunk_outcome.violation->event_index);
  EXPECT_EQ(replayed.violation->message, r.shrunk_outcome.violation->message);
}

TEST(Shrink, IsDeterministic) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const ShrinkResult& first = planted_result();
  ShrinkOptions options;
  options.max_runs = kRunsMax;
  std::vector<std::string> heard;
  const ShrinkResult second = shrink(planted_config(), first.seed, false, options,
                                     [&heard](const ShrinkProgress& p) { heard.push_back(p.change); });
  EXPECT_EQ(scenarios::files::write_scenario(second.shrunk).json, scenarios::files::write_scenario(first.shrunk).json);
  EXPECT_EQ(second.runs_used, first.runs_used);
  EXPECT_EQ(second.shrunk_outcome.trace_hash, first.shrunk_outcome.trace_hash);
  ASSERT_EQ(heard.size(), first.steps.size());  // one progress call per kept step
  for (std::size_t i = 0; i < heard.size(); ++i) {
    EXPECT_EQ(heard[i], first.steps[i].change);
  }
}

TEST(Shrink, TheStoryEndsAtTheViolatingEvent) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const ShrinkResult& r = planted_result();
  const auto& v = *r.shrunk_outcome.violation;
  const Story story = tell_story(r.shrunk_outcome.event_lines, v);
  ASSERT_FALSE(story.events.empty());
  EXPECT_LE(story.events.size(), kStoryEventsMax + 8);
  EXPECT_FALSE(story.objects.empty()) << v.message;
  if (v.event_index < r.shrunk_outcome.events) {
    EXPECT_EQ(story.events.back().line.index, v.event_index);
    EXPECT_TRUE(story.events.back().key);
  }
  for (const auto& e : story.events) {
    EXPECT_LE(e.line.index, v.event_index);
  }
  // The report a person reads (also the example in docs/replay.md).
  std::ostringstream out;
  for (const auto& step : r.steps) {
    out << progress_line(step) << "\n";
  }
  print_shrink_summary(r, "shrunk.json", out);
  print_story(story, v, out);
  out << "replay: " << shrunk_replay_command("shrunk.json", r.seed) << "\n";
  out << "shrunk.json:\n" << scenarios::files::write_scenario(r.shrunk).json;
  EXPECT_NE(out.str().find("replay: spotcheck replay --scenario shrunk.json --seed " + std::to_string(r.seed)),
            std::string::npos);
  std::cout << out.str();
}

TEST(Shrink, APassingSeedIsRefused) {
  const AuthorityScenarioConfig real = scenarios::authority::authority_scenario_config("lease-pause");
  std::uint64_t passing = 0;
  for (std::uint64_t seed = 1; seed <= kSeedsMax && passing == 0; ++seed) {
    passing = AuthorityScenario(real).run(SeedRequest{seed, false, false}).ok() ? seed : 0;
  }
  ASSERT_NE(passing, 0u);
  try {
    shrink(real, passing, false, ShrinkOptions{});
    FAIL() << "a passing seed was shrunk";
  } catch (const ShrinkRefused& e) {
    EXPECT_EQ(e.reason, ShrinkRefusal::kSeedPasses);
    EXPECT_NE(std::string(e.what()).find("passes"), std::string::npos) << e.what();
  }
}

TEST(Shrink, ARunFailureShrinksToTheSameFailure) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  AuthorityScenarioConfig config = planted_config();
  config.max_steps = 1'000;  // the run ends as a failure ("step budget exhausted"), not a violation
  const ShrinkResult r = shrink(config, 1, false, ShrinkOptions{});
  ASSERT_FALSE(r.original_outcome.violation.has_value());
  ASSERT_TRUE(r.shrunk_outcome.failure.has_value());
  EXPECT_FALSE(r.shrunk_outcome.violation.has_value());
  EXPECT_NE(r.shrunk_outcome.failure->find("step budget"), std::string::npos) << *r.shrunk_outcome.failure;
  EXPECT_LE(r.shrunk_outcome.events, r.original_outcome.events);
}

TEST(Shrink, TheBudgetBoundsTheSearch) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const ShrinkResult& full = planted_result();
  ShrinkOptions options;
  options.max_runs = 2;  // only the two runs that confirm the failure
  const ShrinkResult r = shrink(planted_config(), full.seed, false, options);
  EXPECT_EQ(r.runs_used, 2u);
  EXPECT_TRUE(r.steps.empty());
  EXPECT_TRUE(r.budget_spent);
  EXPECT_EQ(scenarios::files::scenario_difference(r.original, r.shrunk).find("name:"), 0u);  // only the name differs
  EXPECT_EQ(r.shrunk_outcome.trace_hash, r.original_outcome.trace_hash);
}

TEST(Shrink, AFixedSeedsPlanRunsExactlyAsTheScenario) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  // Not swarm: making the plan explicit changes nothing in the run.
  const ShrinkResult& r = planted_result();
  const SeedOutcome as_given = AuthorityScenario(planted_config()).run(SeedRequest{r.seed, false, false});
  EXPECT_EQ(r.original_outcome.trace_hash, as_given.trace_hash);
}

TEST(Shrink, ASwarmSeedsDrawnPlanBecomesTheStartingPlan) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const AuthorityScenarioConfig config = planted_mixed_config();
  // The drawn plan, made explicit, runs exactly as the swarm seed did.
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto swarm = AuthorityScenario(config).run(SeedRequest{seed, true, false});
    const auto fixed = AuthorityScenario(with_fixed_plan(config, seed_fault_plan(config, seed, true)))
                           .run(SeedRequest{seed, false, false});
    EXPECT_EQ(swarm.trace_hash, fixed.trace_hash) << "seed " << seed;
  }
  const std::uint64_t seed = first_failing_seed(config, true);
  ASSERT_NE(seed, 0u);
  ShrinkOptions options;
  options.max_runs = 80;
  const ShrinkResult r = shrink(config, seed, true, options);
  EXPECT_TRUE(r.swarm);
  EXPECT_EQ(r.original.plan(r.original.faults_stop_us).describe(),
            round_to_millis(seed_fault_plan(config, seed, true)).describe());
  EXPECT_LE(enabled_fault_kinds(r.shrunk), enabled_fault_kinds(r.original));
  // The file holds the explicit plan and replays without swarm mode.
  // The file alone replays it: the planted bug travels in "plantedBugs".
  const AuthorityScenarioConfig loaded =
      scenarios::files::parse_scenario(scenarios::files::write_scenario(r.shrunk).json, "s.json");
  EXPECT_EQ(scenarios::files::scenario_difference(r.shrunk, loaded), "");
  const SeedOutcome replayed = AuthorityScenario(loaded).run(SeedRequest{seed, false, false});
  EXPECT_EQ(replayed.trace_hash, r.shrunk_outcome.trace_hash);
  ASSERT_TRUE(replayed.violation.has_value());
  EXPECT_EQ(replayed.violation->property, r.original_outcome.violation->property);
}

}  // namespace
}  // namespace spotcheck::replay
