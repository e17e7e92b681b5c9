// Property `creation-liveness`: once faults stop and the world settles, an uncontended GetOrCreate
// answers with the object, not a typed error.
#include <gtest/gtest.h>

#include "impl/location/events/creation_events.h"
#include "properties/checkers/creation_liveness_checker.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::seconds;

PropertyOptions settled_after_ten_seconds() {
  PropertyOptions options = test_options();
  options.creation_liveness.settle_us = seconds(10);
  return options;
}

class CreationLiveness : public ::testing::Test {
 protected:
  History h{settled_after_ten_seconds(), {"creation-liveness"}};
  Script& s = h.script;

  std::optional<std::string> stop(TimeUs t) { return s.feed(t, sim::kWorldNode, "faults.stopped", {}); }
  std::optional<std::string> requested(TimeUs t, std::int32_t node, const std::string& mode = "get_or_create",
                                       const std::string& id = "player:1") {
    return s.feed(t, node, "creation.requested",
                  owned_fields(location::events::CreationRequested{"op-" + std::to_string(node), 1, mode, "actor",
                                                                   "actor", id, "Player", 0, "sim"}));
  }
  std::optional<std::string> finished(TimeUs t, std::int32_t node, const std::string& outcome,
                                      const std::string& mode = "get_or_create") {
    return s.feed(t, node, "creation.finished",
                  owned_fields(location::events::CreationFinished{"op-" + std::to_string(node), 1, mode, "actor",
                                                                  "player:1", outcome, 0, 0}));
  }
  std::optional<std::string> close_requested(TimeUs t, std::int32_t node) {
    return s.feed(t, node, "close.requested",
                  owned_fields(location::events::CloseRequested{"op-c", "actor", "player:1", 1}));
  }
  std::optional<std::string> close_finished(TimeUs t, std::int32_t node) {
    return s.feed(t, node, "close.finished", owned_fields(location::events::CloseFinished{"op-c", "player:1", "closed"}));
  }
};

TEST_F(CreationLiveness, AnUncontendedGetOrCreateInASettledWorldGetsTheObject) {
  EXPECT_LEGAL(stop(seconds(40)));
  int node = 0;
  for (const char* outcome : {"existing", "created", "rejected", "failed"}) {
    EXPECT_LEGAL(requested(seconds(50 + node), node));
    EXPECT_LEGAL(finished(seconds(50 + node) + 1000, node, outcome));
    ++node;
  }
}

TEST_F(CreationLiveness, ATypedErrorForAnUncontendedGetOrCreateIsFlagged) {
  EXPECT_LEGAL(stop(seconds(40)));
  EXPECT_LEGAL(requested(seconds(50), 2));
  expect_violation(h, finished(seconds(55), 2, "deadline_exceeded"), "creation-liveness",
                   {"GetOrCreate of player:1 (operation op-2", "answered 'deadline_exceeded'",
                    "began 10000 ms after faults stopped", "no other call of that ID ran during it"});
}

TEST_F(CreationLiveness, CallsBeforeTheWorldSettledAreNotJudged) {
  EXPECT_LEGAL(requested(seconds(10), 0));
  EXPECT_LEGAL(finished(seconds(15), 0, "unavailable"));  // faults still on
  EXPECT_LEGAL(stop(seconds(40)));
  EXPECT_LEGAL(requested(seconds(49), 1));  // 9 s after: not settled yet
  EXPECT_LEGAL(finished(seconds(54), 1, "deadline_exceeded"));
}

TEST_F(CreationLiveness, AGetOrCreateWithACompetitorIsNotJudged) {
  EXPECT_LEGAL(stop(seconds(40)));
  EXPECT_LEGAL(requested(seconds(50), 0));
  EXPECT_LEGAL(requested(seconds(51), 1));  // another node's call of the same ID
  EXPECT_LEGAL(finished(seconds(52), 1, "existing"));
  EXPECT_LEGAL(finished(seconds(55), 0, "deadline_exceeded"));
  // A Destroy of the ID during the call competes too.
  EXPECT_LEGAL(requested(seconds(60), 2));
  EXPECT_LEGAL(close_requested(seconds(60) + 10, 3));
  EXPECT_LEGAL(close_finished(seconds(61), 3));
  EXPECT_LEGAL(finished(seconds(65), 2, "unavailable"));
}

TEST_F(CreationLiveness, ACallOfAnotherIdIsNoCompetitor) {
  EXPECT_LEGAL(stop(seconds(40)));
  EXPECT_LEGAL(requested(seconds(50), 0));
  EXPECT_LEGAL(requested(seconds(50), 1, "get_or_create", "player:2"));
  expect_violation(h, finished(seconds(55), 0, "unavailable"), "creation-liveness", {"answered 'unavailable'"});
}

TEST_F(CreationLiveness, CreateIsNotJudgedAndADeadHostRunsCallIsForgotten) {
  EXPECT_LEGAL(stop(seconds(40)));
  EXPECT_LEGAL(requested(seconds(50), 0, "create"));
  EXPECT_LEGAL(finished(seconds(51), 0, "already_exists", "create"));
  EXPECT_LEGAL(requested(seconds(52), 1));
  EXPECT_LEGAL(s.feed(seconds(53), 1, "kill", {F::n("run", 1)}));
  EXPECT_LEGAL(requested(seconds(54), 0));  // node 1's call died with its host run: no competitor
  expect_violation(h, finished(seconds(59), 0, "deadline_exceeded"), "creation-liveness", {"GetOrCreate of player:1"});
}

TEST(CreationLivenessOff, WithoutASettleTimeNothingIsJudged) {
  History h{"creation-liveness"};
  EXPECT_LEGAL(h.script.feed(seconds(40), sim::kWorldNode, "faults.stopped", {}));
  EXPECT_LEGAL(h.script.feed(seconds(60), 0, "creation.requested",
                             owned_fields(location::events::CreationRequested{"op", 1, "get_or_create", "actor", "actor",
                                                                              "player:1", "Player", 0, "sim"})));
  EXPECT_LEGAL(h.script.feed(seconds(65), 0, "creation.finished",
                             owned_fields(location::events::CreationFinished{"op", 1, "get_or_create", "actor",
                                                                             "player:1", "deadline_exceeded", 0, 0})));
}

}  // namespace
}  // namespace spotcheck::properties::testing
