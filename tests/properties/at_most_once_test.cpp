// Property `at-most-once`: an accepted OperationId (scoped by its source RID and source host run)
// runs at most once anywhere in the world, and its reply is delivered at most once; the §7.1
// restore of a first message after its process died is the one allowed re-run.
#include <gtest/gtest.h>

#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::millis;
using platform::seconds;

constexpr std::int32_t kTargetA = 1;
constexpr std::int32_t kTargetB = 2;

struct Op {
  std::string op = "op-1";
  std::string source = "00000000000000a0";
  std::string source_owner = "owner-s";
  std::int64_t source_lease_gen = 1;
};

class AtMostOnce : public ::testing::Test {
 protected:
  History h{"at-most-once"};
  Script& s = h.script;

  std::optional<std::string> run(TimeUs t, std::int32_t process, const Op& op, std::int64_t gen, bool first = true,
                                 const std::string& spot = "chat-1") {
    return s.feed(t, process, first ? "instance.first_message_run" : "instance.message_run",
                  {F::s("id", spot), F::s("op_id", op.op), F::n("object_gen", gen),
                   F::s("node", "00000000000000a" + std::to_string(process)), F::s("source", op.source),
                   F::s("source_owner", op.source_owner), F::n("source_lease_gen", op.source_lease_gen),
                   F::s("owner", "owner-t" + std::to_string(process)), F::n("lease_gen", 1), F::n("now_us", t),
                   F::n("deadline_us", t + seconds(1))});
  }
  std::optional<std::string> reply(TimeUs t, const Op& op, const std::string& outcome = "created") {
    return s.feed(t, kSource, "instance.reply_delivered",
                  {F::s("id", "chat-1"), F::s("op_id", op.op), F::s("source", op.source),
                   F::s("source_owner", op.source_owner), F::n("source_lease_gen", op.source_lease_gen),
                   F::s("outcome", outcome), F::n("object_gen", 1)});
  }
  std::optional<std::string> end_of_use(TimeUs t, std::int32_t process, std::int64_t gen) {
    return s.feed(t, process, "instance.end_of_use_recorded",
                  {F::s("id", "chat-1"), F::n("object_gen", gen), F::s("node", "00000000000000a1"),
                   F::s("reference", "instance:chat-1:op-1")});
  }
};

// ---- violations -------------------------------------------------------------------------------

// The 0.26 shape: the first incarnation ran the first message, Close released it, the source
// resubmitted after a lost reply and a new incarnation on another node ran it again.
TEST_F(AtMostOnce, SecondRunOfOneOperationOnAnotherNodeAndIncarnation) {
  const Op op;
  EXPECT_LEGAL(run(seconds(1), kTargetA, op, 1));
  EXPECT_LEGAL(end_of_use(seconds(1) + millis(5), kTargetA, 1));
  const auto verdict = run(seconds(4), kTargetB, op, 2);
  expect_violation(h, verdict, "at-most-once",
                   {"operation op-1 of source 00000000000000a0 (host run owner-s/1)", "ran again on node 00000000000000a2",
                    "ObjectGeneration 2", "already ran at #0 on node 00000000000000a1", "ObjectGeneration 1",
                    "as the first message"});
}

TEST_F(AtMostOnce, SecondRunAsALaterMessageOnTheSameIncarnation) {
  const Op op;
  EXPECT_LEGAL(run(seconds(1), kTargetA, op, 1, false));
  expect_violation(h, run(seconds(2), kTargetA, op, 1, false), "at-most-once", {"instance.message_run", "ran again"});
}

// A kill after the run does not excuse a later message, nor a first message of another generation.
TEST_F(AtMostOnce, ProcessDeathExcusesOnlyTheRestoreOfTheSameFirstMessage) {
  const Op op;
  EXPECT_LEGAL(run(seconds(1), kTargetA, op, 1));
  EXPECT_LEGAL(s.kill(seconds(2), kTargetA));
  EXPECT_LEGAL(s.start(seconds(3), kTargetA));
  expect_violation(h, run(seconds(4), kTargetB, op, 2), "at-most-once", {"ObjectGeneration 2", "ran again"});
}

