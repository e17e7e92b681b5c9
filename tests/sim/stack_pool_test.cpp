// Fiber stack pools: stacks are recycled LIFO within a pool, and a pool's blocks outlive it in a
// per-thread cache so the next world on the thread reuses them instead of faulting in new pages.
#include <gtest/gtest.h>

#include <thread>

#include "sim/fiber/stack_pool.h"

namespace spotcheck::sim {
namespace {

constexpr std::size_t kStackBytes = 64 * 1024;

constexpr unsigned kMark = 0x5eedf00d;

struct FirstStack {
  void* sp = nullptr;
  unsigned found = 0;  // what the word below its top held before this pool wrote kMark there
};

// Makes a pool, reads and marks the word just below its first stack's top, lets the pool die.
FirstStack first_stack_of_a_new_pool() {
  StackPool pool(kStackBytes);
  boost::context::stack_context stack = pool.allocate();
  auto* word = static_cast<volatile unsigned*>(static_cast<void*>(static_cast<char*>(stack.sp) - 64));
  FirstStack first{stack.sp, *word};
  *word = kMark;
  pool.deallocate(stack);
  return first;
}

TEST(StackPool, RecyclesAStackWithinThePool) {
  StackPool pool(kStackBytes);
  boost::context::stack_context a = pool.allocate();
  void* sp = a.sp;
  pool.deallocate(a);
  boost::context::stack_context b = pool.allocate();
  EXPECT_EQ(b.sp, sp);
  EXPECT_EQ(b.size, kStackBytes);
  pool.deallocate(b);
  EXPECT_EQ(pool.stacks_in_use(), 0u);
}

TEST(StackPool, TheNextPoolOnTheThreadReusesTheBlocksOfTheLast) {
  FirstStack first;
  FirstStack second;
  // On a fresh thread, so no earlier test's pools are in its cache.
  std::thread([&] {
    first = first_stack_of_a_new_pool();
    second = first_stack_of_a_new_pool();
  }).join();
  EXPECT_EQ(first.found, 0u);  // a fresh mapping is zero
  EXPECT_EQ(second.sp, first.sp);
  EXPECT_EQ(second.found, kMark);  // the same memory, still mapped: not a fresh (zeroed) mapping
}

TEST(StackPool, AnotherThreadGetsBlocksOfItsOwn) {
  const FirstStack here = first_stack_of_a_new_pool();
  FirstStack there;
  std::thread([&] { there = first_stack_of_a_new_pool(); }).join();
  EXPECT_NE(here.sp, there.sp);
  EXPECT_EQ(there.found, 0u);
}

}  // namespace
}  // namespace spotcheck::sim
