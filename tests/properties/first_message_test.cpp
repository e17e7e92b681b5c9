// Property `instance-first-message`: on every in-process instance of an Instance Spot (one
// SpotId and ObjectGeneration in one host run) the first message runs before any other — the
// instance a restarted node restores after its earlier run died past Ready included (§7.1).
#include <gtest/gtest.h>

#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::seconds;

constexpr std::int32_t kTarget = 1;

class FirstMessage : public ::testing::Test {
 protected:
  History h{"instance-first-message"};
  Script& s = h.script;

  // A message run of `op` on generation `gen` of chat-1 by host run (owner, 1) of kTarget.
  std::optional<std::string> run(TimeUs t, const std::string& owner, const std::string& op, std::int64_t gen,
                                 bool first) {
    return s.feed(t, kTarget, first ? "instance.first_message_run" : "instance.message_run",
                  {F::s("id", "chat-1"), F::s("op_id", op), F::n("object_gen", gen), F::s("node", "00000000000000a1"),
                   F::s("source", "00000000000000a0"), F::s("source_owner", "owner-s"), F::n("source_lease_gen", 1),
                   F::s("owner", owner), F::n("lease_gen", 1), F::n("now_us", t), F::n("deadline_us", t + seconds(1))});
  }
};

TEST_F(FirstMessage, MessagesAfterTheFirstOnEachHostRunAreLegal) {
  EXPECT_LEGAL(run(seconds(1), "run-1", "op-1", 1, true));
  EXPECT_LEGAL(run(seconds(2), "run-1", "op-2", 1, false));
  // The earlier run died past Ready; the restarted run restores the first message, then the rest.
  EXPECT_LEGAL(s.kill(seconds(3), kTarget));
  EXPECT_LEGAL(s.start(seconds(4), kTarget));
  EXPECT_LEGAL(run(seconds(5), "run-2", "op-1", 1, true));
  EXPECT_LEGAL(run(seconds(6), "run-2", "op-3", 1, false));
}

TEST_F(FirstMessage, AMessageBeforeTheFirstIsAViolation) {
  expect_violation(h, run(seconds(1), "run-1", "op-2", 1, false), "instance-first-message",
                   {"host run run-1/1", "ran message op-2", "'chat-1' (ObjectGeneration 1)", "before that incarnation's first"});
}

// The restored instance of a later host run must run the first message itself: the earlier run's
// first message does not count for it (the planted recovery-skips-first-message).
TEST_F(FirstMessage, ARestoredInstanceThatSkipsTheFirstMessageIsAViolation) {
  EXPECT_LEGAL(run(seconds(1), "run-1", "op-1", 1, true));
  EXPECT_LEGAL(s.kill(seconds(2), kTarget));
  EXPECT_LEGAL(s.start(seconds(3), kTarget));
  expect_violation(h, run(seconds(4), "run-2", "op-2", 1, false), "instance-first-message",
                   {"host run run-2/1", "ran message op-2"});
}

// Another generation is another incarnation: its first message is its own.
TEST_F(FirstMessage, TheFirstMessageOfOneGenerationDoesNotCoverTheNext) {
  EXPECT_LEGAL(run(seconds(1), "run-1", "op-1", 1, true));
  expect_violation(h, run(seconds(2), "run-1", "op-2", 2, false), "instance-first-message", {"ObjectGeneration 2"});
}

}  // namespace
}  // namespace spotcheck::properties::testing
