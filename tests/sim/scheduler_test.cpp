#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "sim/world.h"
#include "tests/sim/sim_test_support.h"

namespace spotcheck::sim {
namespace {

using platform::Platform;
using testing::quiet_config;

TEST(Scheduler, SleepsWakeInTimeOrderAtTheirDeadline) {
  World world(quiet_config());
  std::vector<std::pair<int, TimeUs>> woke;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    for (const int delay_ms : {30, 10, 20}) {
      p.tasks.spawn("sleeper", [&p, &woke, delay_ms] {
        p.clock.sleep_for(platform::millis(delay_ms));
        woke.emplace_back(delay_ms, p.clock.now_us());
      });
    }
    p.clock.sleep_for(platform::seconds(1));
  });
  world.start(node);
  const RunOutcome outcome = world.run_until(platform::millis(500), 1'000);
  EXPECT_EQ(outcome.status, RunStatus::time_limit);
  EXPECT_EQ(outcome.end_time_us, platform::millis(500));
  const std::vector<std::pair<int, TimeUs>> expected = {
      {10, platform::millis(10)}, {20, platform::millis(20)}, {30, platform::millis(30)}};
  EXPECT_EQ(woke, expected);
}

TEST(Scheduler, QuiescentWhenNothingIsLeft) {
  World world(quiet_config());
  const ProcessId node = world.add_process("n1", 1, [](Platform& p) { p.clock.sleep_for(7); });
  world.start(node);
  const RunOutcome outcome = world.run_until(platform::seconds(1), 1'000);
  EXPECT_EQ(outcome.status, RunStatus::quiescent);
  EXPECT_EQ(outcome.end_time_us, 7);
  EXPECT_EQ(world.process_state(node), ProcessState::dead);  // main returned: the host run ended
  EXPECT_EQ(testing::events_of_kind(world.trace(), "exit").size(), 1U);
}

TEST(Scheduler, CancelledWorldActionNeverRuns) {
  World world(quiet_config());
  int ran = 0;
  const ActionId first = world.at(100, [&] { ran += 1; });
  world.at(200, [&] { ran += 10; });
  EXPECT_TRUE(world.cancel(first));
  EXPECT_FALSE(world.cancel(first));
  const RunOutcome outcome = world.run_until(1'000, 100);
  EXPECT_EQ(ran, 10);
  EXPECT_EQ(outcome.steps, 1U);  // the cancelled entry is not a step
  EXPECT_EQ(testing::events_of_kind(world.trace(), "action").size(), 1U);
}

TEST(Scheduler, OpeningAGateCancelsTheWaitersTimer) {
  World world(quiet_config());
  std::unique_ptr<platform::Gate> gate;
  bool opened = false;
  TimeUs returned_at = -1;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    gate = p.tasks.make_gate();
    p.tasks.spawn("opener", [&] {
      p.clock.sleep_for(platform::millis(5));
      gate->open();
    });
    opened = gate->wait_until(p.clock.now_us() + platform::millis(50));
    returned_at = p.clock.now_us();
    p.clock.sleep_for(platform::seconds(1));
  });
  world.start(node);
  world.run_until(platform::millis(200), 1'000);
  EXPECT_TRUE(opened);
  EXPECT_EQ(returned_at, platform::millis(5));
  // No timer wake-up happened at 50 ms: the cancelled timer was skipped.
  for (const TraceEvent& event : testing::events_of_kind(world.trace(), "wake.timer")) {
    EXPECT_NE(event.time_us, platform::millis(50)) << world.trace().render(event.index);
  }
  gate.reset();
}

TEST(Scheduler, GateDeadlinePassesWhenNobodyOpens) {
  World world(quiet_config());
  bool opened = true;
  TimeUs returned_at = -1;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    auto gate = p.tasks.make_gate();
    opened = gate->wait_until(p.clock.now_us() + 1'234);
    returned_at = p.clock.now_us();
  });
  world.start(node);
  world.run_until(platform::seconds(1), 1'000);
  EXPECT_FALSE(opened);
  EXPECT_EQ(returned_at, 1'234);
}

TEST(Scheduler, YieldInterleavesEqualTimeTasksBySeed) {
  std::set<std::string> orders;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    World world(quiet_config(seed));
    std::string order;
    const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
      for (const char name : {'a', 'b', 'c'}) {
        p.tasks.spawn(std::string(1, name), [&p, &order, name] {
          for (int i = 0; i < 3; ++i) {
            order.push_back(name);
            p.tasks.yield();
          }
        });
      }
      p.clock.sleep_for(1);
    });
    world.start(node);
    world.run_until(platform::seconds(1), 1'000);
    ASSERT_EQ(order.size(), 9U);
    orders.insert(order);
    // Same seed, same order.
    World again(quiet_config(seed));
    std::string replay;
    const ProcessId node_again = again.add_process("n1", 1, [&](Platform& p) {
      for (const char name : {'a', 'b', 'c'}) {
        p.tasks.spawn(std::string(1, name), [&p, &replay, name] {
          for (int i = 0; i < 3; ++i) {
            replay.push_back(name);
            p.tasks.yield();
          }
        });
      }
      p.clock.sleep_for(1);
    });
    again.start(node_again);
    again.run_until(platform::seconds(1), 1'000);
    EXPECT_EQ(order, replay);
  }
  EXPECT_GT(orders.size(), 5U);  // the seeded tie-break explores different interleavings
}

TEST(Scheduler, StepLimitStopsAndRunCanContinue) {
  World world(quiet_config());
  int ticks = 0;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    for (int i = 0; i < 100; ++i) {
      p.clock.sleep_for(10);
      ++ticks;
    }
  });
  world.start(node);
  RunOutcome outcome = world.run_until(platform::seconds(1), 10);
  EXPECT_EQ(outcome.status, RunStatus::step_limit);
  EXPECT_EQ(outcome.steps, 10U);
  outcome = world.run_until(platform::seconds(1), 1'000);
  EXPECT_EQ(outcome.status, RunStatus::quiescent);
  EXPECT_EQ(ticks, 100);
}

TEST(Scheduler, ObserverViolationStopsTheRunAtTheOffendingEvent) {
  struct StopAtTick final : TraceObserver {
    std::optional<std::string> on_event(const TraceEvent& event) override {
      if (event.kind == "tick" && event.number("n") == 3) {
        return std::string("tick 3 is forbidden");
      }
      return std::nullopt;
    }
  } observer;
  World world(quiet_config());
  int ticks = 0;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    for (int i = 0; i < 10; ++i) {
      p.events.emit("tick", {platform::Field::num("n", i)});
      ++ticks;
      p.clock.sleep_for(10);
    }
  });
  world.add_observer(observer);
  world.start(node);
  const RunOutcome outcome = world.run_until(platform::seconds(1), 1'000);
  EXPECT_EQ(outcome.status, RunStatus::violation);
  EXPECT_EQ(outcome.problem, "tick 3 is forbidden");
  ASSERT_TRUE(outcome.problem_event.has_value());
  const TraceEvent bad = world.trace().event(*outcome.problem_event);
  EXPECT_EQ(bad.kind, "tick");
  EXPECT_EQ(bad.number("n"), 3);
  EXPECT_EQ(world.trace().event(*outcome.problem_event + 1).kind, "violation");
  EXPECT_EQ(ticks, 4);  // the step finished, nothing after it ran
}

TEST(Scheduler, CustomStrategyIsUsedForTies) {
  struct AlwaysLast final : SchedulingStrategy {
    std::size_t pick(std::span<const ReadyCandidate> ready) override {
      ++calls;
      return ready.size() - 1;
    }
    int calls = 0;
  };
  AlwaysLast* strategy = nullptr;
  WorldConfig config = quiet_config();
  config.make_strategy = [&strategy](platform::Random&) {
    auto created = std::make_unique<AlwaysLast>();
    strategy = created.get();
    return created;
  };
  World world(config);
  for (int i = 0; i < 3; ++i) {
    world.at(5, [] {});
  }
  world.run_until(100, 100);
  ASSERT_NE(strategy, nullptr);
  EXPECT_EQ(strategy->calls, 2);  // 3 candidates, then 2, then 1 (no choice)
}

}  // namespace
}  // namespace spotcheck::sim
