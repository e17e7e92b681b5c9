// Property `object-timers` (spec §1.3, §9.2): a timer callback runs at most once, wherever its object
// moved, and goes unrun only with what held it — its instance removed, its turn refused, its move
// failed or unsettled, a process that held its object dead; otherwise, due well before the end of
// the run, it was lost.
#include <gtest/gtest.h>

#include "properties/checkers/object_timers_checker.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::millis;
using platform::seconds;

constexpr std::int32_t kSourceNode = 1;
constexpr std::int32_t kTargetNode = 2;

class ObjectTimers : public ::testing::Test {
 protected:
  History h{"object-timers"};
  Script& s = h.script;

  // Timer `seq` of host run owner-a/1's timer stream 7, for actor 'p' (ObjectGeneration 1).
  std::optional<std::string> started(TimeUs t, std::int64_t seq, TimeUs after_us = millis(500)) {
    return s.feed(t, kSourceNode, "object.timer_started",
                  {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", 1), F::s("source_owner", "owner-a"),
                   F::n("source_lease_gen", 1), F::n("stream", 7), F::n("seq", seq), F::n("after_us", after_us),
                   F::s("owner", "owner-a"), F::n("lease_gen", 1)});
  }
  std::optional<std::string> ran(TimeUs t, std::int64_t seq, std::int32_t node = kSourceNode,
                                 const std::string& owner = "owner-a") {
    return s.feed(t, node, "object.turn",
                  {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", 1), F::n("owner_gen", 1),
                   F::s("turn", "timer"), F::s("source_owner", "owner-a"), F::n("source_lease_gen", 1),
                   F::n("stream", 7), F::n("seq", seq), F::n("message_gen", 0), F::s("op_id", ""),
                   F::s("owner", owner), F::n("lease_gen", 1), F::n("now_us", t), F::n("deadline_us", t + seconds(5))});
  }
  std::optional<std::string> refused(TimeUs t, std::int64_t seq) {
    return s.feed(t, kSourceNode, "object.turn_refused",
                  {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", 1), F::s("turn", "timer"),
                   F::s("source_owner", "owner-a"), F::n("source_lease_gen", 1), F::n("stream", 7), F::n("seq", seq),
                   F::s("outcome", "not_admitted"), F::s("owner", "owner-a"), F::n("lease_gen", 1)});
  }
  std::optional<std::string> hosted(TimeUs t, std::int32_t node, const std::string& kind, const std::string& reason) {
    return s.feed(t, node, kind,
                  {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", 1), F::n("owner_gen", 1),
                   F::s("stable_type", "Player"), F::s("owner", node == kSourceNode ? "owner-a" : "owner-b"),
                   F::n("lease_gen", 1), F::s("reason", reason)});
  }
  std::optional<std::string> relocation(TimeUs t, std::int32_t node, const std::string& kind, const std::string& why) {
    return s.feed(t, node, kind,
                  {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", 1), F::n("owner_gen", 1),
                   F::s("binding", "b"), F::s("source", "owner-a"), F::s("target", "00a2"),
                   F::s("owner", node == kSourceNode ? "owner-a" : "owner-b"), F::n("count", 0), F::s("why", why)});
  }
  std::optional<PropertyViolation> end_at(TimeUs t) { return h.suite.finish(RunEnd{t, s.next_index()}); }
};

TEST_F(ObjectTimers, ATimerRunOnceWhereverItsObjectMovedIsLegal) {
  EXPECT_LEGAL(hosted(seconds(1), kSourceNode, "object.activated", "created"));
  EXPECT_LEGAL(started(seconds(2), 1));
  EXPECT_LEGAL(started(seconds(2), 2));
  EXPECT_LEGAL(ran(seconds(3), 1));
  // The object moves with timer 2 pending; the target runs it under its starter's identity.
  EXPECT_LEGAL(relocation(seconds(4), kSourceNode, "relocation.started", ""));
  EXPECT_LEGAL(hosted(seconds(4), kSourceNode, "object.deactivated", "moved"));
  EXPECT_LEGAL(relocation(seconds(5), kTargetNode, "relocation.ready", "cutover"));
  EXPECT_LEGAL(ran(seconds(5), 2, kTargetNode, "owner-b"));
  EXPECT_FALSE(end_at(seconds(60)).has_value());
}

