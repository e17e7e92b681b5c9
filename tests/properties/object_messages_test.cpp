// Properties `object-messages` (one sender stream's messages to one object run in the order sent,
// none twice, never on another ObjectGeneration; a `ran` answer is backed by a turn) and
// `route-cache` (§7.3: only Ready is cached; a hit never past RouteCacheMaxAge or the owner's last
// admission time as the fill's lease read showed it), and `single-owner` on object turns.
#include <gtest/gtest.h>

#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::seconds;

constexpr std::int32_t kOwnerNode = 1;
constexpr std::int32_t kSenderNode = 2;

std::vector<F> turn_fields(std::int64_t stream, std::int64_t seq, std::int64_t object_gen, std::int64_t message_gen,
                           TimeUs now) {
  return {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", object_gen), F::n("owner_gen", 1),
          F::s("turn", "message"), F::s("source_owner", "sender"), F::n("source_lease_gen", 1), F::n("stream", stream),
          F::n("seq", seq), F::n("message_gen", message_gen), F::s("op_id", "op"), F::s("owner", "owner-a"),
          F::n("lease_gen", 1), F::n("now_us", now), F::n("deadline_us", now + seconds(5))};
}

class ObjectMessages : public ::testing::Test {
 protected:
  History h{"object-messages"};
  Script& s = h.script;
  std::optional<std::string> turn(TimeUs t, std::int64_t stream, std::int64_t seq, std::int64_t object_gen = 1,
                                  std::int64_t message_gen = 1) {
    return s.feed(t, kOwnerNode, "object.turn", turn_fields(stream, seq, object_gen, message_gen, t));
  }
  std::optional<std::string> answered(TimeUs t, std::int64_t stream, std::int64_t seq, const std::string& outcome) {
    return s.feed(t, kSenderNode, "object.message_answered",
                  {F::s("owner", "sender"), F::n("lease_gen", 1), F::s("kind", "actor"), F::s("id", "p"),
                   F::n("stream", stream), F::n("seq", seq), F::s("op_id", "op"), F::s("outcome", outcome)});
  }
};

TEST_F(ObjectMessages, InOrderPerStreamWithGapsAndOtherStreamsIsLegal) {
  EXPECT_LEGAL(turn(seconds(1), 0, 1));
  EXPECT_LEGAL(answered(seconds(1) + 5, 0, 1, "ran"));
  EXPECT_LEGAL(turn(seconds(2), 0, 3));  // message 2 was lost (no_reply): allowed
  EXPECT_LEGAL(turn(seconds(3), 1, 1));  // another stream has its own numbers
  EXPECT_LEGAL(turn(seconds(4), 0, 4, 2, 2));  // a new generation of the ID, still in order
  EXPECT_LEGAL(answered(seconds(5), 0, 2, "no_reply"));
}

TEST_F(ObjectMessages, AMessageRunTwiceIsAViolation) {
  EXPECT_LEGAL(turn(seconds(1), 0, 1));
  expect_violation(h, turn(seconds(2), 0, 1), "object-messages",
                   {"message 1 of host run sender/1 (stream 0)", "actor 'p'", "ran again", "at most once"});
}

TEST_F(ObjectMessages, AMessageRunAfterALaterOneIsAViolation) {
  EXPECT_LEGAL(turn(seconds(1), 0, 2));
  expect_violation(h, turn(seconds(2), 0, 1), "object-messages", {"message 1", "ran after message 2", "order sent"});
}

TEST_F(ObjectMessages, AMessageOnAnotherGenerationIsAViolation) {
  expect_violation(h, turn(seconds(1), 0, 1, 3, 2), "object-messages",
                   {"ObjectGeneration 2", "instance of ObjectGeneration 3", "§7.1"});
}

TEST_F(ObjectMessages, ARanAnswerWithoutATurnIsAViolation) {
  EXPECT_LEGAL(turn(seconds(1), 0, 1));
  EXPECT_LEGAL(answered(seconds(1) + 5, 0, 1, "ran"));
  expect_violation(h, answered(seconds(2), 0, 2, "ran"), "object-messages", {"told message 2", "no turn of it ran"});
}

