// Swarm mode keeps each scenario its own (issue 9, part 2). `--swarm` used to replace a
// scenario's fault plan with one drawn from the seed alone, so `default`, `lease-pause`,
// `store-outage` and `churn` (one workload, different plans) ran the same trace under swarm:
// four swarm campaigns testing one thing. Each scenario now draws in its own SwarmShape: the
// fault kinds it is about are on in every swarm seed, hard; the others are still drawn.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "faults/fault_plan.h"
#include "scenarios/authority/authority_scenarios.h"
#include "sim/world.h"

namespace spotcheck::scenarios::authority {
namespace {

using faults::FaultKind;
using faults::FaultPlan;
using platform::seconds;

constexpr std::array<const char*, 4> kOneWorkload{"default", "lease-pause", "store-outage", "churn"};

// The plan a swarm seed of `config` runs under: the draw JudgedWorld::install_faults makes (named
// streams depend only on the seed and the name).
FaultPlan swarm_plan(const AuthorityScenarioConfig& config, std::uint64_t seed) {
  sim::WorldConfig world_config;
  world_config.seed = seed;
  sim::World world(world_config);
  return FaultPlan::swarm(world.stream("swarm"), config.faults_stop_us, config.swarm);
}

TEST(SwarmCharacter, TheFourScenariosOfOneWorkloadRunDifferentSwarmTraces) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    std::vector<std::uint64_t> hashes;
    for (const char* name : kOneWorkload) {
      const SeedOutcome outcome = AuthorityScenario(authority_scenario_config(name)).run(SeedRequest{seed, true, false});
      EXPECT_TRUE(outcome.ok()) << name << " swarm seed " << seed;
      hashes.push_back(outcome.trace_hash);
    }
    for (std::size_t a = 0; a < hashes.size(); ++a) {
      for (std::size_t b = a + 1; b < hashes.size(); ++b) {
        EXPECT_NE(hashes[a], hashes[b]) << kOneWorkload[a] << " and " << kOneWorkload[b] << ", swarm seed " << seed;
      }
    }
  }
}

TEST(SwarmCharacter, EachScenariosFaultKindsAreOnInEverySwarmDraw) {
  const AuthorityScenarioConfig pause = authority_scenario_config("lease-pause");
  const AuthorityScenarioConfig outage = authority_scenario_config("store-outage");
  const AuthorityScenarioConfig churn = authority_scenario_config("churn");
  const AuthorityScenarioConfig race = authority_scenario_config("authority-race");
  const platform::TimeUs ttl_us = pause.protocol.owner_lease_ttl_us;
  for (std::uint64_t seed = 1; seed <= 2'000; ++seed) {
    const FaultPlan p = swarm_plan(pause, seed);
    ASSERT_TRUE(p.enabled(FaultKind::kNodePause)) << "lease-pause seed " << seed << ": " << p.describe();
    // Pauses past the lease likely: the longest pause well past the TTL, several per safety phase.
    EXPECT_GE(p.node_pause_max_us, ttl_us + seconds(10)) << "seed " << seed << ": " << p.describe();
    EXPECT_LE(p.node_pause_gap_us, seconds(10)) << "seed " << seed << ": " << p.describe();

    const FaultPlan o = swarm_plan(outage, seed);
    for (const FaultKind kind : {FaultKind::kStoreOutage, FaultKind::kStoreRequestLost, FaultKind::kStoreReplyLost,
                                 FaultKind::kStoreReplyDelayed}) {
      ASSERT_TRUE(o.enabled(kind)) << "store-outage seed " << seed << ": " << o.describe();
    }
    EXPECT_GE(o.store_outage_length_us, seconds(1)) << "seed " << seed << ": " << o.describe();
    EXPECT_LE(o.store_outage_gap_us, seconds(20)) << "seed " << seed << ": " << o.describe();

    const FaultPlan c = swarm_plan(churn, seed);
    ASSERT_TRUE(c.enabled(FaultKind::kNodeKill)) << "churn seed " << seed << ": " << c.describe();
    EXPECT_LE(c.node_kill_gap_us, seconds(8)) << "seed " << seed << ": " << c.describe();

    const FaultPlan r = swarm_plan(race, seed);
    ASSERT_TRUE(r.enabled(FaultKind::kStoreRequestLost) && r.enabled(FaultKind::kStoreReplyLost))
        << "authority-race seed " << seed << ": " << r.describe();
  }
}

