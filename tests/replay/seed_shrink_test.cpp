// Shrinking any scenario, its parameters and then its decision log (replay/shrink/seed_shrink.h,
// shrinker.h, log_shrink.h): the planted creation bug (create-storm), framework 0.26's double
// execution (instance-route), a Location bug and a run failure each shrink to a run that fails the
// same way with fewer events, whose scenario file (stage 1) and decision log replay it to the same
// trace, and the search is deterministic.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "replay/shrink/failure_verdict.h"
#include "replay/shrink/log_shrink.h"
#include "replay/shrink/seed_shrink.h"
#include "scenarios/files/any_scenario_file.h"
#include "tests/campaign/needs_planted_bugs.h"

namespace spotcheck::replay {
namespace {

using scenarios::SeedOutcome;
using scenarios::SeedRequest;

std::unique_ptr<scenarios::Scenario> file_scenario(const std::string& json) {
  return scenarios::files::make_file_scenario(scenarios::files::parse_any_scenario(json, "test.json"));
}

std::uint64_t first_failing_seed(const scenarios::Scenario& scenario) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    if (!scenario.run(SeedRequest{seed, false, false}).ok()) {
      return seed;
    }
  }
  return 0;
}

// The shrunk run: the same failure, fewer events, and its log replays it (strictly) bit for bit.
void expect_shrunk(const scenarios::Scenario& scenario, const SeedShrinkResult& r) {
  const auto verdict = FailureVerdict::of(r.original_outcome);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->kept_by(r.shrunk_outcome)) << describe_outcome(r.shrunk_outcome);
  EXPECT_LT(r.shrunk_outcome.events, r.original_outcome.events);
  EXPECT_EQ(r.shrunk_outcome.event_lines.size(), r.shrunk_outcome.events);
  ASSERT_NE(r.shrunk_outcome.decision_log, nullptr);
  SeedRequest again{r.seed, r.swarm, false};
  again.replay_decisions = r.shrunk_outcome.decision_log;
  const SeedOutcome replayed = scenario.run(again);
  EXPECT_EQ(replayed.trace_hash, r.shrunk_outcome.trace_hash) << describe_outcome(replayed);
}

TEST(SeedShrink, TheWorldsStreamsAreEditedAndTheNodesOwnAreNot) {
  EXPECT_TRUE(editable_stream("scheduler"));
  EXPECT_TRUE(editable_stream("network"));
  EXPECT_TRUE(editable_stream("faults"));
  EXPECT_TRUE(editable_stream("faults.link_stall"));
  EXPECT_TRUE(editable_stream("store.faults/scan-expired"));
  EXPECT_TRUE(editable_stream("relocation-store.faults"));
  EXPECT_FALSE(editable_stream("node/node-0/run/1")) << "OwnerIds and OperationIds are drawn there";
  EXPECT_FALSE(editable_stream("clock"));
  EXPECT_FALSE(editable_stream("generations"));
  EXPECT_EQ(quiet_value(sim::Decision{5, 0, 0}), ~std::uint64_t{0});
  EXPECT_EQ(quiet_value(sim::Decision{2, 0, 3}), 0u);
}

// Stage 1's scenario, read back from the file the CLI writes for it: it runs the seed the way the
// parameter stage ended, and the shrunk decision log replays on it.
std::unique_ptr<scenarios::Scenario> shrunk_file_scenario(const SeedShrinkResult& r) {
  const scenarios::files::ScenarioFileText file = scenarios::files::write_any_scenario(r.parameters->shrunk);
  EXPECT_TRUE(file.not_written.empty());
  auto scenario = file_scenario(file.json);
  EXPECT_EQ(scenario->run(SeedRequest{r.seed, false, false}).trace_hash, r.parameters->shrunk_outcome.trace_hash)
      << file.json;
  return scenario;
}