// The loss half: each message is followed from its send (object.message_sent, then the net.send of
// the same task) to its delivery and its turn or the owner's answer.
class MessageLoss : public ObjectMessages {
 protected:
  // Message `seq` of stream 0 sent and carried by network message `net`.
  void sent(TimeUs t, std::int64_t seq, std::int64_t net) {
    EXPECT_LEGAL(s.feed(t, kSenderNode, "object.message_sent",
                        {F::s("owner", "sender"), F::n("lease_gen", 1), F::s("kind", "actor"), F::s("id", "p"),
                         F::n("object_gen", 1), F::n("owner_gen", 1), F::n("stream", 0), F::n("seq", seq),
                         F::s("op_id", "op"), F::s("to", "00a1"), F::s("via", "store"), F::n("request", seq)}));
    EXPECT_LEGAL(s.feed(t, kSenderNode, "net.send", {F::n("to", 161), F::n("message", net), F::n("size_bytes", 90)}));
  }
  std::optional<std::string> delivered(TimeUs t, std::int64_t net) {
    return s.feed(t, kOwnerNode, "net.deliver", {F::n("from", 162), F::n("message", net)});
  }
  std::optional<std::string> dropped(TimeUs t, std::int64_t net) {
    return s.feed(t, kSenderNode, "net.drop",
                  {F::n("from", 162), F::n("to", 161), F::n("message", net), F::s("why", "loss")});
  }
  std::optional<std::string> refused(TimeUs t, std::int64_t seq, const std::string& kind = "object.turn_refused") {
    return s.feed(t, kOwnerNode, kind,
                  {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", 1), F::s("turn", "message"),
                   F::s("source_owner", "sender"), F::n("source_lease_gen", 1), F::n("stream", 0), F::n("seq", seq),
                   F::s("outcome", "not_here"), F::s("owner", "owner-a"), F::n("lease_gen", 1)});
  }
  std::optional<std::string> deactivated(TimeUs t) {
    return s.feed(t, kOwnerNode, "object.deactivated",
                  {F::s("kind", "actor"), F::s("id", "p"), F::n("object_gen", 1), F::n("owner_gen", 1),
                   F::s("stable_type", "T"), F::s("owner", "owner-a"), F::n("lease_gen", 1),
                   F::s("reason", "removed")});
  }
  std::optional<PropertyViolation> finish(TimeUs t) { return h.suite.finish(RunEnd{t, s.next_index()}); }
};

TEST_F(MessageLoss, RunRefusedDroppedOrLostWithItsProcessIsLegal) {
  sent(seconds(1), 1, 10);
  EXPECT_LEGAL(delivered(seconds(1) + 100, 10));
  EXPECT_LEGAL(turn(seconds(1) + 200, 0, 1));
  sent(seconds(2), 2, 11);
  EXPECT_LEGAL(dropped(seconds(2), 11));  // a fault lost it
  sent(seconds(3), 3, 12);
  EXPECT_LEGAL(delivered(seconds(3) + 100, 12));
  EXPECT_LEGAL(refused(seconds(3) + 200, 3));  // answered unrun
  sent(seconds(4), 4, 13);
  EXPECT_LEGAL(delivered(seconds(4) + 100, 13));
  EXPECT_LEGAL(s.kill(seconds(4) + 150, kOwnerNode));  // queued when its process died
  EXPECT_LEGAL(s.start(seconds(5), kOwnerNode));
  sent(seconds(6), 5, 14);
  EXPECT_LEGAL(delivered(seconds(6) + 100, 14));
  EXPECT_LEGAL(turn(seconds(6) + 200, 0, 5));
  EXPECT_LEGAL(deactivated(seconds(7)));  // an earlier removal: not after the next delivery
  sent(seconds(7) + 10, 6, 15);
  EXPECT_LEGAL(delivered(seconds(7) + 100, 15));  // still queued at the end, as far as the trace shows
  EXPECT_FALSE(finish(seconds(8)).has_value());
}

TEST_F(MessageLoss, AQueuedMessageSkippedByALaterOneIsAViolation) {
  sent(seconds(1), 1, 10);
  EXPECT_LEGAL(delivered(seconds(1) + 100, 10));
  sent(seconds(2), 2, 11);  // message 1 got no reply in time (its turn is slow): the sender goes on
  EXPECT_LEGAL(delivered(seconds(2) + 100, 11));
  expect_violation(h, turn(seconds(3), 0, 2), "object-messages",
                   {"message 2 to actor 'p' ran, but message 1 of the same sender stream", "neither ran nor was answered",
                    "lost it with no fault"});
}

TEST_F(MessageLoss, AMessageLeftUnansweredWhenItsInstanceWentIsAViolationAtTheEnd) {
  sent(seconds(1), 1, 10);
  EXPECT_LEGAL(delivered(seconds(1) + 100, 10));
  EXPECT_LEGAL(deactivated(seconds(2)));
  const std::optional<PropertyViolation> violation = finish(seconds(9));
  ASSERT_TRUE(violation.has_value());
  EXPECT_EQ(violation->property, "object-messages");
  EXPECT_NE(violation->message.find("message 1 to actor 'p' ObjectGeneration 1"), std::string::npos)
      << violation->message;
  EXPECT_NE(violation->message.find("lost with no fault"), std::string::npos) << violation->message;
}

TEST_F(MessageLoss, AnInstanceRemovalThatAnsweredItsQueueIsLegal) {
  sent(seconds(1), 1, 10);
  EXPECT_LEGAL(delivered(seconds(1) + 100, 10));
  EXPECT_LEGAL(deactivated(seconds(2)));
  EXPECT_LEGAL(refused(seconds(2), 1));
  EXPECT_FALSE(finish(seconds(9)).has_value());
}

