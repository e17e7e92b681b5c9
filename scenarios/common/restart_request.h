// How a scenario's node asks to be started again as a new host run (AuthorityNodeEnv and the
// integration run's request_restart): after `delay_us` the process is started if it is dead, or
// restarted (its fibers unwound, main last, then a fresh main) if it is still the host run that
// asked — a host run that gave up parks until then. A process that a fault restarted meanwhile is
// a newer host run and is left alone.
#pragma once

#include <cstdint>
#include <functional>

#include "sim/world.h"

namespace spotcheck::scenarios {

inline std::function<void()> restart_later(sim::World& world, sim::ProcessId pid, platform::TimeUs delay_us) {
  return [&world, pid, delay_us] {
    const std::uint32_t asking_run = world.process_run(pid);
    world.at(world.now_us() + delay_us, [&world, pid, asking_run] {
      if (world.process_state(pid) == sim::ProcessState::dead) {
        world.start(pid);
      } else if (world.process_run(pid) == asking_run) {
        world.restart(pid);
      }
    });
  };
}

}  // namespace spotcheck::scenarios
