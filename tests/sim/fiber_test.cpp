#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "sim/fiber/fiber.h"

namespace spotcheck::sim {
namespace {

struct Probe {
  explicit Probe(int& counter) : counter_(&counter) {}
  ~Probe() { ++*counter_; }
  int* counter_;
};

struct Script {
  Fiber* fiber = nullptr;
  std::vector<int> steps;
  int destroyed = 0;
  int rounds = 3;
};

void scripted_entry(void* argument) {
  auto& script = *static_cast<Script*>(argument);
  Probe probe(script.destroyed);
  for (int round = 0; round < script.rounds; ++round) {
    script.steps.push_back(round);
    script.fiber->suspend();
  }
}

TEST(Fiber, ResumeRunsUntilSuspendThenFinishes) {
  for (const bool guard : {false, true}) {
    StackSource stacks(64 * 1024, guard);
    Script script;
    Fiber fiber(stacks, &scripted_entry, &script);
    script.fiber = &fiber;
    EXPECT_FALSE(fiber.started());
    fiber.resume();
    EXPECT_EQ(script.steps, (std::vector<int>{0}));
    fiber.resume();
    fiber.resume();
    EXPECT_EQ(script.steps, (std::vector<int>{0, 1, 2}));
    EXPECT_FALSE(fiber.finished());
    fiber.resume();
    EXPECT_TRUE(fiber.finished());
    EXPECT_EQ(script.destroyed, 1);
  }
}

TEST(Fiber, DestroyingASuspendedFiberUnwindsItsStack) {
  StackSource stacks(64 * 1024, false);
  Script script;
  script.rounds = 1'000;
  {
    auto fiber = std::make_unique<Fiber>(stacks, &scripted_entry, &script);
    script.fiber = fiber.get();
    fiber->resume();
    fiber->resume();
    EXPECT_EQ(script.destroyed, 0);
  }
  EXPECT_EQ(script.destroyed, 1);  // the Probe's destructor ran during forced unwinding
  EXPECT_EQ(script.steps.size(), 2U);
}

TEST(Fiber, NeverStartedFiberIsFreeToDestroy) {
  StackSource stacks(64 * 1024, false);
  Script script;
  {
    Fiber fiber(stacks, &scripted_entry, &script);
    script.fiber = &fiber;
  }
  EXPECT_TRUE(script.steps.empty());
  EXPECT_EQ(script.destroyed, 0);  // the body never ran
}

TEST(Fiber, ManyFibersReuseThePool) {
  StackSource stacks(64 * 1024, false);
  for (int generation = 0; generation < 3; ++generation) {
    std::vector<std::unique_ptr<Script>> scripts;
    std::vector<std::unique_ptr<Fiber>> fibers;
    for (int i = 0; i < 200; ++i) {
      scripts.push_back(std::make_unique<Script>());
      fibers.push_back(std::make_unique<Fiber>(stacks, &scripted_entry, scripts.back().get()));
      scripts.back()->fiber = fibers.back().get();
      fibers.back()->resume();
    }
    fibers.clear();
    for (const auto& script : scripts) {
      EXPECT_EQ(script->destroyed, 1);
    }
  }
}

}  // namespace
}  // namespace spotcheck::sim