TEST_F(AtMostOnce, RestoreAfterTheCompletionWasRecordedIsASecondRun) {
  const Op op;
  EXPECT_LEGAL(run(seconds(1), kTargetA, op, 1));
  EXPECT_LEGAL(end_of_use(seconds(1) + millis(5), kTargetA, 1));
  EXPECT_LEGAL(s.kill(seconds(2), kTargetA));
  EXPECT_LEGAL(s.start(seconds(3), kTargetA));
  expect_violation(h, run(seconds(4), kTargetA, op, 1), "at-most-once", {"ran again"});
}

TEST_F(AtMostOnce, ReplyDeliveredTwice) {
  const Op op;
  EXPECT_LEGAL(run(seconds(1), kTargetA, op, 1));
  EXPECT_LEGAL(reply(seconds(1) + millis(2), op));
  expect_violation(h, reply(seconds(2), op, "deadline_exceeded"), "at-most-once",
                   {"instance.reply_delivered", "operation op-1", "already delivered at #1"});
}

TEST_F(AtMostOnce, EventWithoutTheSourceIsReported) {
  const auto verdict = s.feed(seconds(1), kTargetA, "instance.first_message_run",
                              {F::s("id", "chat-1"), F::s("op_id", "op-1"), F::n("object_gen", 1), F::s("node", "a1")});
  expect_violation(h, verdict, "at-most-once", {"lacks field 'source'"});
}

// ---- legal ------------------------------------------------------------------------------------

TEST_F(AtMostOnce, TwoDifferentOperationsOnOneSpot) {
  EXPECT_LEGAL(run(seconds(1), kTargetA, Op{.op = "op-1"}, 1));
  EXPECT_LEGAL(run(seconds(2), kTargetA, Op{.op = "op-2"}, 1, false));
  EXPECT_LEGAL(run(seconds(3), kTargetB, Op{.op = "op-3"}, 2));
  EXPECT_LEGAL(reply(seconds(3), Op{.op = "op-1"}));
  EXPECT_LEGAL(reply(seconds(3), Op{.op = "op-2"}));
}

// An OperationId is unique only within its source host run (spec §7, §9.3).
TEST_F(AtMostOnce, SameOperationIdFromAnotherSourceOrSourceHostRun) {
  EXPECT_LEGAL(run(seconds(1), kTargetA, Op{}, 1));
  EXPECT_LEGAL(run(seconds(2), kTargetA, Op{.source = "00000000000000b0"}, 1, false));
  EXPECT_LEGAL(run(seconds(3), kTargetA, Op{.source_lease_gen = 2}, 1, false));
  EXPECT_LEGAL(run(seconds(4), kTargetA, Op{.source_owner = "owner-t"}, 1, false));
  EXPECT_LEGAL(reply(seconds(5), Op{}));
  EXPECT_LEGAL(reply(seconds(5), Op{.source_lease_gen = 2}));
}

// Spec §7.1: "After Ready, before restoring the first message ... Restores starting from the
// first message using the stored data" — the process died after the handler ran but before the
// completion was recorded; the restarted host run runs the same first message on the same
// generation again.
TEST_F(AtMostOnce, FirstMessageRestoredAfterTheProcessDiedBeforeItsCompletion) {
  const Op op;
  EXPECT_LEGAL(run(seconds(1), kTargetA, op, 1));
  EXPECT_LEGAL(s.kill(seconds(1) + millis(1), kTargetA));
  EXPECT_LEGAL(s.start(seconds(2), kTargetA));
  EXPECT_LEGAL(run(seconds(3), kTargetA, op, 1));
  EXPECT_LEGAL(end_of_use(seconds(3) + millis(5), kTargetA, 1));
  // ... but only once per death.
  expect_violation(h, run(seconds(4), kTargetA, op, 1), "at-most-once", {"ran again"});
}

// 0.27's one new activation after a pre-admission refusal runs the operation once.
TEST_F(AtMostOnce, RefusedBeforeAdmissionThenRunOnANewIncarnation) {
  const Op op;
  EXPECT_LEGAL(run(seconds(1), kTargetA, Op{.op = "op-0"}, 1));
  EXPECT_LEGAL(s.feed(seconds(2), kTargetA, "instance.outcome",
                      {F::s("id", "chat-1"), F::s("op_id", op.op), F::s("node", "a1"), F::s("outcome", "spot_moving"),
                       F::n("object_gen", 1), F::s("route", "a1"), F::s("message", "closing")}));
  EXPECT_LEGAL(run(seconds(3), kTargetB, op, 2));
  EXPECT_LEGAL(reply(seconds(3), op));
}

}  // namespace
}  // namespace spotcheck::properties::testing
