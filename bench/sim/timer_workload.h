// The scheduler benchmarks' timer workload, shared by BM_SchedulerTimers (wall time) and
// sim_step_cost (instructions per step): `tasks` fibers in one process, each sleeping a random
// 1..1000 us in a loop, so every step pops a timer, records a trace event and switches into and
// out of a fiber. Returns the world with every fiber spawned and parked.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/world.h"

namespace spotcheck::sim::bench {

inline std::unique_ptr<World> make_timer_world(int tasks, bool keep_events) {
  WorldConfig config;
  config.seed = 1;
  config.trace.keep_events = keep_events;
  config.stack_size_bytes = 32 * 1024;
  auto world = std::make_unique<World>(config);
  const ProcessId node = world->add_process("n1", 1, [tasks](platform::Platform& p) {
    for (int i = 0; i < tasks; ++i) {
      p.tasks.spawn("sleeper", [&p] {
        for (;;) {
          p.clock.sleep_for(static_cast<TimeUs>(p.random.between(1, 1'000)));
        }
      });
    }
    p.clock.sleep_until(platform::kNever - 1);
  });
  world->start(node);
  world->run_until(platform::kNever - 2, static_cast<std::uint64_t>(tasks) + 10);  // spawn everything
  return world;
}

}  // namespace spotcheck::sim::bench
