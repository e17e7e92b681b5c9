// Raw fiber costs: one switch round trip (scheduler -> fiber -> scheduler), and fiber creation.
#include <benchmark/benchmark.h>

#include <memory>

#include "sim/fiber/fiber.h"

namespace spotcheck::sim {
namespace {

struct PingState {
  Fiber* fiber = nullptr;
  bool stop = false;
  std::uint64_t rounds = 0;
};

void ping_entry(void* argument) {
  auto& state = *static_cast<PingState*>(argument);
  while (!state.stop) {
    ++state.rounds;
    state.fiber->suspend();
  }
}

void BM_FiberSwitchRoundTrip(benchmark::State& state) {
  StackSource stacks(64 * 1024, false);
  PingState ping;
  Fiber fiber(stacks, &ping_entry, &ping);
  ping.fiber = &fiber;
  for (auto _ : state) {
    fiber.resume();
  }
  ping.stop = true;
  fiber.resume();
  benchmark::DoNotOptimize(ping.rounds);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FiberSwitchRoundTrip);

void noop_entry(void*) {}

void BM_FiberCreateRunDestroy(benchmark::State& state) {
  StackSource stacks(64 * 1024, state.range(0) != 0);
  for (auto _ : state) {
    Fiber fiber(stacks, &noop_entry, nullptr);
    fiber.resume();
    benchmark::DoNotOptimize(fiber.finished());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(state.range(0) != 0 ? "guard-page stack" : "pooled stack");
}
BENCHMARK(BM_FiberCreateRunDestroy)->Arg(0)->Arg(1);

}  // namespace
}  // namespace spotcheck::sim
