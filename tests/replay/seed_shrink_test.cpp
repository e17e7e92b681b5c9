// Shrinking any scenario from its decision log (replay/shrink/seed_shrink.h, log_shrink.h): the
// planted creation bug (create-storm), framework 0.26's double execution (instance-route) and a
// run failure each shrink to a run that fails the same way with fewer events, that replays from
// its decision log to the same trace, and the search is deterministic.
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

TEST(SeedShrink, ThePlantedCreationBugShrinksFromItsLog) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const auto scenario = file_scenario(
      R"({"scenarioVersion": 1, "name": "fbv", "base": "create-storm", "plantedBugs": ["factory-before-verify"]})");
  const std::uint64_t seed = first_failing_seed(*scenario);
  ASSERT_NE(seed, 0u);
  const SeedShrinkResult r = shrink_seed(*scenario, seed, false, 120);
  EXPECT_FALSE(r.parameters.has_value()) << "create-storm has no parameter stage";
  EXPECT_LE(r.runs_used, 120u);
  expect_shrunk(*scenario, r);

  const SeedShrinkResult again = shrink_seed(*scenario, seed, false, 120);
  EXPECT_EQ(again.shrunk_outcome.trace_hash, r.shrunk_outcome.trace_hash) << "same input, same result";
  EXPECT_EQ(again.steps.size(), r.steps.size());
}

TEST(SeedShrink, TheDoubleExecutionOfFramework026Shrinks) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const auto scenario = file_scenario(R"({"scenarioVersion": 1, "name": "rsir", "base": "instance-route",
      "plantedBugs": ["retry-stale-instance-route"], "properties": ["at-most-once"]})");
  const std::uint64_t seed = first_failing_seed(*scenario);
  ASSERT_NE(seed, 0u);
  const SeedShrinkResult r = shrink_seed(*scenario, seed, false, 100);
  ASSERT_TRUE(r.shrunk_outcome.violation.has_value());
  EXPECT_EQ(r.shrunk_outcome.violation->property, "at-most-once");
  expect_shrunk(*scenario, r);
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
  const auto shrunk = scenarios::files::make_file_scenario(r.parameters->shrunk);
  expect_shrunk(*shrunk, r);
}

TEST(SeedShrink, ARunFailureShrinksKeepingItsSignature) {
  const auto scenario = file_scenario(
      R"({"scenarioVersion": 1, "name": "budget", "base": "create-storm", "maxSteps": 3000})");
  const SeedOutcome first = scenario->run(SeedRequest{1, false, false});
  ASSERT_TRUE(first.failure.has_value() && !first.violation.has_value()) << describe_outcome(first);
  const SeedShrinkResult r = shrink_seed(*scenario, 1, false, 40);
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
