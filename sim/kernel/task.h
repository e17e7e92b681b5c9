// One cooperative task of a process: a fiber plus its wait bookkeeping.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "sim/fiber/fiber.h"
#include "sim/ids.h"
#include "sim/scheduler/ready_entry.h"

namespace spotcheck::sim {

class Kernel;

// Laid out for the scheduler: the fiber's switch state and the wait state fill the first cache
// line, the rest of the per-step fields the second; name and body are cold.
struct alignas(64) Task {
  Task(Kernel& kernel_in, StackSource& stacks, Fiber::Entry entry) : fiber(stacks, entry, this), kernel(&kernel_in) {}
  // The body (and what it captured) must outlive the fiber's unwinding: unwind before members go.
  ~Task() { fiber.unwind(); }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  Fiber fiber;

  // The wait in progress (0 = not waiting). A wake claims it by moving it to claimed_token.
  std::uint64_t wait_token = 0;
  std::uint64_t claimed_token = 0;
  TimeUs deadline_local_us = 0;  // local deadline of the wait in progress (kNever: none)
  TaskId id = 0;
  ProcessId process = 0;
  std::uint32_t slot = 0;
  WakeReason wake_reason = WakeReason::start;
  bool is_main = false;
  std::uint32_t index_in_process = 0;

  Kernel* kernel;
  std::string name;
  std::function<void()> body;
};
static_assert(sizeof(Fiber) + 2 * sizeof(std::uint64_t) <= 64, "the fiber and the wait tokens share the first cache line");

}  // namespace spotcheck::sim
