// A cooperative fiber on Boost.Context (`boost::context::fiber`). Only the scheduler resumes a
// fiber; only the fiber itself suspends. The stack is taken on first resume, so a fiber that never
// ran costs nothing to destroy. Destroying a suspended fiber unwinds its stack with
// boost::context::detail::forced_unwind (destructors run), then returns its stack.
#pragma once

#include <boost/context/fiber.hpp>

#include "sim/fiber/stack_allocator.h"

namespace spotcheck::sim {

class Fiber {
 public:
  using Entry = void (*)(void* argument);

  // `entry(argument)` runs on the fiber. It must not let any exception except forced_unwind escape
  // (the kernel's task entry catches everything else).
  Fiber(StackSource& stacks, Entry entry, void* argument);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // From the scheduler: runs the fiber until it suspends or finishes.
  void resume();
  // From inside the fiber: returns control to whoever resumed it.
  void suspend();

  bool started() const { return started_; }
  bool finished() const { return finished_; }
  bool running() const { return running_; }

 private:
  boost::context::fiber run_entry(boost::context::fiber&& caller);

  StackSource* stacks_;
  Entry entry_;
  void* argument_;
  boost::context::fiber context_;  // the suspended fiber (empty while it runs or once finished)
  boost::context::fiber caller_;   // the scheduler side (valid while the fiber runs)
  bool started_ = false;
  bool finished_ = false;
  bool running_ = false;
};

}  // namespace spotcheck::sim
