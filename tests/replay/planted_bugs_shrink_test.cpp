// Every planted protocol bug of tests/campaign/planted_bug_test.cpp: its first failing seed shrinks
// to a smaller configuration caught by the same property, whose scenario file replays the same run.
#include <gtest/gtest.h>

#include <iostream>
#include <ostream>

#include "replay/shrink/shrink_report.h"
#include "replay/shrink/shrinker.h"
#include "replay/story/story.h"
#include "scenarios/files/scenario_file.h"
#include "scenarios/authority/authority_scenarios.h"
#include "tests/campaign/needs_planted_bugs.h"

namespace spotcheck::replay {
namespace {

using scenarios::SeedRequest;
using scenarios::authority::AuthorityScenario;
using scenarios::authority::AuthorityScenarioConfig;
using scenarios::authority::AuthorityWorkload;

constexpr std::uint64_t kPlantedSeedsMax = 200;

struct PlantedBugCase {
  const char* name;
  const char* scenario;
  void (*plant)(planted::PlantedBugs&);
  void (*tune)(AuthorityWorkload&) = nullptr;
};

void PrintTo(const PlantedBugCase& c, std::ostream* os) { *os << c.name; }

class PlantedBugShrink : public ::testing::TestWithParam<PlantedBugCase> {};

TEST_P(PlantedBugShrink, ShrinksToTheSamePropertyAndReplaysFromTheFile) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const PlantedBugCase& bug = GetParam();
  AuthorityScenarioConfig config = scenarios::authority::authority_scenario_config(bug.scenario);
  bug.plant(config.protocol.planted_bugs);
  if (bug.tune != nullptr) {
    bug.tune(config.workload);
  }
  std::uint64_t seed = 0;
  for (std::uint64_t s = 1; s <= kPlantedSeedsMax && seed == 0; ++s) {
    seed = AuthorityScenario(config).run(SeedRequest{s, false, false}).violation.has_value() ? s : 0;
  }
  ASSERT_NE(seed, 0u) << bug.name << " was not caught in " << kPlantedSeedsMax << " seeds";

  const ShrinkResult r = shrink(config, seed, false, ShrinkOptions{});
  const auto& before = *r.original_outcome.violation;
  const auto& after = *r.shrunk_outcome.violation;
  EXPECT_EQ(after.property, before.property);
  EXPECT_LE(r.runs_used, kDefaultShrinkRunsMax);
  EXPECT_LE(enabled_fault_kinds(r.shrunk), enabled_fault_kinds(r.original));
  EXPECT_LE(r.shrunk.node_count, r.original.node_count);
  EXPECT_LE(r.shrunk.workload.object_count, r.original.workload.object_count);
  EXPECT_LE(r.shrunk_outcome.events, r.original_outcome.events) << "a shrunk run never has more events";

  // The file alone replays it: the planted bug travels in "plantedBugs".
  const AuthorityScenarioConfig loaded =
      scenarios::files::parse_scenario(scenarios::files::write_scenario(r.shrunk).json, "s.json");
  EXPECT_EQ(scenarios::files::scenario_difference(r.shrunk, loaded), "");
  const auto replayed = AuthorityScenario(loaded).run(SeedRequest{seed, false, false});
  EXPECT_EQ(replayed.trace_hash, r.shrunk_outcome.trace_hash);

  const Story story = tell_story(r.shrunk_outcome.event_lines, after);
  EXPECT_FALSE(story.events.empty());
  std::cout << "[ shrunk ] " << bug.name << " (" << bug.scenario << " seed " << seed << ", " << after.property
            << "): " << r.steps.size() << " steps in " << r.runs_used << " runs, " << r.original_outcome.events
            << " -> " << r.shrunk_outcome.events << " events\n  before: " << describe_config(r.original)
            << "\n  after:  " << describe_config(r.shrunk) << "\n  story: " << story.events.size() << " of "
            << story.relevant << " relevant events shown\n";
}

INSTANTIATE_TEST_SUITE_P(
    Protocol, PlantedBugShrink,
    ::testing::Values(
        PlantedBugCase{"admit_past_deadline", "lease-pause", [](auto& b) { b.insert(planted::PlantedBug::kAdmitPastDeadline); }},
        PlantedBugCase{"unfenced_writes", "lease-pause", [](auto& b) { b.insert(planted::PlantedBug::kUnfencedWrites); },
                       [](AuthorityWorkload& w) { w.delete_probability = 0.5; }},
        PlantedBugCase{"leak_capacity_on_release", "default", [](auto& b) { b.insert(planted::PlantedBug::kLeakCapacityOnRelease); }},
        PlantedBugCase{"new_owner_keeps_owner_generation", "lease-pause",
                       [](auto& b) { b.insert(planted::PlantedBug::kNewOwnerKeepsOwnerGeneration); }},
        PlantedBugCase{"retry_conflicts_past_deadline", "authority-race",
                       [](auto& b) { b.insert(planted::PlantedBug::kRetryConflictsPastDeadline); }}),
    [](const ::testing::TestParamInfo<PlantedBugCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace spotcheck::replay
