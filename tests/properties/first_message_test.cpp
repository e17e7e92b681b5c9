// Property `instance-first-message`: on every in-process instance of an Instance Spot (one
// SpotId and ObjectGeneration in one host run) the first message runs before any other — the
// instance a restarted node restores after its earlier run died past Ready included (§7.1).
#include <gtest/gtest.h>

#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::seconds;


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
  std::optional<std::string> ready(TimeUs t, std::int64_t gen) {
    return s.feed(t, kTarget, "instance.ready",
                  {F::s("id", "chat-1"), F::n("object_gen", gen), F::s("node", "00000000000000a1"),
                   F::s("reference", "instance:chat-1:op-1")});
  }
  std::optional<std::string> recovered(TimeUs t, std::int64_t gen, const std::string& action) {
    return s.feed(t, kTarget, "instance.recovered",
                  {F::s("id", "chat-1"), F::n("object_gen", gen), F::s("node", "00000000000000a1"),
                   F::s("earlier_owner", "run-1"), F::n("earlier_lease_gen", 1), F::s("action", action)});
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

// At the end every incarnation that reached Ready has run its first message somewhere (restored
// after a crash if need be), unless its restore found the stored request gone and deleted the row.
TEST_F(FirstMessage, AReadyIncarnationWhoseFirstMessageNeverRanIsAViolationAtTheEnd) {
  EXPECT_LEGAL(ready(seconds(1), 1));
  EXPECT_LEGAL(ready(seconds(2), 2));
  EXPECT_LEGAL(run(seconds(3), "run-1", "op-1", 2, true));
  EXPECT_LEGAL(ready(seconds(4), 3));
  EXPECT_LEGAL(recovered(seconds(5), 3, "payload_unreadable"));
  const std::optional<PropertyViolation> verdict = h.suite.finish(RunEnd{seconds(60), s.next_index()});
  ASSERT_TRUE(verdict.has_value());
  EXPECT_EQ(verdict->property, "instance-first-message");
  EXPECT_NE(verdict->message.find("made Ready at #0 never ran its first message (1 such)"), std::string::npos)
      << verdict->message;
}

TEST_F(FirstMessage, EveryReadyIncarnationRanItsFirstMessageSomewhere) {
  EXPECT_LEGAL(ready(seconds(1), 1));
  EXPECT_LEGAL(s.kill(seconds(2), kTarget));
  EXPECT_LEGAL(s.start(seconds(3), kTarget));
  EXPECT_LEGAL(recovered(seconds(20), 1, "first_message_restored"));
  EXPECT_LEGAL(run(seconds(20), "run-2", "op-1", 1, true));
  EXPECT_FALSE(h.suite.finish(RunEnd{seconds(60), s.next_index()}).has_value());
}

}  // namespace
}  // namespace spotcheck::properties::testing
