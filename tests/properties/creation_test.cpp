// Property `exactly-one-creation`: legal creation histories pass; each illegal one is flagged
// with the object, the generations and the earlier conflicting event.
#include <gtest/gtest.h>

#include "impl/location/events/creation_events.h"
#include "impl/location/events/descriptor_events.h"

#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::millis;
using platform::seconds;


class Creation : public ::testing::Test {
 protected:
  History h{"exactly-one-creation"};
  Script& s = h.script;

  // The Creating row of `gen`, reserved by the source on the target host run `owner`.
  static Row row(std::int64_t gen, std::string state = "reserved", std::string owner = "owner-b") {
    Row r;
    r.id = "player:1";
    r.object_gen = gen;
    r.state = std::move(state);
    r.owner = std::move(owner);
    return r;
  }
  std::optional<std::string> reserve(TimeUs t, std::int64_t gen, std::int64_t store_now_ms = 0) {
    return s.write(t, kSource, Write{.op = "reserve", .row = row(gen), .store_now_ms = store_now_ms,
                                     .by_owner = "owner-a", .by_lease_gen = 1});
  }
  std::optional<std::string> commit(TimeUs t, std::int64_t gen, std::int64_t store_now_ms = 0) {
    return s.write(t, kTarget, Write{.op = "commit", .row = row(gen, "active"), .store_now_ms = store_now_ms});
  }
  std::optional<std::string> abort(TimeUs t, std::int64_t gen, std::int64_t store_now_ms = 0) {
    return s.write(t, kTarget, Write{.op = "abort", .row = row(gen), .store_now_ms = store_now_ms});
  }
  std::optional<std::string> factory(TimeUs t, std::int64_t gen, std::string owner = "owner-b",
                                     std::int32_t node = kTarget, std::int64_t lease_gen = 1) {
    return s.feed(t, node, "creation.factory_run",
                  {F::s("kind", "actor"), F::s("id", "player:1"), F::n("object_gen", gen), F::s("stable_type", "Player"),
                   F::s("node", "00000000000000a2"), F::s("owner", std::move(owner)), F::n("lease_gen", lease_gen),
                   F::s("op_id", "op"), F::n("now_us", t), F::n("deadline_us", t + seconds(1))});
  }
  std::optional<std::string> result(TimeUs t, const std::string& op, const std::string& outcome,
                                    std::int64_t source_gen = 1) {
    return s.feed(t, kTarget, "creation.result",
                  {F::s("op_id", op), F::n("source_gen", source_gen), F::s("outcome", outcome), F::s("kind", "actor"),
                   F::s("id", "player:1"), F::n("object_gen", 1), F::s("owner", "owner-b"), F::n("lease_gen", 1)});
  }
  std::optional<std::string> delivered(TimeUs t, const std::string& op, const std::string& outcome,
                                       const std::string& kind = "creation.reply_delivered", std::int64_t source_gen = 1) {
    if (kind == "close.reply_delivered") {
      return s.feed(t, kSource, kind, {F::s("op_id", op), F::s("outcome", outcome), F::n("request", 1)});
    }
    return s.feed(t, kSource, kind,
                  {F::s("op_id", op), F::n("source_gen", source_gen), F::s("outcome", outcome), F::n("request", 1),
                   F::s("id", "player:1"), F::n("object_gen", 1)});
  }
};

// ---- legal ------------------------------------------------------------------------------------

TEST_F(Creation, CreatedThenDeletedThenCreatedAgain) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  EXPECT_LEGAL(factory(seconds(1) + millis(5), 1));
  EXPECT_LEGAL(commit(seconds(1) + millis(10), 1));
  EXPECT_LEGAL(result(seconds(1) + millis(10), "op1", "created"));
  EXPECT_LEGAL(delivered(seconds(1) + millis(12), "op1", "created"));
  EXPECT_LEGAL(s.write(seconds(2), kTarget, Write{.op = "delete", .row = row(1, "active")}));
  EXPECT_LEGAL(reserve(seconds(3), 2));
  EXPECT_LEGAL(factory(seconds(3) + millis(5), 2));
  EXPECT_LEGAL(abort(seconds(3) + millis(10), 2));
  EXPECT_LEGAL(result(seconds(3) + millis(10), "op2", "rejected"));
  EXPECT_LEGAL(delivered(seconds(3) + millis(12), "op2", "rejected"));
}

