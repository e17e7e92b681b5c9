// The campaign must catch a deliberately broken protocol (a bug planted through
// LocationConfig::test_only_bugs), and must stay quiet on the real one.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

#include "impl/location/check.h"
#include "scenarios/location/location_scenarios.h"
#include "sim/world.h"

namespace spotcheck::scenarios::location {
namespace {

constexpr std::uint64_t kSeedsMax = 200;

// Runs seeds 1.. until one violates; returns (seeds run, outcome of the last).
std::pair<std::uint64_t, SeedOutcome> seeds_until_violation(const LocationScenario& scenario) {
  SeedOutcome last;
  for (std::uint64_t seed = 1; seed <= kSeedsMax; ++seed) {
    last = scenario.run(SeedRequest{seed, false, false});
    if (!last.ok()) {
      return {seed, last};
    }
  }
  return {kSeedsMax, last};
}

TEST(PlantedBug, AdmissionPastTheDeadlineIsCaughtBySingleOwner) {
  LocationScenarioConfig config = location_scenario_config("lease-pause");
  config.protocol.test_only_bugs.admit_past_deadline = true;
  const LocationScenario scenario(config);
  const auto [seeds, outcome] = seeds_until_violation(scenario);
  ASSERT_TRUE(outcome.violation.has_value()) << "no violation in " << seeds << " seeds";
  EXPECT_EQ(outcome.violation->property, "single-owner") << outcome.violation->message;
  std::cout << "[ planted ] admit_past_deadline caught by " << outcome.violation->property << " after " << seeds
            << " seed(s): " << outcome.violation->message << "\n";
  // The failing seed replays to the same verdict, bit for bit.
  const auto again = scenario.run(SeedRequest{outcome.seed, false, false});
  EXPECT_EQ(again.trace_hash, outcome.trace_hash);
  ASSERT_TRUE(again.violation.has_value());
  EXPECT_EQ(again.violation->event_index, outcome.violation->event_index);
}

TEST(PlantedBug, TheRealProtocolPassesTheSameSeeds) {
  const LocationScenario scenario(location_scenario_config("lease-pause"));
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto outcome = scenario.run(SeedRequest{seed, false, false});
    ASSERT_TRUE(outcome.ok()) << "seed " << seed << ": "
                              << (outcome.violation ? outcome.violation->property + ": " + outcome.violation->message
                                                    : outcome.failure.value_or(""));
  }
}

TEST(LocationCampaign, EveryBuiltInScenarioIsDeterministic) {
  for (const char* name : {"default", "create-storm", "lease-pause", "store-outage", "churn"}) {
    const LocationScenario scenario(location_scenario_config(name));
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const auto a = scenario.run(SeedRequest{seed, seed == 3, false});
      const auto b = scenario.run(SeedRequest{seed, seed == 3, false});
      EXPECT_EQ(a.trace_hash, b.trace_hash) << name << " seed " << seed;
      EXPECT_EQ(a.events, b.events) << name << " seed " << seed;
      EXPECT_GT(a.events, 1000u) << name << " seed " << seed << " did almost nothing";
    }
  }
}

// Under the handler the scenarios install, a failed protocol invariant ends the seed as a run
// failure naming the invariant (replayable), instead of aborting every seed of the campaign.
TEST(LocationCampaign, AFailedInvariantIsARunFailureNotAnAbort) {
  const spotcheck::location::ScopedAssertionHandler guard(&spotcheck::location::throw_invariant_violation);
  sim::WorldConfig config;
  config.seed = 1;
  sim::World world(config);
  const auto node = world.add_process("node-0", 1, [](platform::Platform& p) {
    p.clock.sleep_for(platform::millis(5));
    const bool lease_registered = false;
    LOCATION_ASSERT(lease_registered);
  });
  world.start(node);
  const auto run = world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(run.status, sim::RunStatus::failure);
  EXPECT_NE(run.problem.find("lease_registered"), std::string::npos) << run.problem;
}

}  // namespace
}  // namespace spotcheck::scenarios::location
