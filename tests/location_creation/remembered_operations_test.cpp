// The command targets' bounded memory of operations: the oldest settled ones are forgotten past
// the bound, a running one never is, and remembering a key again updates it in place.
#include <gtest/gtest.h>

#include <string>

#include "impl/location/creation/remembered_operations.h"

namespace spotcheck::location::creation {
namespace {

enum class State { kRunning, kAnswered };
struct Entry {
  State state = State::kRunning;
  int value = 0;
};

TEST(RememberedOperations, ForgetsTheOldestSettledPastTheBound) {
  RememberedOperations<Entry> ops(2);
  ops.remember("a", Entry{State::kAnswered, 1});
  ops.remember("b", Entry{State::kAnswered, 2});
  ops.remember("c", Entry{State::kAnswered, 3});
  EXPECT_EQ(ops.size(), 2U);
  EXPECT_EQ(ops.find("a"), nullptr);
  ASSERT_NE(ops.find("b"), nullptr);
  EXPECT_EQ(ops.find("c")->value, 3);
}

TEST(RememberedOperations, NeverForgetsARunningOperation) {
  RememberedOperations<Entry> ops(2);
  ops.remember("running", Entry{State::kRunning, 1});
  ops.remember("b", Entry{State::kAnswered, 2});
  ops.remember("c", Entry{State::kAnswered, 3});
  EXPECT_NE(ops.find("running"), nullptr);
  EXPECT_EQ(ops.find("b"), nullptr);
  EXPECT_EQ(ops.size(), 2U);
  // With every entry running, the bound gives way rather than forget one.
  RememberedOperations<Entry> busy(1);
  busy.remember("x", Entry{State::kRunning, 1});
  busy.remember("y", Entry{State::kRunning, 2});
  EXPECT_EQ(busy.size(), 2U);
  EXPECT_NE(busy.find("x"), nullptr);
  EXPECT_NE(busy.find("y"), nullptr);
}

TEST(RememberedOperations, RememberingAKeyAgainUpdatesItInPlace) {
  RememberedOperations<Entry> ops(2);
  ops.remember("a", Entry{State::kRunning, 1});
  ops.remember("a", Entry{State::kAnswered, 5});
  EXPECT_EQ(ops.size(), 1U);
  EXPECT_EQ(ops.find("a")->value, 5);
  EXPECT_EQ(ops.find("a")->state, State::kAnswered);
  ops.find("a")->value = 6;  // find gives the stored entry
  EXPECT_EQ(ops.find("a")->value, 6);
}

}  // namespace
}  // namespace spotcheck::location::creation