TEST_F(Creation, AbortReportedAfterTheNextReserveButAppliedBefore) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  // The next Reserve (applied at 5 s) is reported before the Abort that applied at 4 s.
  EXPECT_LEGAL(reserve(seconds(5), 2));
  EXPECT_LEGAL(abort(seconds(6), 1, store_ms(seconds(4))));
}

TEST_F(Creation, ResolvedWritesAreNotProvablyOverlapping) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  // The Abort of generation 1 was resolved by a re-read at 9 s: it applied at or before then.
  EXPECT_LEGAL(s.write(seconds(9), kTarget, Write{.op = "abort", .row = row(1), .resolved = true}));
  // Reserve of generation 2 applied at store time 5 s (reported at 10 s): the Abort may have applied before it.
  EXPECT_LEGAL(reserve(seconds(10), 2, store_ms(seconds(5))));
}

TEST_F(Creation, CrashRetryOfTheFactoryOnARestartedTarget) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  EXPECT_LEGAL(factory(seconds(1) + millis(5), 1));
  EXPECT_LEGAL(s.kill(seconds(2), kTarget));  // killed after the factory, before Commit
  EXPECT_LEGAL(s.start(seconds(3), kTarget));
  EXPECT_LEGAL(factory(seconds(4), 1, "owner-c", kTarget, 7));
}

TEST_F(Creation, EveryOperationHasItsOwnReply) {
  EXPECT_LEGAL(delivered(seconds(1), "op1", "existing"));
  EXPECT_LEGAL(delivered(seconds(1), "op2", "existing"));
  EXPECT_LEGAL(delivered(seconds(1), "op1", "closed", "close.reply_delivered"));
  EXPECT_LEGAL(result(seconds(2), "op3", "failed"));
  EXPECT_LEGAL(delivered(seconds(3), "op3", "failed"));
  EXPECT_LEGAL(delivered(seconds(3), "op4", "cancelled"));  // no stored result to compare
}

TEST_F(Creation, RefusedWritesChangeNothing) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  EXPECT_LEGAL(s.write(seconds(2), kSource, Write{.op = "reserve", .row = row(2), .outcome = "conflict",
                                                  .cause = "already_exists", .by_owner = "owner-a", .by_lease_gen = 1}));
  EXPECT_LEGAL(commit(seconds(3), 1));
}

// ---- illegal ----------------------------------------------------------------------------------

TEST_F(Creation, SecondReserveWhileTheFirstIsCreating) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  EXPECT_LEGAL(reserve(seconds(2), 2));
  expect_violation(h, commit(seconds(3), 1), "exactly-one-creation",
                   {"two Creating records at once", "actor 'player:1'", "ObjectGeneration 2", "ObjectGeneration 1",
                    "#0", "#1"});
}

TEST_F(Creation, ReserveInsideAnIntervalReportedEarlier) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  EXPECT_LEGAL(abort(seconds(3), 1));
  expect_violation(h, reserve(seconds(4), 2, store_ms(seconds(2))), "exactly-one-creation",
                   {"two Creating records at once", "ObjectGeneration 2 was reserved", "still Creating"});
}

TEST_F(Creation, FactoryRunTwiceOnOneHostRun) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  EXPECT_LEGAL(factory(seconds(1) + millis(5), 1));
  expect_violation(h, factory(seconds(2), 1), "exactly-one-creation",
                   {"ObjectGeneration 1", "factory run on host run owner-b/1 again", "#1", "did not die"});
}