class RouteCache : public ::testing::Test {
 protected:
  History h{"route-cache"};
  Script& s = h.script;
  // A fill at local `now` from a lease read sent at `now - 1 ms` whose ExpiresAt is `lease_left_s`
  // after its StoreNow: the owner's bound is read_before + left - 5 s.
  std::optional<std::string> fill(TimeUs now, std::int64_t version, std::int64_t lease_left_s, TimeUs expires,
                                  const std::string& state = "ready") {
    return s.feed(now, kSenderNode, "cache.filled",
                  {F::s("owner", "sender"), F::n("lease_gen", 1), F::s("kind", "actor"), F::s("id", "p"),
                   F::s("state", state), F::n("object_gen", 1), F::n("owner_gen", 1), F::n("store_version", version),
                   F::s("route", "00a1"), F::s("target_owner", "owner-a"), F::n("target_lease_gen", 1),
                   F::n("lease_expires_ms", 2'000'000 + lease_left_s * 1000), F::n("store_now_ms", 2'000'000),
                   F::n("read_before_us", now - 1000), F::n("now_us", now), F::n("max_age_us", seconds(15)),
                   F::n("margin_us", seconds(5)), F::n("expires_us", expires)});
  }
  std::optional<std::string> hit(TimeUs now, std::int64_t version, TimeUs expires) {
    return s.feed(now, kSenderNode, "cache.hit",
                  {F::s("owner", "sender"), F::n("lease_gen", 1), F::s("kind", "actor"), F::s("id", "p"),
                   F::n("store_version", version), F::n("now_us", now), F::n("expires_us", expires),
                   F::s("reason", "")});
  }
};

TEST_F(RouteCache, HitsWithinBothBoundsAreLegal) {
  EXPECT_LEGAL(fill(seconds(1), 7, 12, seconds(1) - 1000 + seconds(7)));
  EXPECT_LEGAL(hit(seconds(5), 7, seconds(8)));
  EXPECT_LEGAL(fill(seconds(6), 9, 30, seconds(21)));
  EXPECT_LEGAL(hit(seconds(20), 9, seconds(21)));
}

TEST_F(RouteCache, AHitPastTheOwnersAdmissionIsAViolation) {
  // ExpiresAt 12 s after StoreNow: the owner accepts new work until 1 s - 1 ms + 12 s - 5 s.
  EXPECT_LEGAL(fill(seconds(1), 7, 12, seconds(16)));  // kept for the full 15 s (the planted bug)
  expect_violation(h, hit(seconds(9), 7, seconds(16)), "route-cache",
                   {"actor 'p'", "owner's last admission time", "never outlives", "§7.3"});
}

TEST_F(RouteCache, AHitPastTheMaxAgeIsAViolation) {
  EXPECT_LEGAL(fill(seconds(1), 7, 60, seconds(17)));
  expect_violation(h, hit(seconds(16), 7, seconds(17)), "route-cache", {"RouteCacheMaxAge", "§7.3"});
}

TEST_F(RouteCache, OnlyReadyIsCachedAndAHitNeedsItsFill) {
  expect_violation(h, fill(seconds(1), 7, 12, seconds(5), "reserved"), "route-cache",
                   {"state reserved", "never cached"});
  History other{"route-cache"};
  expect_violation(other, other.script.feed(seconds(1), kSenderNode, "cache.hit",
                                            {F::s("owner", "sender"), F::n("lease_gen", 1), F::s("kind", "actor"),
                                             F::s("id", "p"), F::n("store_version", 3), F::n("now_us", seconds(1)),
                                             F::n("expires_us", seconds(2)), F::s("reason", "")}),
                   "route-cache", {"never filled"});
}

// Two tasks of one host run fill from reads that straddle a change: the cache keeps the higher
// StoreVersion (legal), and a hit on the older one after the newer was read is a violation.
TEST_F(RouteCache, AnOlderFillAfterANewerOneIsNotKeptAndAHitOnItIsAViolation) {
  EXPECT_LEGAL(fill(seconds(1), 9, 12, seconds(7)));
  EXPECT_LEGAL(fill(seconds(1) + 10, 7, 12, seconds(7)));  // the older read's fill, ignored by the cache
  EXPECT_LEGAL(hit(seconds(2), 9, seconds(7)));
  expect_violation(h, hit(seconds(3), 7, seconds(7)), "route-cache",
                   {"at StoreVersion 7 after it had read StoreVersion 9", "higher StoreVersion"});
}

// single-owner: an object turn is an owner act — judged against the lease like a handler run.
TEST(ObjectTurnOwnerAct, ATurnAfterTheLeaseWasLostIsAViolation) {
  History h{"single-owner"};
  Script& s = h.script;
  EXPECT_LEGAL(s.registered(seconds(1), kOwnerNode, "owner-a", 1, store_ms(seconds(16))));
  Row row;
  row.id = "p";
  EXPECT_LEGAL(s.write(seconds(2), kOwnerNode, Write{"commit", row}));
  EXPECT_LEGAL(s.feed(seconds(3), kOwnerNode, "object.turn", turn_fields(0, 1, 1, 1, seconds(3))));
  EXPECT_LEGAL(s.lost(seconds(4), kOwnerNode, "owner-a", 1));
  expect_violation(h, s.feed(seconds(5), kOwnerNode, "object.turn", turn_fields(0, 2, 1, 1, seconds(5))),
                   "single-owner", {"object.turn", "ran a message of actor 'p'", "after its owner lease was lost"});
}

}  // namespace
}  // namespace spotcheck::properties::testing
