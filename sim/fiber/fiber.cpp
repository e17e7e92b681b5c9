#include "sim/fiber/fiber.h"

#include <memory>
#include <utility>

#include "impl/check/check.h"

namespace spotcheck::sim {

Fiber::Fiber(StackSource& stacks, Entry entry, void* argument)
    : stacks_(&stacks), entry_(entry), argument_(argument) {
  SPOTCHECK_ASSERT_ABORT(entry != nullptr);
}

Fiber::~Fiber() {
  SPOTCHECK_ASSERT_ABORT(!running_);
  // context_'s destructor unwinds a suspended fiber (forced_unwind) and frees its stack.
}

void Fiber::unwind() {
  SPOTCHECK_ASSERT_ABORT(!running_);
  // Destroying the moved-out context unwinds a suspended fiber (forced_unwind) and frees its stack.
  boost::context::fiber doomed = std::move(context_);
}

boost::context::fiber Fiber::run_entry(boost::context::fiber&& caller) {
  caller_ = std::move(caller);
  entry_(argument_);
  finished_ = true;
  running_ = false;
  return std::move(caller_);
}

void Fiber::start() {
  SPOTCHECK_ASSERT_ABORT(!started_);
  started_ = true;
  auto body = [this](boost::context::fiber&& caller) { return run_entry(std::move(caller)); };
  if (stacks_->guard_pages) {
    context_ = boost::context::fiber(std::allocator_arg, GuardedStack(stacks_->stack_size_bytes), body);
  } else {
    context_ = boost::context::fiber(std::allocator_arg, stacks_->pooled, body);
  }
}

}  // namespace spotcheck::sim
