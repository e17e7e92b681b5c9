#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/world.h"
#include "tests/sim/sim_test_support.h"

namespace spotcheck::sim {
namespace {

using platform::Platform;
using testing::events_of_kind;
using testing::quiet_config;

struct Counted {
  explicit Counted(int& destroyed) : destroyed_(&destroyed) {}
  ~Counted() { ++*destroyed_; }
  int* destroyed_;
};

TEST(Process, KillUnwindsEveryFiberAndRunsDestructors) {
  World world(quiet_config());
  int destroyed = 0;
  int after_kill = 0;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    Counted main_local(destroyed);
    auto heap_owned = std::make_unique<Counted>(destroyed);
    for (int i = 0; i < 5; ++i) {
      p.tasks.spawn("sleeper", [&p, &destroyed, &after_kill] {
        Counted local(destroyed);
        std::vector<int> memory(1'000, 7);  // heap owned by the fiber's stack frame
        p.clock.sleep_for(platform::seconds(10));
        ++after_kill;
      });
    }
    p.tasks.spawn("receiver", [&p, &destroyed, &after_kill] {
      Counted local(destroyed);
      p.transport.receive(platform::kNever);
      ++after_kill;
    });
    auto gate = p.tasks.make_gate();
    gate->wait_until(platform::kNever);
    ++after_kill;
  });
  world.start(node);
  world.at(platform::millis(1), [&] { EXPECT_EQ(world.pooled_stacks_in_use(), 7U); });
  world.at(platform::millis(5), [&] { world.kill(node); });
  world.run_until(platform::seconds(20), 10'000);
  EXPECT_EQ(world.process_state(node), ProcessState::dead);
  EXPECT_EQ(world.pooled_stacks_in_use(), 0U);  // every stack went back to the pool
  EXPECT_EQ(destroyed, 8);  // 2 in main + 5 sleepers + 1 receiver
  EXPECT_EQ(after_kill, 0);
  EXPECT_EQ(world.live_tasks(), 0U);
  // No timer of the dead run fired later.
  for (const TraceEvent& event : events_of_kind(world.trace(), "wake.timer")) {
    EXPECT_LT(event.time_us, platform::millis(5));
  }
}

TEST(Process, RestartRunsMainAgainAsANewHostRunWithFreshRandomness) {
  World world(quiet_config());
  std::vector<std::uint32_t> runs;
  std::vector<std::uint64_t> first_draws;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    runs.push_back(static_cast<std::uint32_t>(runs.size() + 1));
    first_draws.push_back(p.random.next_u64());
    p.clock.sleep_for(platform::seconds(100));
  });
  world.start(node);
  world.at(platform::millis(10), [&] { world.restart(node); });
  world.at(platform::millis(20), [&] { world.kill(node); });
  world.at(platform::millis(30), [&] { world.start(node); });
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(runs.size(), 3U);
  EXPECT_EQ(world.process_run(node), 3U);
  ASSERT_EQ(first_draws.size(), 3U);
  EXPECT_NE(first_draws[0], first_draws[1]);
  EXPECT_NE(first_draws[1], first_draws[2]);
  EXPECT_EQ(events_of_kind(world.trace(), "start").size(), 3U);
  EXPECT_EQ(events_of_kind(world.trace(), "kill").size(), 2U);
}

TEST(Process, MessagesToAKilledOrRestartedRunAreDropped) {
  World world(quiet_config());
  int received = 0;
  const ProcessId receiver = world.add_process("rx", 2, [&](Platform& p) {
    for (;;) {
      if (p.transport.receive(platform::kNever)) {
        ++received;
      }
    }
  });
  const ProcessId sender = world.add_process("tx", 1, [&](Platform& p) {
    p.transport.send(2, "before-restart");
    p.clock.sleep_for(platform::seconds(100));
  });
  world.start(receiver);
  world.start(sender);
  world.at(1, [&] { world.restart(receiver); });  // latency is at least 100 us
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(received, 0);
  const auto drops = events_of_kind(world.trace(), "net.drop");
  ASSERT_EQ(drops.size(), 1U);
  EXPECT_EQ(drops[0].text("why"), "peer_restarted");
}