TEST_F(Creation, FactoryRunOnASecondNodeWithoutACrash) {
  EXPECT_LEGAL(factory(seconds(1), 3));
  expect_violation(h, factory(seconds(2), 3, "owner-c", 2, 4), "exactly-one-creation",
                   {"ObjectGeneration 3", "again", "only a crash retry"});
}

TEST_F(Creation, FactoryRetriedAfterTheGenerationWasCommitted) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  EXPECT_LEGAL(factory(seconds(1) + millis(5), 1));
  EXPECT_LEGAL(commit(seconds(1) + millis(10), 1));
  EXPECT_LEGAL(s.kill(seconds(2), kTarget));
  expect_violation(h, factory(seconds(4), 1, "owner-c", kTarget, 7), "exactly-one-creation",
                   {"again", "committed"});
}

TEST_F(Creation, FactoryRunOnAHostRunTheRowDoesNotName) {
  EXPECT_LEGAL(reserve(seconds(1), 1));
  expect_violation(h, factory(seconds(2), 1, "owner-z", 2, 9), "exactly-one-creation",
                   {"factory run on host run owner-z/9", "names host run owner-b/1"});
}

TEST_F(Creation, ReplyDeliveredTwice) {
  EXPECT_LEGAL(delivered(seconds(1), "op1", "created"));
  expect_violation(h, delivered(seconds(2), "op1", "created"), "exactly-one-creation",
                   {"operation op1", "delivered twice", "#0"});
}

// A caller's retry of the same request is another Manager call with a reply of its own; within one
// call the request is never submitted again (§7), so a second reply there is flagged (mutant B03).
TEST_F(Creation, OneReplyPerRequestWithinEachCall) {
  const auto requested = [&](TimeUs t) {
    return s.feed(t, kSource, "creation.requested",
                  owned_fields(location::events::CreationRequested{"op1", 1, "get_or_create", "actor", "actor",
                                                                   "player:1", "Player", 0, "sim"}));
  };
  EXPECT_LEGAL(requested(seconds(1)));
  EXPECT_LEGAL(delivered(seconds(2), "op1", "cancelled"));
  EXPECT_LEGAL(requested(seconds(3)));  // the caller asks again: a new call
  EXPECT_LEGAL(delivered(seconds(4), "op1", "created"));
  expect_violation(h, delivered(seconds(5), "op1", "created"), "exactly-one-creation",
                   {"operation op1 of source host run 1 in the call begun at #2", "delivered twice"});
}

// §7 InMesh: a creation's placement picks a node of the Mesh the call asked for (planted bug
// ignore-in-mesh places in the node's own Mesh instead).
TEST_F(Creation, PlacementInAnotherMeshThanTheCallAskedFor) {
  const auto requested = [&](TimeUs t, const std::string& mesh) {
    return s.feed(t, kSource, "creation.requested",
                  owned_fields(location::events::CreationRequested{"op1", 1, "get_or_create", "actor", "actor",
                                                                   "player:1", "Player", 0, mesh}));
  };
  const auto chosen = [&](TimeUs t, const std::string& mesh) {
    return s.feed(t, kSource, "placement.chosen",
                  owned_fields(location::events::PlacementChosen{mesh, "0000000000000002", "owner-b", 1, 100, 2, 200,
                                                                 "actor", "Player"}));
  };
  EXPECT_LEGAL(requested(seconds(1), "lobby"));
  EXPECT_LEGAL(chosen(seconds(2), "lobby"));
  EXPECT_LEGAL(s.feed(seconds(3), kSource, "creation.finished",
                      owned_fields(location::events::CreationFinished{"op1", 1, "get_or_create", "actor", "player:1",
                                                                      "created", 4, 0})));
  EXPECT_LEGAL(chosen(seconds(4), "game"));  // after the call ended, the task's placements are not the call's
  const std::uint64_t call = s.next_index();
  EXPECT_LEGAL(requested(seconds(5), "lobby"));
  expect_violation(h, chosen(seconds(6), "game"), "exactly-one-creation",
                   {"a node of Mesh 'game' chosen for a creation that asked for Mesh 'lobby'", "§7 InMesh"});
  // The call is one of the violation's subjects, so the story keeps it beside the placement.
  EXPECT_TRUE(h.suite.violation()->subjects.cites(call)) << h.suite.violation()->message;
}

