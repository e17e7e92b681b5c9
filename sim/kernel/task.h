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

struct Task {
  Task(Kernel& kernel_in, StackSource& stacks, Fiber::Entry entry) : kernel(&kernel_in), fiber(stacks, entry, this) {}

  Kernel* kernel;
  TaskId id = 0;
  std::uint32_t slot = 0;
  ProcessId process = 0;
  std::uint32_t index_in_process = 0;
  bool is_main = false;
  std::string name;
  // Declared before `fiber`: the body (and what it captured) must outlive the fiber's unwinding.
  std::function<void()> body;

  // The wait in progress (0 = not waiting). A wake claims it by moving it to claimed_token.
  std::uint64_t wait_token = 0;
  std::uint64_t claimed_token = 0;
  WakeReason wake_reason = WakeReason::start;
  TimeUs deadline_local_us = 0;  // local deadline of the wait in progress (kNever: none)

  Fiber fiber;
};

}  // namespace spotcheck::sim