// What lease-pause is about happens in (nearly) every swarm seed: an owner frozen past its lease.
TEST(SwarmCharacter, LeasePauseSwarmSeedsPauseNodesPastTheirLease) {
  const AuthorityScenarioConfig config = authority_scenario_config("lease-pause");
  const std::string past = std::to_string(config.protocol.owner_lease_ttl_us);
  constexpr std::uint64_t kSeeds = 50;
  std::uint64_t with_long_pause = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const SeedOutcome outcome = AuthorityScenario(config).run(SeedRequest{seed, true, true});
    EXPECT_TRUE(outcome.ok()) << "swarm seed " << seed;
    bool long_pause = false;
    for (const std::string& line : outcome.event_lines) {
      const std::size_t at = line.find(" pause duration_us=");
      if (at != std::string::npos) {
        const long long duration_us = std::stoll(line.substr(at + std::string_view(" pause duration_us=").size()));
        long_pause = long_pause || duration_us > config.protocol.owner_lease_ttl_us;
      }
    }
    with_long_pause += long_pause ? 1 : 0;
  }
  EXPECT_GE(with_long_pause, kSeeds * 9 / 10) << "of " << kSeeds << " swarm seeds, longer than " << past << " us";
}

// Swarm still explores: in every scenario each fault kind it is not about is on in some draws
// and off in others — but for the node-to-node kinds and the slow Delete, which their shapes do
// not list: those are never drawn.
TEST(SwarmCharacter, TheOtherKindsAreStillDrawnOnAndOff) {
  for (const char* name : {"default", "authority-race", "lease-pause", "store-outage", "churn"}) {
    const AuthorityScenarioConfig config = authority_scenario_config(name);
    for (const faults::FaultKindInfo& info : faults::all_fault_kinds()) {
      int on = 0;
      constexpr int kSeeds = 200;
      for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        on += swarm_plan(config, seed).enabled(info.kind) ? 1 : 0;
      }
      if (config.swarm.always_on(info.kind)) {
        EXPECT_EQ(on, kSeeds) << name << " " << info.name;
      } else if (!config.swarm.drawn(info.kind)) {
        EXPECT_EQ(on, 0) << name << " " << info.name << ": a kind these shapes do not list (or an out-of-contract one)";
      } else {
        EXPECT_GT(on, kSeeds / 4) << name << " " << info.name;
        EXPECT_LT(on, kSeeds - kSeeds / 4) << name << " " << info.name;
      }
    }
  }
}

// The mixed campaign's shape draws exactly what swarm mode drew before shapes existed, so
// default swarm seeds replay as they did (instance-route and create-storm draw the standard kinds
// first, then the kinds they list). Pinned from the draw before the change.
TEST(SwarmCharacter, TheStandardShapeDrawsTheSamePlansAsBefore) {
  AuthorityScenarioConfig config = authority_scenario_config("default");
  // default also lists store-late-apply and store-stall, drawn after every other kind: its
  // plans start with the standard shape's, pinned below.
  const std::string with_late_kinds = swarm_plan(config, 1).describe();
  config.swarm = faults::SwarmShape{};
  EXPECT_EQ(with_late_kinds.rfind(swarm_plan(config, 1).describe(), 0), 0u) << with_late_kinds;
  EXPECT_NE(with_late_kinds, swarm_plan(config, 1).describe());
  EXPECT_EQ(swarm_plan(config, 1).describe(),
            "store-reply-lost=0.0503 store-outage(gap=22.6s,length=5.97s) node-kill(gap=9.58s,down=11.7s) "
            "node-pause(gap=11s,max=38.2s) network-partition(gap=33s,length=0.332s) clock-drift=585ppm");
  EXPECT_EQ(swarm_plan(config, 2).describe(),
            "store-request-lost=0.0867 store-outage(gap=17.4s,length=0.253s) node-pause(gap=37.9s,max=14.3s) "
            "network-loss=0.0442 clock-drift=607ppm");
  EXPECT_EQ(swarm_plan(config, 5).describe(),
            "store-request-lost=0.0579 store-reply-delayed=0.097 node-pause(gap=46.4s,max=18.1s)");
  EXPECT_EQ(swarm_plan(config, 6168).describe(),
            "store-reply-lost=0.0718 store-outage(gap=47.1s,length=0.853s) node-kill(gap=30.5s,down=12.6s)");
}

// The shape only matters under --swarm: a plain seed runs the scenario's own plan, bit for bit.
TEST(SwarmCharacter, ThePlainPlanIgnoresTheSwarmShape) {
  for (const char* name : kOneWorkload) {
    const AuthorityScenarioConfig shaped = authority_scenario_config(name);
    AuthorityScenarioConfig standard = shaped;
    standard.swarm = faults::SwarmShape{};
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      EXPECT_EQ(AuthorityScenario(shaped).run(SeedRequest{seed, false, false}).trace_hash,
                AuthorityScenario(standard).run(SeedRequest{seed, false, false}).trace_hash)
          << name << " seed " << seed;
    }
  }
}

}  // namespace
}  // namespace spotcheck::scenarios::authority