TEST(Process, ExceptionEscapingATaskIsARunFailureNotTerminate) {
  World world(quiet_config());
  const ProcessId node = world.add_process("n1", 1, [](Platform& p) {
    p.clock.sleep_for(5);
    throw std::runtime_error("boom");
  });
  world.start(node);
  const RunOutcome outcome = world.run_until(platform::seconds(1), 1'000);
  EXPECT_EQ(outcome.status, RunStatus::failure);
  EXPECT_NE(outcome.problem.find("boom"), std::string::npos) << outcome.problem;
  EXPECT_NE(outcome.problem.find("n1"), std::string::npos) << outcome.problem;
  ASSERT_TRUE(outcome.problem_event.has_value());
  EXPECT_EQ(world.trace().event(*outcome.problem_event).kind, "failure");
  EXPECT_EQ(world.trace().event(*outcome.problem_event).time_us, 5);
}

TEST(Process, CatchAllInProtocolCodeMustRethrowTheUnwind) {
  World world(quiet_config());
  int caught = 0;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    try {
      p.clock.sleep_for(platform::seconds(10));
    } catch (...) {
      ++caught;
      throw;  // the rule: rethrow
    }
  });
  world.start(node);
  world.at(10, [&] { world.kill(node); });
  const RunOutcome outcome = world.run_until(platform::seconds(1), 1'000);
  EXPECT_TRUE(outcome.ok());
  EXPECT_EQ(caught, 1);
}

TEST(Process, PauseFreezesFibersWhileTimeMovesAndTimersFireLate) {
  World world(quiet_config());
  TimeUs woke_at = -1;
  TimeUs received_at = -1;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    p.tasks.spawn("rx", [&] {
      if (p.transport.receive(platform::kNever)) {
        received_at = p.clock.now_us();
      }
    });
    p.clock.sleep_for(platform::millis(10));
    woke_at = p.clock.now_us();
    p.clock.sleep_for(platform::seconds(10));
  });
  world.add_process("peer", 2, [](Platform& p) {
    p.clock.sleep_for(platform::millis(8));
    p.transport.send(1, "hello");
    p.clock.sleep_for(platform::seconds(10));
  });
  world.start(node);
  world.start(1);
  world.at(platform::millis(5), [&] { world.pause(node, platform::millis(45)); });
  world.at(platform::millis(30), [&] { EXPECT_EQ(world.process_state(node), ProcessState::paused); });
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(woke_at, platform::millis(50));      // due at 10 ms, frozen until the pause ended
  EXPECT_EQ(received_at, platform::millis(50));  // queued in the inbox meanwhile
  EXPECT_EQ(world.process_state(node), ProcessState::running);
  EXPECT_EQ(events_of_kind(world.trace(), "unpause").size(), 1U);
  EXPECT_FALSE(events_of_kind(world.trace(), "task.frozen").empty());
}

TEST(Process, KillDuringPauseDropsFrozenWork) {
  World world(quiet_config());
  bool woke = false;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    p.clock.sleep_for(platform::millis(10));
    woke = true;
  });
  world.start(node);
  world.at(platform::millis(5), [&] { world.pause(node, platform::millis(100)); });
  world.at(platform::millis(50), [&] { world.kill(node); });
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_FALSE(woke);
  EXPECT_TRUE(events_of_kind(world.trace(), "unpause").empty());
  EXPECT_EQ(world.live_tasks(), 0U);
}

