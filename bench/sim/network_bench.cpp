// Message ping-pong over a simulated link: each round trip is two sends, two arrivals and two
// receiver wake-ups (plus their trace events).
#include <benchmark/benchmark.h>

#include "sim/world.h"

namespace spotcheck::sim {
namespace {

void BM_PingPong(benchmark::State& state) {
  WorldConfig config;
  config.seed = 1;
  config.trace.keep_events = false;
  config.network.link = LinkConfig{50, 500, 0.0};
  World world(config);
  std::uint64_t round_trips = 0;
  const ProcessId ping = world.add_process("ping", 1, [&round_trips](platform::Platform& p) {
    for (;;) {
      p.transport.send(2, "ping");
      if (p.transport.receive(platform::kNever)) {
        ++round_trips;
      }
    }
  });
  const ProcessId pong = world.add_process("pong", 2, [](platform::Platform& p) {
    for (;;) {
      if (auto envelope = p.transport.receive(platform::kNever)) {
        p.transport.send(envelope->from, "pong");
      }
    }
  });
  world.start(ping);
  world.start(pong);
  for (auto _ : state) {
    world.run_until(platform::kNever - 1, 100'000);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(round_trips));
  state.counters["steps_per_round_trip"] = static_cast<double>(world.steps()) / static_cast<double>(round_trips);
  state.counters["events_per_round_trip"] =
      static_cast<double>(world.trace().size()) / static_cast<double>(round_trips);
}
BENCHMARK(BM_PingPong)->Iterations(30)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotcheck::sim