TEST_F(ObjectTimers, ATimerRunTwiceIsAViolation) {
  EXPECT_LEGAL(started(seconds(1), 1));
  EXPECT_LEGAL(ran(seconds(2), 1));
  expect_violation(h, ran(seconds(3), 1, kTargetNode, "owner-b"), "object-timers",
                   {"timer 1 of host run owner-a/1 (stream 7) of actor 'p'", "ran twice", "at most once"});
}

TEST_F(ObjectTimers, ATimerNoInstanceStartedIsAViolation) {
  expect_violation(h, ran(seconds(2), 4), "object-timers", {"timer 4", "no instance of the object ever started it"});
}

TEST_F(ObjectTimers, ATimerLostWithNothingThatHeldItGoneIsAViolationAtTheEnd) {
  EXPECT_LEGAL(hosted(seconds(1), kSourceNode, "object.activated", "created"));
  EXPECT_LEGAL(started(seconds(2), 1));
  EXPECT_LEGAL(hosted(seconds(3), kSourceNode, "object.deactivated", "moved"));  // moved: not an excuse
  EXPECT_LEGAL(relocation(seconds(4), kTargetNode, "relocation.ready", "cutover"));
  const std::optional<PropertyViolation> lost = end_at(seconds(60));
  ASSERT_TRUE(lost.has_value());
  EXPECT_EQ(lost->property, "object-timers");
  EXPECT_NE(lost->message.find("timer 1 of host run owner-a/1 (stream 7) of actor 'p' (started #1"), std::string::npos)
      << lost->message;
  EXPECT_NE(lost->message.find("a timer callback was lost"), std::string::npos) << lost->message;
}

TEST_F(ObjectTimers, ATimerNotYetPastItsGraceWhenTheRunEndsIsNotLost) {
  EXPECT_LEGAL(started(seconds(2), 1));
  EXPECT_FALSE(end_at(seconds(2) + millis(500) + ObjectTimersChecker::kDueGraceUs - 1).has_value());
}

TEST_F(ObjectTimers, WhatHeldItGoingExcusesAnUnrunTimer) {
  EXPECT_LEGAL(hosted(seconds(1), kSourceNode, "object.activated", "created"));
  EXPECT_LEGAL(started(seconds(2), 1));
  EXPECT_LEGAL(refused(seconds(3), 1));  // its turn refused admission
  EXPECT_LEGAL(started(seconds(3), 2));
  EXPECT_LEGAL(hosted(seconds(4), kSourceNode, "object.deactivated", "removed"));  // its instance removed
  EXPECT_LEGAL(started(seconds(5), 3));
  EXPECT_LEGAL(relocation(seconds(6), kTargetNode, "relocation.failed", "location_update_failed"));
  EXPECT_LEGAL(started(seconds(7), 4));
  EXPECT_LEGAL(relocation(seconds(8), kSourceNode, "relocation.handed_over", "unsettled"));
  EXPECT_LEGAL(started(seconds(9), 5));
  EXPECT_LEGAL(s.kill(seconds(10), kSourceNode));  // a process that held the object died
  EXPECT_FALSE(end_at(seconds(60)).has_value());
}

TEST_F(ObjectTimers, AKillOfANodeThatNeverHeldTheObjectExcusesNothing) {
  EXPECT_LEGAL(hosted(seconds(1), kSourceNode, "object.activated", "created"));
  EXPECT_LEGAL(started(seconds(2), 1));
  EXPECT_LEGAL(s.kill(seconds(3), kTargetNode));
  EXPECT_TRUE(end_at(seconds(60)).has_value());
}

}  // namespace
}  // namespace spotcheck::properties::testing
