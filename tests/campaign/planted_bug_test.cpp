// The campaign must catch a deliberately broken protocol (a bug planted through
// LocationConfig::planted_bugs), and must stay quiet on the real one.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <ostream>

#include "impl/check/check.h"
#include "scenarios/authority/authority_scenarios.h"
#include "sim/world.h"
#include "tests/campaign/seeds_until_violation.h"
#include "tests/campaign/needs_planted_bugs.h"

namespace spotcheck::scenarios::authority {
namespace {

constexpr std::uint64_t kSeedsMax = 200;

std::pair<std::uint64_t, SeedOutcome> seeds_until_violation(const Scenario& scenario) {
  return testing::seeds_until_violation(scenario, kSeedsMax);
}

// One planted protocol bug, the scenario that exercises it, and the property that must catch it.
struct PlantedBugCase {
  const char* name;
  const char* scenario;
  const char* property;
  void (*plant)(planted::PlantedBugs&);
  // Optional: make the workload exercise the buggy path more often.
  void (*tune)(AuthorityWorkload&) = nullptr;
};

void PrintTo(const PlantedBugCase& c, std::ostream* os) { *os << c.name; }

class PlantedBug : public ::testing::TestWithParam<PlantedBugCase> {};

TEST_P(PlantedBug, TheCampaignCatchesItWithTheRightProperty) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const PlantedBugCase& bug = GetParam();
  AuthorityScenarioConfig config = authority_scenario_config(bug.scenario);
  bug.plant(config.protocol.planted_bugs);
  if (bug.tune != nullptr) {
    bug.tune(config.workload);
  }
  // With every property on, some property must catch the bug ...
  {
    const auto [seeds, outcome] = seeds_until_violation(AuthorityScenario(config));
    ASSERT_FALSE(outcome.ok()) << bug.name << ": nothing caught it in " << seeds << " seeds";
  }
  // ... and the property aimed at it must catch it on its own.
  config.properties = {bug.property};
  const AuthorityScenario scenario(config);
  const auto [seeds, outcome] = seeds_until_violation(scenario);
  ASSERT_TRUE(outcome.violation.has_value())
      << bug.name << ": no violation in " << seeds << " seeds" << (outcome.failure ? ": " + *outcome.failure : "");
  EXPECT_EQ(outcome.violation->property, bug.property) << outcome.violation->message;
  std::cout << "[ planted ] " << bug.name << " in " << bug.scenario << " caught by " << outcome.violation->property
            << " after " << seeds << " seed(s): " << outcome.violation->message.substr(0, 300) << "\n";
  // The failing seed replays to the same verdict, bit for bit.
  const auto again = scenario.run(SeedRequest{outcome.seed, false, false});
  EXPECT_EQ(again.trace_hash, outcome.trace_hash);
  ASSERT_TRUE(again.violation.has_value());
  EXPECT_EQ(again.violation->event_index, outcome.violation->event_index);
}

INSTANTIATE_TEST_SUITE_P(
    Protocol, PlantedBug,
    ::testing::Values(
        PlantedBugCase{"admit_past_deadline", "lease-pause", "single-owner",
                       [](auto& b) { b.insert(planted::PlantedBug::kAdmitPastDeadline); }},
        PlantedBugCase{"unfenced_writes", "lease-pause", "fencing", [](auto& b) { b.insert(planted::PlantedBug::kUnfencedWrites); },
                       [](AuthorityWorkload& w) { w.delete_probability = 0.5; }},
        PlantedBugCase{"leak_capacity_on_release", "default", "capacity",
                       [](auto& b) { b.insert(planted::PlantedBug::kLeakCapacityOnRelease); }},
        PlantedBugCase{"new_owner_keeps_owner_generation", "lease-pause", "generations",
                       [](auto& b) { b.insert(planted::PlantedBug::kNewOwnerKeepsOwnerGeneration); }},
        PlantedBugCase{"retry_conflicts_past_deadline", "authority-race", "liveness",
                       [](auto& b) { b.insert(planted::PlantedBug::kRetryConflictsPastDeadline); }},
        PlantedBugCase{"capacity_limit_off_by_one", "authority-race", "capacity",
                       [](auto& b) { b.insert(planted::PlantedBug::kCapacityLimitOffByOne); }},
        PlantedBugCase{"indeterminate_taken_as_applied", "store-outage", "store-truth",
                       [](auto& b) { b.insert(planted::PlantedBug::kIndeterminateTakenAsApplied); }},
        PlantedBugCase{"descriptor_takeover_ignores_lease", "churn", "store-truth",
                       [](auto& b) { b.insert(planted::PlantedBug::kDescriptorTakeoverIgnoresLease); }},
        // Relocation (§8-§9.4): the target's CAS before cutover or 1,000 ms lets Sends that follow
        // the row overtake the source's relay; saved work merged after the temporary queue runs
        // after what followed the object; a source that reopens after relay-ready runs turns the
        // target owns.
        PlantedBugCase{"cas_before_cutover", "relocation", "object-messages",
                       [](auto& b) { b.insert(planted::PlantedBug::kCasBeforeCutover); }},
        PlantedBugCase{"saved_work_after_temporary", "relocation", "object-messages",
                       [](auto& b) { b.insert(planted::PlantedBug::kSavedWorkAfterTemporary); }},
        // A relay-ready lost on the way: the source reopens at its Restore deadline while the target
        // became owner 1,000 ms after sending it; the ingress hold then runs on the source.
        PlantedBugCase{"source_reopens_unfenced", "relocation", "single-owner",
                       [](auto& b) { b.insert(planted::PlantedBug::kSourceReopensUnfenced); }},
        // A target that restores the queue but not the timers the payload carried: a timer callback
        // started before the move never runs.
        PlantedBugCase{"moved_timers_dropped", "relocation", "object-timers",
                       [](auto& b) { b.insert(planted::PlantedBug::kMovedTimersDropped); }}),
    [](const ::testing::TestParamInfo<PlantedBugCase>& info) { return std::string(info.param.name); });

void expect_real_protocol_passes(const char* name, std::uint64_t seeds) {
  const AuthorityScenario scenario(authority_scenario_config(name));
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const auto outcome = scenario.run(SeedRequest{seed, false, false});
    ASSERT_TRUE(outcome.ok()) << name << " seed " << seed << ": "
                              << (outcome.violation ? outcome.violation->property + ": " + outcome.violation->message
                                                    : outcome.failure.value_or(""));
  }
}