TEST(SeedShrink, ThePlantedCreationBugShrinksItsParametersThenItsLog) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const auto scenario = file_scenario(
      R"({"scenarioVersion": 1, "name": "fbv", "base": "create-storm", "plantedBugs": ["factory-before-verify"]})");
  const std::uint64_t seed = first_failing_seed(*scenario);
  ASSERT_NE(seed, 0u);
  // A bounded search (60 runs, twice): the stages, their order and determinism are under test, not
  // how far they get.
  const SeedShrinkResult r = shrink_seed(*scenario, seed, false, 60);
  ASSERT_TRUE(r.parameters.has_value());
  const auto& before = std::get<scenarios::creation::CreationScenarioConfig>(r.parameters->original);
  const auto& after = std::get<scenarios::creation::CreationScenarioConfig>(r.parameters->shrunk);
  EXPECT_LE(after.node_count, before.node_count);
  EXPECT_LE(after.workload.actor_ids, before.workload.actor_ids);
  EXPECT_LT(r.parameters->shrunk_outcome.events, r.original_outcome.events) << "create-storm has room to shrink";
  EXPECT_LE(r.shrunk_outcome.events, r.parameters->shrunk_outcome.events);
  EXPECT_LE(r.runs_used, 60u);
  expect_shrunk(*shrunk_file_scenario(r), r);

  const SeedShrinkResult again = shrink_seed(*scenario, seed, false, 60);
  EXPECT_EQ(again.shrunk_outcome.trace_hash, r.shrunk_outcome.trace_hash) << "same input, same result";
  EXPECT_EQ(again.steps.size(), r.steps.size());
}

TEST(SeedShrink, TheDoubleExecutionOfFramework026ShrinksItsParametersThenItsLog) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const auto scenario = file_scenario(R"({"scenarioVersion": 1, "name": "rsir", "base": "instance-route",
      "plantedBugs": ["retry-stale-instance-route"], "properties": ["at-most-once"]})");
  const std::uint64_t seed = first_failing_seed(*scenario);
  ASSERT_NE(seed, 0u);
  const SeedShrinkResult r = shrink_seed(*scenario, seed, false, 100);
  ASSERT_TRUE(r.shrunk_outcome.violation.has_value());
  EXPECT_EQ(r.shrunk_outcome.violation->property, "at-most-once");
  ASSERT_TRUE(r.parameters.has_value());
  const auto& after = std::get<scenarios::instance::InstanceScenarioConfig>(r.parameters->shrunk);
  EXPECT_TRUE(after.protocol.planted_bugs.contains(planted::PlantedBug::kRetryStaleInstanceRoute));
  expect_shrunk(*shrunk_file_scenario(r), r);
}

TEST(SeedShrink, ALocationSeedShrinksItsParametersThenItsLog) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const auto scenario = file_scenario(R"({"scenarioVersion": 1, "name": "pd", "base": "lease-pause",
      "plantedBugs": ["unfenced-writes"], "properties": ["fencing"]})");
  const std::uint64_t seed = first_failing_seed(*scenario);
  ASSERT_NE(seed, 0u);
  // A bounded search (1,000,000 events in all: about a second here, half a minute under ASan,
  // where the default budget took a minute): the stages and their order are under test, not how
  // far they get.
  const SeedShrinkResult r = shrink_seed(*scenario, seed, false, 100, 1'000'000);
  ASSERT_TRUE(r.parameters.has_value());
  EXPECT_LE(r.shrunk_outcome.events, r.parameters->shrunk_outcome.events);
  EXPECT_LE(r.parameters->shrunk_outcome.events, r.original_outcome.events);
  // The log replays on the shrunk configuration, not on the original.
  expect_shrunk(*shrunk_file_scenario(r), r);
}

TEST(SeedShrink, ARunFailureShrinksKeepingItsSignature) {
  const auto scenario = file_scenario(
      R"({"scenarioVersion": 1, "name": "budget", "base": "create-storm", "maxSteps": 3000})");
  const SeedOutcome first = scenario->run(SeedRequest{1, false, false});
  ASSERT_TRUE(first.failure.has_value() && !first.violation.has_value()) << describe_outcome(first);
  const SeedShrinkResult r = shrink_seed(*scenario, 1, false, 20);
  ASSERT_TRUE(r.shrunk_outcome.failure.has_value());
  EXPECT_EQ(*r.shrunk_outcome.failure, *first.failure);
  EXPECT_LE(r.shrunk_outcome.events, r.original_outcome.events);
}

TEST(SeedShrink, APassingSeedIsRefused) {
  const auto scenario = file_scenario(R"({"scenarioVersion": 1, "name": "plain", "base": "create-storm"})");
  try {
    shrink_seed(*scenario, 1, false, 20);
    FAIL() << "a passing seed was shrunk";
  } catch (const ShrinkRefused& e) {
    EXPECT_EQ(e.reason, ShrinkRefusal::kSeedPasses);
  }
}

}  // namespace
}  // namespace spotcheck::replay
