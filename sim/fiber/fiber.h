// A cooperative fiber on Boost.Context (`boost::context::fiber`). Only the scheduler resumes a
// fiber; only the fiber itself suspends. The stack is taken on first resume, so a fiber that never
// ran costs nothing to destroy. Destroying a suspended fiber unwinds its stack with
// boost::context::detail::forced_unwind (destructors run), then returns its stack.
#pragma once

#include <utility>

#include <boost/context/fiber.hpp>

#include "impl/check/check.h"
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
  void resume() {
    SPOTCHECK_ASSERT_ABORT(!running_);
    SPOTCHECK_ASSERT_ABORT(!finished_);
    if (!started_) [[unlikely]] {
      start();
    }
    SPOTCHECK_ASSERT_ABORT(static_cast<bool>(context_));
    running_ = true;
    context_ = std::move(context_).resume();
    running_ = false;
    // Either the fiber suspended (context_ holds it) or it finished (context_ is empty).
    SPOTCHECK_ASSERT_ABORT(finished_ != static_cast<bool>(context_));
  }
  // From inside the fiber: returns control to whoever resumed it. Inline: the parked fiber's
  // stack then holds one frame less, which is one cache line less to touch at every switch.
  void suspend() {
    SPOTCHECK_ASSERT_ABORT(running_);
    SPOTCHECK_ASSERT_ABORT(static_cast<bool>(caller_));
    running_ = false;
    // Throws forced_unwind here when the fiber is destroyed while suspended.
    caller_ = std::move(caller_).resume();
    running_ = true;
  }
  // Unwinds a suspended fiber now (as destruction would) and leaves this one empty; the owner
  // calls it while what the fiber's frames use is still alive. No-op if it never ran or finished.
  void unwind();

  bool started() const { return started_; }
  bool finished() const { return finished_; }
  bool running() const { return running_; }

 private:
  void start();  // creates the context on a stack from stacks_
  boost::context::fiber run_entry(boost::context::fiber&& caller);

  // What every switch touches comes first (one cache line with the owner's hot fields).
  boost::context::fiber context_;  // the suspended fiber (empty while it runs or once finished)
  boost::context::fiber caller_;   // the scheduler side (valid while the fiber runs)
  bool started_ = false;
  bool finished_ = false;
  bool running_ = false;
  StackSource* stacks_;
  Entry entry_;
  void* argument_;
};

}  // namespace spotcheck::sim
