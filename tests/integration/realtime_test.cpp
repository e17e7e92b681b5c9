// The kernel's real-time mode (WorldConfig::real_time): the same fibers and processes, with time
// taken from std::chrono::steady_clock. No Redis needed.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "sim/world.h"

namespace spotcheck::sim {
namespace {

using platform::millis;
using platform::seconds;
using Steady = std::chrono::steady_clock;

WorldConfig real_time_config(std::uint64_t seed = 1) {
  WorldConfig config;
  config.seed = seed;
  config.real_time = true;
  config.clock_offset_max_us = 0;
  config.network.link = LinkConfig{0, 0, 0.0};
  return config;
}

std::int64_t elapsed_ms(Steady::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - since).count();
}

// Generous upper bounds: the machine is shared (ctest -j, other builds).
constexpr std::int64_t kLateMaxMs = 150;

TEST(RealTimeWorld, SleepsTakeRealTimeAndTheRunEndsAtItsEndTime) {
  // Before the World: its real-time clock starts when it is made, so setting it up (slow on a
  // loaded machine) counts towards the 200 ms the run lasts.
  const Steady::time_point started = Steady::now();
  World world(real_time_config());
  std::vector<TimeUs> woke;
  const ProcessId p = world.add_process("p", 1, [&woke](platform::Platform& platform) {
    for (int i = 0; i < 3; ++i) {
      platform.clock.sleep_for(millis(40));
      woke.push_back(platform.clock.now_us());
    }
    platform.clock.sleep_until(platform::kNever - 1);  // stays up until the end
  });
  world.start(p);
  const RunOutcome outcome = world.run_until(millis(200), 1'000'000);
  const std::int64_t took_ms = elapsed_ms(started);
  EXPECT_EQ(outcome.status, RunStatus::time_limit);
  EXPECT_GE(took_ms, 195);
  EXPECT_LT(took_ms, 200 + kLateMaxMs);
  EXPECT_GE(outcome.end_time_us, millis(200));
  ASSERT_EQ(woke.size(), 3u);
  for (std::size_t i = 0; i < woke.size(); ++i) {
    EXPECT_GE(woke[i], static_cast<TimeUs>(i + 1) * millis(40));
    EXPECT_LT(woke[i], static_cast<TimeUs>(i + 1) * millis(40) + millis(kLateMaxMs));
  }
  // Few steps: the kernel slept instead of spinning.
  EXPECT_LT(outcome.steps, 100u);
}

TEST(RealTimeWorld, AClockReadInsideOneStepSeesTimeSpentBlockingTheThread) {
  World world(real_time_config());
  std::optional<TimeUs> before;
  std::optional<TimeUs> after;
  const ProcessId p = world.add_process("p", 1, [&](platform::Platform& platform) {
    before = platform.clock.now_us();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // like a blocking hiredis call
    after = platform.clock.now_us();
  });
  world.start(p);
  world.run_until(millis(500), 1'000);
  ASSERT_TRUE(before.has_value() && after.has_value());
  EXPECT_GE(*after - *before, millis(30));
}

TEST(RealTimeWorld, QuiescentAsSoonAsNothingIsLeft) {
  World world(real_time_config());
  const ProcessId p = world.add_process("p", 1, [](platform::Platform& platform) { platform.clock.sleep_for(millis(20)); });
  world.start(p);
  const Steady::time_point started = Steady::now();
  const RunOutcome outcome = world.run_until(seconds(30), 1'000);
  EXPECT_EQ(outcome.status, RunStatus::quiescent);
  EXPECT_LT(elapsed_ms(started), 20 + kLateMaxMs);
}

TEST(RealTimeWorld, APauseFreezesEveryFiberForRealTimeAndTimersFireLate) {
  World world(real_time_config());
  std::vector<TimeUs> ticks;
  const ProcessId p = world.add_process("p", 1, [&ticks](platform::Platform& platform) {
    for (int i = 0; i < 1'000; ++i) {
      platform.clock.sleep_for(millis(10));
      ticks.push_back(platform.clock.now_us());
    }
  });
  world.start(p);
  world.at(millis(50), [&world, p] { world.pause(p, millis(150)); });
  const RunOutcome outcome = world.run_until(millis(300), 1'000'000);
  EXPECT_EQ(outcome.status, RunStatus::time_limit);
  ASSERT_GT(ticks.size(), 3u);
  // No tick while frozen: one gap of at least the pause, then the late timer fires at its end.
  TimeUs widest_gap = 0;
  for (std::size_t i = 1; i < ticks.size(); ++i) {
    widest_gap = std::max(widest_gap, ticks[i] - ticks[i - 1]);
  }
  EXPECT_GE(widest_gap, millis(140));
  for (const TimeUs tick : ticks) {
    EXPECT_FALSE(tick > millis(60) && tick < millis(195)) << "ticked at " << tick << "us while paused";
  }
  EXPECT_EQ(world.process_state(p), ProcessState::running);
}

TEST(RealTimeWorld, InProcessMessagesWakeTheReceiverRightAway) {
  World world(real_time_config());
  std::optional<TimeUs> sent_us;
  std::optional<TimeUs> received_us;
  std::string payload;
  const ProcessId receiver = world.add_process("receiver", 2, [&](platform::Platform& platform) {
    auto envelope = platform.transport.receive(platform.clock.now_us() + seconds(5));
    if (envelope.has_value()) {
      received_us = platform.clock.now_us();
      payload = envelope->bytes;
    }
  });
  const ProcessId sender = world.add_process("sender", 1, [&](platform::Platform& platform) {
    platform.clock.sleep_for(millis(50));
    sent_us = platform.clock.now_us();
    platform.transport.send(2, "hello");
  });
  world.start(receiver);
  world.start(sender);
  // Timers are cancelled lazily: the receive's 5 s timer stays queued (the scheduler would wake
  // once for it), so the run is bounded by an end time rather than waiting to be quiescent.
  world.run_until(millis(300), 10'000);
  ASSERT_TRUE(sent_us.has_value() && received_us.has_value());
  EXPECT_EQ(payload, "hello");
  EXPECT_LT(*received_us - *sent_us, millis(20));
}

TEST(RealTimeWorld, EventsCarryRealTimeInOrderAndKillStillUnwinds) {
  World world(real_time_config());
  int destroyed = 0;
  struct Guard {
    int* count;
    ~Guard() { ++*count; }
  };
  const ProcessId p = world.add_process("p", 1, [&destroyed](platform::Platform& platform) {
    Guard guard{&destroyed};
    for (int i = 0; i < 1'000; ++i) {
      platform.events.emit("tick", {platform::Field::num("i", i)});
      platform.clock.sleep_for(millis(5));
    }
  });
  world.start(p);
  world.at(millis(60), [&world, p] { world.kill(p); });
  world.run_until(millis(100), 1'000'000);
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(world.process_state(p), ProcessState::dead);
  TimeUs previous = 0;
  std::size_t ticks = 0;
  for (std::uint64_t i = 0; i < world.trace().size(); ++i) {
    const TraceEvent event = world.trace().event(i);
    EXPECT_GE(event.time_us, previous);
    previous = event.time_us;
    ticks += event.kind == "tick" ? 1 : 0;
  }
  EXPECT_GE(ticks, 5u);
  EXPECT_LE(ticks, 14u);
  EXPECT_GE(previous, millis(60));
}

TEST(SimulatedWorld, StaysVirtualWithoutRealTime) {
  WorldConfig config;
  config.seed = 1;
  World world(config);
  const ProcessId p = world.add_process("p", 1, [](platform::Platform& platform) { platform.clock.sleep_for(seconds(3'600)); });
  world.start(p);
  const Steady::time_point started = Steady::now();
  const RunOutcome outcome = world.run_until(seconds(7'200), 1'000);
  EXPECT_EQ(outcome.status, RunStatus::quiescent);
  EXPECT_GE(outcome.end_time_us, seconds(3'600));
  EXPECT_LT(elapsed_ms(started), 1'000);  // an hour of virtual time, no real waiting
}

}  // namespace
}  // namespace spotcheck::sim
