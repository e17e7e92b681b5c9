// The determinism proof over the busy synthetic workload.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "scenarios/synthetic/synthetic_scenario.h"
#include "scenarios/synthetic/synthetic_workload.h"
#include "sim/trace/divergence.h"

namespace spotcheck::sim {
namespace {

using scenarios::synthetic::run_synthetic_seed;
using scenarios::synthetic::SyntheticConfig;
using scenarios::synthetic::SyntheticOutcome;

// Busy but quick: many nodes, timers, messages, kills, restarts, pauses, partitions, drift.
SyntheticConfig busy_config() {
  SyntheticConfig config;
  config.node_count = 8;
  config.duration_us = platform::seconds(1);
  config.fault_count = 20;
  config.fault_duration_max_us = platform::millis(150);
  config.keep_trace_events = false;  // the hash log is what the comparison needs
  return config;
}

TEST(Determinism, TwoHundredSeedsReplayIdentically) {
  const SyntheticConfig config = busy_config();
  std::set<std::uint64_t> hashes;
  std::uint64_t total_events = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const SyntheticOutcome first = run_synthetic_seed(seed, config);
    const SyntheticOutcome second = run_synthetic_seed(seed, config);
    ASSERT_TRUE(first.ok()) << "seed " << seed << ": " << first.run.problem;
    ASSERT_EQ(first.run.status, RunStatus::time_limit) << "seed " << seed;
    ASSERT_EQ(first.run.trace_hash, second.run.trace_hash) << "seed " << seed;
    ASSERT_EQ(first.run.events, second.run.events) << "seed " << seed;
    const auto divergence = first_divergence(first.trace, second.trace);
    ASSERT_FALSE(divergence.has_value()) << "seed " << seed << "\n" << divergence->report;
    EXPECT_GT(first.fifo_checks, 100U) << "seed " << seed;
    hashes.insert(first.run.trace_hash);
    total_events += first.run.events;
  }
  // Different seeds give different schedules.
  EXPECT_EQ(hashes.size(), 200U);
  EXPECT_GT(total_events / 200, 5'000U);  // the workload is busy
}

TEST(Determinism, TheWorkloadReallyExercisesFaults) {
  SyntheticConfig config = busy_config();
  config.keep_trace_events = true;
  std::set<std::string> kinds;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const SyntheticOutcome outcome = run_synthetic_seed(seed, config);
    ASSERT_TRUE(outcome.ok()) << outcome.run.problem;
    for (std::uint64_t i = 0; i < outcome.trace.size(); ++i) {
      kinds.insert(std::string(outcome.trace.event(i).kind));
    }
  }
  for (const char* kind : {"kill", "start", "pause", "unpause", "task.frozen", "net.partition", "net.heal",
                           "net.disconnect", "net.reconnect", "clock.drift", "net.drop", "net.deliver",
                           "wake.timer", "wake.gate", "wake.message", "wake.yield", "spawn", "task.end",
                           "synthetic.recv", "synthetic.reply", "synthetic.tick"}) {
    EXPECT_TRUE(kinds.contains(kind)) << kind;
  }
}

TEST(Determinism, InjectedNondeterminismIsDetectedAndLocalized) {
  SyntheticConfig config = busy_config();
  config.keep_trace_events = true;
  for (const std::uint64_t step : {0ULL, 300ULL, 3'000ULL}) {
    const SyntheticOutcome clean = run_synthetic_seed(42, config);
    SyntheticConfig perturbed_config = config;
    perturbed_config.test_only_perturb_tie_break_at_step = step;
    // The perturbed world must report where it deviated; build it the same way run_synthetic_seed does.
    World world(scenarios::synthetic::synthetic_world_config(42, perturbed_config));
    std::optional<std::uint64_t> perturbed_at;
    Trace perturbed_trace;
    {
      scenarios::synthetic::SyntheticWorkload workload(world, perturbed_config);
      world.run_until(perturbed_config.duration_us, perturbed_config.max_steps);
      perturbed_at = world.test_only_perturbed_event_index();
    }
    perturbed_trace = world.take_trace();
    ASSERT_TRUE(perturbed_at.has_value()) << "no tie-break after step " << step;
    EXPECT_NE(clean.trace.hash(), perturbed_trace.hash());
    const auto divergence = first_divergence(clean.trace, perturbed_trace);
    ASSERT_TRUE(divergence.has_value());
    EXPECT_EQ(divergence->index, *perturbed_at) << divergence->report;
    EXPECT_NE(divergence->left, divergence->right);
    EXPECT_EQ(divergence->left, clean.trace.render(*perturbed_at));
    EXPECT_NE(divergence->report.find("first divergence at event #" + std::to_string(*perturbed_at)),
              std::string::npos);
  }
}

TEST(Determinism, BrokenFifoIsReportedAsAViolation) {
  SyntheticConfig config = busy_config();
  config.test_only_break_fifo = true;
  const SyntheticOutcome outcome = run_synthetic_seed(7, config);
  EXPECT_EQ(outcome.run.status, RunStatus::violation);
  EXPECT_NE(outcome.run.problem.find("FIFO"), std::string::npos) << outcome.run.problem;
  ASSERT_TRUE(outcome.run.problem_event.has_value());
}

TEST(Determinism, ScenarioAdapterFillsTheCampaignOutcome) {
  const auto scenario = scenarios::synthetic::make_synthetic_scenario(busy_config());
  EXPECT_EQ(scenario->name(), "synthetic");
  scenarios::SeedRequest request;
  request.seed = 3;
  request.keep_trace = true;
  const scenarios::SeedOutcome first = scenario->run(request);
  const scenarios::SeedOutcome second = scenario->run(request);
  EXPECT_TRUE(first.ok());
  EXPECT_EQ(first.trace_hash, second.trace_hash);
  EXPECT_EQ(first.event_hashes.size(), first.events);
  EXPECT_EQ(first.event_lines.size(), first.events);
  EXPECT_EQ(first.simulated_us, platform::seconds(1));
  request.swarm = true;
  const scenarios::SeedOutcome swarm = scenario->run(request);
  EXPECT_TRUE(swarm.ok());
  EXPECT_NE(swarm.trace_hash, first.trace_hash);
}

TEST(Determinism, WorldsOnParallelThreadsMatchSequentialRuns) {
  const SyntheticConfig config = busy_config();
  std::vector<std::uint64_t> sequential;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    sequential.push_back(run_synthetic_seed(seed, config).run.trace_hash);
  }
  std::vector<std::uint64_t> parallel(4, 0);
  std::vector<std::thread> threads;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    threads.emplace_back([&parallel, &config, seed] { parallel[seed - 1] = run_synthetic_seed(seed, config).run.trace_hash; });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(parallel, sequential);
}

TEST(Determinism, GuardPageStacksGiveTheSameRun) {
  SyntheticConfig config = busy_config();
  config.duration_us = platform::millis(100);
  const SyntheticOutcome pooled = run_synthetic_seed(11, config);
  config.guard_page_stacks = true;
  const SyntheticOutcome guarded = run_synthetic_seed(11, config);
  EXPECT_EQ(pooled.run.trace_hash, guarded.run.trace_hash);
}

}  // namespace
}  // namespace spotcheck::sim
