// The out-of-contract fault set (faults/out_of_contract.h, issue 11): off unless asked for, each
// kind drawn from a stream of its own so that turning one off leaves the others as they were, and
// the simulator's side of each: a node clock that steps re-times the node's sleeping tasks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "faults/fault_injector.h"
#include "faults/out_of_contract.h"
#include "sim/store_host/store_server.h"
#include "tests/sim/sim_test_support.h"

namespace spotcheck::faults {
namespace {

using platform::seconds;

TEST(OutOfContract, TheFlagTakesAllOrAListAndRefusesAnythingElseInOneLine) {
  std::string error;
  EXPECT_EQ(parse_out_of_contract("all", error), all_out_of_contract());
  const auto two = parse_out_of_contract("node-clock-step,store-clock-jump", error);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(*two, out_of_contract_bit(FaultKind::kNodeClockStep) | out_of_contract_bit(FaultKind::kStoreClockJump));
  EXPECT_EQ(out_of_contract_text(*two), "store-clock-jump,node-clock-step");
  for (const char* bad : {"", "store-outage", "all,node-clock-step", "node-clock-step,", "x\ny"}) {
    error.clear();
    EXPECT_FALSE(parse_out_of_contract(bad, error).has_value()) << bad;
    EXPECT_NE(error.find("unknown out-of-contract fault kind"), std::string::npos) << bad;
    EXPECT_EQ(error.find('\n'), std::string::npos) << "one line: " << bad;
  }
}

TEST(OutOfContract, NoPlanOrSwarmShapeTurnsThemOn) {
  const FaultPlan standard = FaultPlan::standard(seconds(60));
  SwarmShape shape;
  for (const OutOfContractInfo& info : out_of_contract_kinds()) {
    EXPECT_FALSE(standard.enabled(info.kind)) << to_string(info.kind);
    EXPECT_TRUE(is_out_of_contract(info.kind));
    EXPECT_FALSE(shape.drawn(info.kind));
    SwarmShape always = shape;
    always.always.push_back(info.kind);
    EXPECT_FALSE(always.valid()) << "a shape cannot ask for " << to_string(info.kind);
  }
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    sim::World world{sim::testing::quiet_config(seed)};
    const FaultPlan swarm = FaultPlan::swarm(world.stream("swarm"), seconds(60));
    for (const OutOfContractInfo& info : out_of_contract_kinds()) {
      ASSERT_FALSE(swarm.enabled(info.kind)) << seed;
    }
  }
}

FaultPlan drawn(std::uint64_t seed, OutOfContractSet set, bool swarm) {
  sim::World world{sim::testing::quiet_config(seed)};
  return with_out_of_contract(FaultPlan::standard(seconds(60)), world.stream("faults.out-of-contract"), set, swarm);
}

// Turning one kind off (the campaign's re-runs that name the assumption) leaves the others' faults as
// they were; a plain run has each kind of the set on at the standard intensity.
TEST(OutOfContract, RemovingOneKindLeavesTheOthersAsTheyWere) {
  const FaultPlan plain = drawn(3, all_out_of_contract(), false);
  for (const OutOfContractInfo& info : out_of_contract_kinds()) {
    EXPECT_TRUE(plain.enabled(info.kind)) << to_string(info.kind);
  }
  int swarm_on = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    const FaultPlan all = drawn(seed, all_out_of_contract(), true);
    const FaultPlan no_jump = drawn(seed, all_out_of_contract() & ~out_of_contract_bit(FaultKind::kStoreClockJump), true);
    ASSERT_FALSE(no_jump.enabled(FaultKind::kStoreClockJump));
    ASSERT_EQ(no_jump.store_lost_writes_gap_us, all.store_lost_writes_gap_us) << seed;
    ASSERT_EQ(no_jump.store_lost_writes_lag_us, all.store_lost_writes_lag_us) << seed;
    ASSERT_EQ(no_jump.node_clock_step_gap_us, all.node_clock_step_gap_us) << seed;
    ASSERT_EQ(no_jump.node_clock_step_max_us, all.node_clock_step_max_us) << seed;
    ASSERT_EQ(no_jump.store_outage_gap_us, all.store_outage_gap_us) << "in-contract kinds untouched";
    swarm_on += all.enabled(FaultKind::kStoreClockJump) ? 1 : 0;
  }
  EXPECT_GT(swarm_on, 25);  // swarm: each kind on in about half the seeds
  EXPECT_LT(swarm_on, 75);
}

// A node's clock steps forward, then back: its sleeping task wakes when its own clock reads the
// time it slept until — earlier in virtual time after the forward step, later after the back step.
TEST(OutOfContract, ANodeClockStepRetimesItsSleepingTasks) {
  sim::World world{sim::testing::quiet_config(5)};
  std::vector<TimeUs> woke_at;  // virtual times
  sim::ProcessId node = 0;
  node = world.add_process("n", 1, [&](platform::Platform& p) {
    const TimeUs start = p.clock.now_us();
    p.clock.sleep_until(start + seconds(10));
    woke_at.push_back(world.now_us());
    p.clock.sleep_until(p.clock.now_us() + seconds(10));
    woke_at.push_back(world.now_us());
  });
  world.at(seconds(2), [&] { world.step_clock(node, seconds(5)); });     // wakes at 5 s, not 10 s
  world.at(seconds(7), [&] { world.step_clock(node, -seconds(3)); });    // wakes at 18 s, not 15 s
  world.start(node);
  world.run_until(seconds(30), 100'000);
  ASSERT_EQ(woke_at.size(), 2u);
  EXPECT_EQ(woke_at[0], seconds(5));
  EXPECT_EQ(woke_at[1], seconds(18));
  EXPECT_EQ(sim::testing::events_of_kind(world.trace(), "clock.stepped").size(), 2u);
}

// The injector schedules each kind only when the plan has it, and every one before faults stop.
TEST(OutOfContract, TheInjectorSchedulesEachKindBeforeFaultsStop) {
  sim::World world{sim::testing::quiet_config(9)};
  sim::StoreServer store{world, sim::StoreServerConfig{}};
  std::vector<sim::ProcessId> nodes;
  for (int i = 0; i < 3; ++i) {
    nodes.push_back(world.add_process("n" + std::to_string(i), static_cast<sim::RoutingId>(i + 1), [](platform::Platform& p) {
      p.clock.sleep_for(seconds(120));
    }));
  }
  FaultPlan plan = FaultPlan::none();
  plan.faults_stop_us = seconds(60);
  plan = with_out_of_contract(plan, world.stream("faults.out-of-contract"), all_out_of_contract(), false);
  FaultInjector injector(world, store, nodes, plan);
  injector.install();
  for (const sim::ProcessId node : nodes) {
    world.start(node);
  }
  world.run_until(seconds(120), 1'000'000);
  for (const char* kind : {"store.clock_jumped", "clock.stepped"}) {
    const auto events = sim::testing::events_of_kind(world.trace(), kind);
    EXPECT_FALSE(events.empty()) << kind;
    for (const sim::TraceEvent& event : events) {
      EXPECT_LT(event.time_us, seconds(60)) << kind;
    }
  }
}

}  // namespace
}  // namespace spotcheck::faults