TEST(PlantedBug, TheRealProtocolPassesTheSameSeeds) { expect_real_protocol_passes("lease-pause", 30); }

// The seeds the relocation bugs above are found within (87 at most), with the real protocol.
TEST(PlantedBug, TheRealProtocolPassesTheRelocationSeeds) { expect_real_protocol_passes("relocation", 90); }

TEST(LocationCampaign, EveryBuiltInScenarioIsDeterministic) {
  for (const char* name : {"default", "authority-race", "lease-pause", "store-outage", "churn", "relocation"}) {
    const AuthorityScenario scenario(authority_scenario_config(name));
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
  const spotcheck::check::ScopedAssertionHandler guard(&spotcheck::check::throw_invariant_violation);
  sim::WorldConfig config;
  config.seed = 1;
  sim::World world(config);
  const auto node = world.add_process("node-0", 1, [](platform::Platform& p) {
    p.clock.sleep_for(platform::millis(5));
    const bool lease_registered = false;
    SPOTCHECK_ASSERT(lease_registered);
  });
  world.start(node);
  const auto run = world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(run.status, sim::RunStatus::failure);
  EXPECT_NE(run.problem.find("lease_registered"), std::string::npos) << run.problem;
}

}  // namespace
}  // namespace spotcheck::scenarios::authority
