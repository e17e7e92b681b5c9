// Instruction count per scheduler step, for callgrind (repeatable on a loaded machine, unlike
// wall time). Runs the BM_SchedulerTimers workload: `tasks` fibers sleeping a random 1..1000 us.
//
//   valgrind --tool=callgrind --toggle-collect='*measured_steps*' sim_step_cost 1000 200000
//
// Instructions inside measured_steps() divided by the printed step count = instructions per step.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <memory>

#include "bench/sim/timer_workload.h"
#include "sim/world.h"

namespace spotcheck::sim {
namespace {

[[gnu::noinline]] std::uint64_t measured_steps(World& world, std::uint64_t steps) {
  const std::uint64_t before = world.steps();
  const RunOutcome outcome = world.run_until(platform::kNever - 2, steps);
  if (outcome.status != RunStatus::step_limit) {
    std::fprintf(stderr, "run stopped early\n");
    std::exit(1);
  }
  return world.steps() - before;
}

int run(int tasks, std::uint64_t steps, bool keep_events) {
  const std::unique_ptr<World> owned = bench::make_timer_world(tasks, keep_events);
  World& world = *owned;
  world.run_until(platform::kNever - 2, 100'000);  // warm up
  const std::uint64_t done = measured_steps(world, steps);
  std::printf("tasks=%d steps=%llu trace_hash=%016llx\n", tasks, static_cast<unsigned long long>(done),
              static_cast<unsigned long long>(world.trace().hash()));
  return 0;
}

}  // namespace
}  // namespace spotcheck::sim

int main(int argc, char** argv) {
  const int tasks = argc > 1 ? std::atoi(argv[1]) : 1'000;
  const std::uint64_t steps = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200'000;
  const bool keep_events = argc > 3 && std::atoi(argv[3]) != 0;
  if (tasks < 1 || tasks > 100'000 || steps < 1) {
    std::fprintf(stderr, "usage: sim_step_cost [tasks 1..100000] [steps] [keep_events 0|1]\n");
    return 2;
  }
  return spotcheck::sim::run(tasks, steps, keep_events);
}
