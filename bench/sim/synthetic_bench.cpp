// One seed of the synthetic workload as a campaign runs it (defaults: 5 nodes, 2 s simulated,
// 8 faults, full trace kept).
#include <benchmark/benchmark.h>

#include "scenarios/synthetic/synthetic_workload.h"

namespace spotcheck::sim {
namespace {

void BM_SyntheticSeed(benchmark::State& state) {
  scenarios::synthetic::SyntheticConfig config;
  config.keep_trace_events = state.range(0) != 0;
  std::uint64_t seed = 1;
  std::uint64_t events = 0;
  for (auto _ : state) {
    const auto outcome = scenarios::synthetic::run_synthetic_seed(seed++, config);
    events += outcome.run.events;
  }
  state.counters["events_per_second"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["events_per_seed"] = static_cast<double>(events) / static_cast<double>(state.iterations());
  state.SetLabel(config.keep_trace_events ? "keep_events" : "hash log only");
}
BENCHMARK(BM_SyntheticSeed)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotcheck::sim
