// Where fiber stacks come from. Pooled stacks (no guard page, tens of ns per fiber) for big sweeps;
// protected stacks (mmap + guard page, ~6 us per fiber) when debugging a stack overflow.
#pragma once

#include <cstddef>
#include <memory>

#include <boost/context/protected_fixedsize_stack.hpp>
#include <boost/context/stack_context.hpp>

#include "sim/fiber/stack_pool.h"
#include "sim/fiber/stack_size.h"

namespace spotcheck::sim {

// Makes a reused stack region addressable again for AddressSanitizer (a fiber that ended leaves
// the poisoned redzones of its last frames behind). No-op without ASan.
void unpoison_stack(const boost::context::stack_context& stack);

// Boost stack allocator over a shared StackPool; copies share the pool (each fiber keeps one, so
// the pool outlives every fiber that uses it).
class PooledStack {
 public:
  explicit PooledStack(std::size_t stack_size_bytes) : pool_(std::make_shared<StackPool>(stack_size_bytes)) {}
  boost::context::stack_context allocate() {
    boost::context::stack_context stack = pool_->allocate();
    unpoison_stack(stack);
    return stack;
  }
  void deallocate(boost::context::stack_context& stack) noexcept { pool_->deallocate(stack); }
  std::size_t stacks_in_use() const { return pool_->stacks_in_use(); }

 private:
  std::shared_ptr<StackPool> pool_;
};

// Boost stack allocator with a guard page below every stack.
class GuardedStack {
 public:
  explicit GuardedStack(std::size_t stack_size_bytes) : inner_(stack_size_bytes) {}
  boost::context::stack_context allocate() {
    boost::context::stack_context stack = inner_.allocate();
    unpoison_stack(stack);
    return stack;
  }
  void deallocate(boost::context::stack_context& stack) noexcept { inner_.deallocate(stack); }

 private:
  boost::context::protected_fixedsize_stack inner_;
};

// The stack source of one world.
struct StackSource {
  StackSource(std::size_t stack_size_bytes_in, bool guard_pages_in)
      : stack_size_bytes(stack_size_bytes_in), guard_pages(guard_pages_in), pooled(stack_size_bytes_in) {}
  std::size_t stack_size_bytes;
  bool guard_pages;
  PooledStack pooled;
};

}  // namespace spotcheck::sim
