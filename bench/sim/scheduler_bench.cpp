// Scheduler throughput: 1,000 fibers in one process, each sleeping a random 1..1000 us in a loop.
// Every step pops a timer, records a trace event and switches into and out of a fiber.
#include <benchmark/benchmark.h>

#include <memory>

#include "bench/sim/timer_workload.h"
#include "sim/world.h"

namespace spotcheck::sim {
namespace {

constexpr std::uint64_t kStepsPerIteration = 100'000;

void BM_SchedulerTimers(benchmark::State& state) {
  const auto tasks = static_cast<int>(state.range(0));
  const bool keep_events = state.range(1) != 0;
  const std::unique_ptr<World> owned = bench::make_timer_world(tasks, keep_events);
  World& world = *owned;
  std::uint64_t steps_before = world.steps();
  for (auto _ : state) {
    const RunOutcome outcome = world.run_until(platform::kNever - 2, kStepsPerIteration);
    if (outcome.status != RunStatus::step_limit) {
      state.SkipWithError("run stopped early");
      break;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(world.steps() - steps_before));
  state.counters["events"] = static_cast<double>(world.trace().size());
  state.SetLabel(keep_events ? "keep_events" : "hash log only");
}
BENCHMARK(BM_SchedulerTimers)->Args({10, 0})->Args({100, 0})->Args({1'000, 0})->Args({1'000, 1})->Iterations(50)->Unit(benchmark::kMillisecond);

// Equal-time contention: 1,000 tasks yielding, so every step is a seeded tie-break among ~1,000.
void BM_SchedulerYieldTies(benchmark::State& state) {
  WorldConfig config;
  config.seed = 1;
  config.trace.keep_events = false;
  config.stack_size_bytes = 32 * 1024;
  World world(config);
  const ProcessId node = world.add_process("n1", 1, [](platform::Platform& p) {
    for (int i = 0; i < 1'000; ++i) {
      p.tasks.spawn("yielder", [&p] {
        for (;;) {
          p.tasks.yield();
        }
      });
    }
    p.clock.sleep_until(platform::kNever - 1);
  });
  world.start(node);
  world.run_until(0, 1'010);
  const std::uint64_t steps_before = world.steps();
  for (auto _ : state) {
    world.run_until(0, kStepsPerIteration);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(world.steps() - steps_before));
}
BENCHMARK(BM_SchedulerYieldTies)->Iterations(50)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotcheck::sim
