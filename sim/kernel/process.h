// Kernel-side state of one simulated host process.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "impl/platform/transport.h"
#include "sim/ids.h"
#include "sim/kernel/platform_adapters.h"
#include "sim/kernel/process_state.h"
#include "sim/kernel/wait_list.h"
#include "sim/scheduler/ready_entry.h"
#include "sim/time/local_clock.h"

namespace spotcheck::sim {

// A typed arrival held back while its destination process is paused.
struct DeferredArrival {
  RoutingId from = 0;
  std::uint64_t message = 0;
  std::function<void()> on_arrival;
};

struct Process {
  ProcessId id = 0;
  std::string name;
  RoutingId routing_id = 0;
  ProcessMain main;
  ProcessState state = ProcessState::stopped;
  std::uint32_t run = 0;  // host run number: 1 at the first start, +1 at every start after a kill
  // Crashing (Kernel::crash from one of its tasks): nothing it sends leaves, and it is killed as
  // that task next switches; `crash_point` names where it died.
  bool crashing = false;
  std::string crash_point;
  LocalClock clock;

  std::vector<std::uint32_t> task_slots;  // live tasks (unordered; kill sorts by task id, newest first)
  std::deque<platform::Envelope> inbox;
  WaitList inbox_waiters;

  // Pause: entries picked while paused wait here, in pick order, until the pause ends.
  TimeUs paused_until_us = 0;
  std::uint64_t pause_generation = 0;
  std::vector<ReadyEntry> frozen;
  std::vector<DeferredArrival> deferred_arrivals;

  std::unique_ptr<ProcessPlatform> platform;
};

}  // namespace spotcheck::sim
