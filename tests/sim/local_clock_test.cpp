#include <gtest/gtest.h>

#include "sim/time/local_clock.h"

namespace spotcheck::sim {
namespace {

TEST(LocalClock, OffsetWithoutDrift) {
  LocalClock clock(5'000);
  EXPECT_EQ(clock.local_from_virtual(0), 5'000);
  EXPECT_EQ(clock.local_from_virtual(1'000), 6'000);
  EXPECT_EQ(clock.virtual_from_local(6'000), 1'000);
  EXPECT_EQ(clock.virtual_from_local(platform::kNever), platform::kNever);
}

TEST(LocalClock, PositiveDriftRunsFast) {
  LocalClock clock(0);
  clock.set_drift_ppm(0, 1'000);  // 0.1% fast
  EXPECT_EQ(clock.local_from_virtual(1'000'000), 1'001'000);
  EXPECT_EQ(clock.virtual_from_local(1'001'000), 1'000'000);
}

TEST(LocalClock, NegativeDriftRunsSlow) {
  LocalClock clock(0);
  clock.set_drift_ppm(0, -500);
  EXPECT_EQ(clock.local_from_virtual(2'000'000), 1'999'000);
  EXPECT_EQ(clock.virtual_from_local(1'999'000), 2'000'000);
}

TEST(LocalClock, VirtualFromLocalIsTheEarliestInstantReachingIt) {
  for (const std::int64_t ppm : {-100'000, -999, -1, 0, 1, 7, 333, 100'000}) {
    LocalClock clock(123);
    clock.set_drift_ppm(0, ppm);
    for (TimeUs local = 124; local < 50'000; local += 97) {
      const TimeUs at = clock.virtual_from_local(local);
      ASSERT_GE(clock.local_from_virtual(at), local) << ppm;
      ASSERT_LT(clock.local_from_virtual(at - 1), local) << ppm;
    }
  }
}

TEST(LocalClock, ReanchoringNeverJumpsOrGoesBack) {
  LocalClock clock(0);
  clock.set_drift_ppm(0, 50'000);
  const TimeUs before = clock.local_from_virtual(1'000'000);
  clock.set_drift_ppm(1'000'000, -50'000);
  EXPECT_EQ(clock.local_from_virtual(1'000'000), before);
  EXPECT_EQ(clock.local_from_virtual(2'000'000), before + 950'000);
  TimeUs last = before;
  for (TimeUs t = 1'000'000; t < 1'100'000; t += 13) {
    const TimeUs local = clock.local_from_virtual(t);
    ASSERT_GE(local, last);
    last = local;
  }
}

}  // namespace
}  // namespace spotcheck::sim

namespace spotcheck::sim {
namespace {

// Out of contract (faults/out_of_contract.h): a step moves local time at once, either way, keeps
// the drift, and never goes below zero.
TEST(LocalClock, AStepMovesLocalTimeAtOnceEitherWayAndKeepsTheDrift) {
  LocalClock clock(1'000);
  clock.set_drift_ppm(0, 1'000);
  const TimeUs before = clock.local_from_virtual(2'000'000);
  EXPECT_EQ(clock.step(2'000'000, -500'000), -500'000);
  EXPECT_EQ(clock.local_from_virtual(2'000'000), before - 500'000);
  EXPECT_EQ(clock.local_from_virtual(3'000'000), before - 500'000 + 1'001'000);
  EXPECT_EQ(clock.step(3'000'000, 250'000), 250'000);
  EXPECT_EQ(clock.local_from_virtual(3'000'000), before - 500'000 + 1'001'000 + 250'000);
  EXPECT_EQ(clock.drift_ppm(), 1'000);
  const TimeUs now_local = clock.local_from_virtual(4'000'000);
  EXPECT_EQ(clock.step(4'000'000, -now_local - 7), -now_local);  // clamped at local time 0
  EXPECT_EQ(clock.local_from_virtual(4'000'000), 0);
}

}  // namespace
}  // namespace spotcheck::sim