TEST_F(Creation, CloseReplyDeliveredTwice) {
  EXPECT_LEGAL(delivered(seconds(1), "op9", "closed", "close.reply_delivered"));
  expect_violation(h, delivered(seconds(2), "op9", "not_found", "close.reply_delivered"), "exactly-one-creation",
                   {"close reply", "delivered twice"});
}

// B12: the owner replied stale_generation; the caller must get the typed error, not 'false' (§7.2).
TEST_F(Creation, CloseAnsweredOtherwiseThanItsOwnersReply) {
  const auto finished = [&](TimeUs t_us, const std::string& op, const std::string& outcome) {
    return s.feed(t_us, kSource, "close.finished", owned_fields(location::events::CloseFinished{op, "player:1", outcome}));
  };
  EXPECT_LEGAL(delivered(seconds(1), "op7", "closed", "close.reply_delivered"));
  EXPECT_LEGAL(finished(seconds(1), "op7", "closed"));
  EXPECT_LEGAL(delivered(seconds(1), "op8", "cancelled", "close.reply_delivered"));
  EXPECT_LEGAL(finished(seconds(1), "op8", "unavailable"));
  EXPECT_LEGAL(finished(seconds(1), "op10", "not_found"));  // answered without an owner's reply
  EXPECT_LEGAL(delivered(seconds(2), "op9", "stale_generation", "close.reply_delivered"));
  expect_violation(h, finished(seconds(2), "op9", "not_found"), "exactly-one-creation",
                   {"operation op9: the owner replied 'stale_generation'", "answered 'not_found' instead of 'stale_generation'"});
}

TEST_F(Creation, FinalResultRecordedTwice) {
  EXPECT_LEGAL(result(seconds(1), "op1", "created"));
  expect_violation(h, result(seconds(2), "op1", "rejected"), "exactly-one-creation",
                   {"second final result 'rejected'", "'created'"});
}

// The request identifier holds the source host run (§7): the same OperationId from a later host
// run is another request, with its own final result and its own reply.
TEST_F(Creation, AnOperationIdReusedByALaterHostRunIsAnotherRequest) {
  EXPECT_LEGAL(result(seconds(1), "op1", "created", 3));
  EXPECT_LEGAL(delivered(seconds(1), "op1", "created", "creation.reply_delivered", 3));
  EXPECT_LEGAL(result(seconds(2), "op1", "rejected", 7));
  EXPECT_LEGAL(delivered(seconds(2), "op1", "rejected", "creation.reply_delivered", 7));
  expect_violation(h, result(seconds(3), "op1", "failed", 7), "exactly-one-creation",
                   {"operation op1 of source host run 7: a second final result 'failed'", "'rejected'"});
}

TEST_F(Creation, CallerToldSomethingElseThanTheStoredResult) {
  EXPECT_LEGAL(result(seconds(1), "op1", "rejected"));
  expect_violation(h, delivered(seconds(2), "op1", "created"), "exactly-one-creation",
                   {"told 'created'", "is 'rejected'"});
}

TEST_F(Creation, StoredResultDiffersFromWhatTheCallerWasTold) {
  EXPECT_LEGAL(delivered(seconds(1), "op1", "failed"));
  expect_violation(h, result(seconds(2), "op1", "created"), "exactly-one-creation",
                   {"stored final result is 'created'", "told 'failed'"});
}

TEST_F(Creation, MalformedFactoryEvent) {
  expect_violation(h, s.feed(seconds(1), kTarget, "creation.factory_run", {F::s("kind", "actor")}),
                   "exactly-one-creation", {"lacks field 'id'"});
}

}  // namespace
}  // namespace spotcheck::properties::testing