TEST(Process, ClockDriftChangesTheLocalRate) {
  WorldConfig config = quiet_config();
  config.clock_drift_ppm_max = 100'000;
  World world(config);
  TimeUs slept_virtual = -1;
  std::vector<TimeUs> local_reads;
  const ProcessId fast = world.add_process("fast", 1, [&](Platform& p) {
    p.clock.sleep_for(platform::millis(110));  // local 110 ms = virtual 100 ms at +10%
    slept_virtual = world.now_us();
    p.clock.sleep_for(platform::seconds(10));
  });
  world.set_clock_drift_ppm(fast, 100'000);
  world.start(fast);
  world.at(platform::millis(50), [&] { local_reads.push_back(world.local_now_us(fast)); });
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(slept_virtual, platform::millis(100));
  ASSERT_EQ(local_reads.size(), 1U);
  EXPECT_EQ(local_reads[0], platform::millis(55));
}

TEST(Process, DriftChangeWhileSleepingKeepsTheLocalDeadline) {
  WorldConfig config = quiet_config();
  config.clock_drift_ppm_max = 100'000;
  World world(config);
  TimeUs local_at_wake = -1;
  TimeUs virtual_at_wake = -1;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    p.clock.sleep_until(platform::millis(100));
    local_at_wake = p.clock.now_us();
    virtual_at_wake = world.now_us();
  });
  world.start(node);
  world.at(platform::millis(50), [&] { world.set_clock_drift_ppm(node, -100'000); });
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(local_at_wake, platform::millis(100));
  // 50 ms at full speed, then 50 local ms at 90% speed take 55.56 virtual ms.
  EXPECT_EQ(virtual_at_wake, 105'556);
}

TEST(Process, WorldCallsFromInsideATaskAreDeferred) {
  World world(quiet_config());
  int after = 0;
  ProcessId node = 0;
  node = world.add_process("n1", 1, [&](Platform& p) {
    world.kill(node);  // deferred: this task keeps running until it parks
    ++after;
    p.clock.sleep_for(10);
    ++after;
  });
  world.start(node);
  world.run_until(platform::seconds(1), 1'000);
  EXPECT_EQ(after, 1);
  EXPECT_EQ(world.process_state(node), ProcessState::dead);
}

TEST(Process, SpawnFromTheWorldContext) {
  World world(quiet_config());
  int ran = 0;
  const ProcessId node = world.add_process("n1", 1, [](Platform& p) { p.clock.sleep_for(platform::seconds(1)); });
  world.start(node);
  world.at(10, [&] { world.spawn(node, "helper", [&] { ++ran; }); });
  world.run_until(platform::millis(10), 1'000);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(world.spawn(node, "x", [] {}) != 0, true);
  world.kill(node);
  EXPECT_EQ(world.spawn(node, "refused", [&] { ++ran; }), 0U);
}

// crash(): a fault observing a task's event kills its process right there — what the task sends
// after the point never leaves, and no other task of the process runs before the kill.
class CrashAt final : public TraceObserver {
 public:
  CrashAt(World& world, ProcessId node) : _world(world), _node(node) {}
  std::optional<std::string> on_event(const TraceEvent& event) override {
    if (event.kind == "test.point") {
      _world.crash(_node, "after-point");
    }
    return std::nullopt;
  }

 private:
  World& _world;
  ProcessId _node;
};

TEST(Process, CrashKillsAtThePointBeforeAnythingItSendsLeaves) {
  World world(quiet_config());
  int other_ran = 0;
  int ran_past_point = 0;
  int received = 0;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    p.tasks.spawn("other", [&p, &other_ran] {
      p.clock.sleep_for(platform::millis(5));
      ++other_ran;  // due at the crash's instant: never runs
    });
    p.clock.sleep_for(platform::millis(5));
    p.events.emit("test.point", {});
    ++ran_past_point;          // the task runs on until it parks...
    p.transport.send(2, "x");  // ...but nothing it sends leaves
    p.clock.sleep_for(platform::seconds(1));
    ++ran_past_point;
  });
  const ProcessId peer = world.add_process("n2", 2, [&](Platform& p) {
    if (p.transport.receive(platform::kNever).has_value()) {
      ++received;
    }
  });
  CrashAt fault(world, node);
  world.add_observer(fault);
  world.start(node);
  world.start(peer);
  world.run_until(platform::seconds(2), 10'000);
  world.remove_observer(fault);
  EXPECT_EQ(world.process_state(node), ProcessState::dead);
  EXPECT_EQ(ran_past_point, 1);
  EXPECT_EQ(other_ran, 0);
  EXPECT_EQ(received, 0);
  const std::vector<TraceEvent> crashes = events_of_kind(world.trace(), "crash");
  ASSERT_EQ(crashes.size(), 1U);
  EXPECT_EQ(crashes[0].text("point"), "after-point");
  EXPECT_EQ(crashes[0].number("run"), 1);
  const std::vector<TraceEvent> kills = events_of_kind(world.trace(), "kill");
  ASSERT_EQ(kills.size(), 1U);
  EXPECT_EQ(kills[0].index, crashes[0].index + 1);
  EXPECT_EQ(kills[0].time_us, platform::millis(5));
  bool dropped = false;
  for (const TraceEvent& drop : events_of_kind(world.trace(), "net.drop")) {
    dropped = dropped || drop.text("why") == "sender_crashed";
  }
  EXPECT_TRUE(dropped);
  world.start(node);  // a crashed process starts again as a new host run
  world.run_until(platform::seconds(3), 10'000);
  EXPECT_EQ(world.process_run(node), 2U);
}

// From the world context crash() is a kill.
TEST(Process, CrashFromTheWorldContextIsAKill) {
  World world(quiet_config());
  const ProcessId node = world.add_process("n1", 1, [](Platform& p) { p.clock.sleep_for(platform::seconds(10)); });
  world.start(node);
  world.at(platform::millis(1), [&] { world.crash(node, "anywhere"); });
  world.run_until(platform::seconds(1), 1'000);
  EXPECT_EQ(world.process_state(node), ProcessState::dead);
  EXPECT_TRUE(events_of_kind(world.trace(), "crash").empty());
  EXPECT_EQ(events_of_kind(world.trace(), "kill").size(), 1U);
}

}  // namespace
}  // namespace spotcheck::sim
