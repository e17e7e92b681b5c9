// Property `capacity` online: every applied write's counter changes are reported, on the right
// node, and nothing else changes a counter.
#include <gtest/gtest.h>

#include "properties/checkers/capacity_checker.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::seconds;

class Capacity : public ::testing::Test {
 protected:
  History h{"capacity"};
  Script& s = h.script;
  Row x;

  void SetUp() override { x.state = "reserved"; }
};

TEST_F(Capacity, ReserveWithoutItsCounterChange) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
  expect_violation(h, s.work(seconds(1), 0, x), "capacity",
                   {"Reserve", "actor 'player:1'", "no capacity.changed reported actors on sim/00a1 +1"});
}

TEST_F(Capacity, CounterChangeAfterARefusedWrite) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = x, .outcome = "capacity_full"}));
  expect_violation(h, s.capacity(seconds(1), 0, "sim", "00a1", "actors", 1, 1), "capacity",
                   {"capacity.changed actors on sim/00a1 delta 1", "no applied authority write"});
}

TEST_F(Capacity, CounterChangeOnTheWrongNode) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
  expect_violation(h, s.capacity(seconds(1), 0, "sim", "00b1", "actors", 1, 1), "capacity",
                   {"actors on sim/00b1", "implies no such change"});
}

TEST_F(Capacity, SpotNeedsItsTypeSlotToo) {
  Row spot = x;
  spot.kind = "spot";
  spot.id = "room:1";
  spot.object_kind = "instanceSpot";
  spot.stable_type = "Room";
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = spot}));
  EXPECT_LEGAL(s.capacity(seconds(1), 0, "sim", "00a1", "spots", 1, 1));
  expect_violation(h, s.work(seconds(1), 0, spot), "capacity",
                   {"spot 'room:1'", "spot-type(instanceSpot/Room) on sim/00a1 +1"});
}

TEST_F(Capacity, CounterBelowTheSlotsJustSecured) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
  expect_violation(h, s.capacity(seconds(1), 0, "sim", "00a1", "actors", 1, 0), "capacity",
                   {"holds at least that many"});
}

// The limits the scenario's nodes publish (PropertyOptions::capacity): the store's answer to a
// secure may reach the limit, never pass it; 0 is no limit.
PropertyOptions with_actor_limit(std::uint32_t limit) {
  PropertyOptions options = test_options();
  options.capacity.actors = limit;
  return options;
}

TEST(CapacityLimit, ASecureThatPassesTheNodesLimit) {
  History h(with_actor_limit(1), {"capacity"});
  Row x;
  x.state = "reserved";
  EXPECT_LEGAL(h.script.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
  EXPECT_LEGAL(h.script.capacity(seconds(1), 0, "sim", "00a1", "actors", 1, 1));  // at the limit: fine
  Row y = x;
  y.id = "player:2";
  EXPECT_LEGAL(h.script.write(seconds(2), 0, Write{.op = "reserve", .row = y}));
  expect_violation(h, h.script.capacity(seconds(2), 0, "sim", "00a1", "actors", 1, 2), "capacity",
                   {"actors on sim/00a1 delta 1 value 2", "Reserve", "past the node's limit of 1"});
}

TEST(CapacityLimit, NoLimitAndASpotTypeLimit) {
  {
    History h(with_actor_limit(0), {"capacity"});  // 0: unlimited
    Row x;
    x.state = "reserved";
    EXPECT_LEGAL(h.script.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
    EXPECT_LEGAL(h.script.capacity(seconds(1), 0, "sim", "00a1", "actors", 1, 1'000'000));
  }
  PropertyOptions options = test_options();
  options.capacity.spot_types["instanceSpot/Room"] = 1;
  History h(options, {"capacity"});
  Row spot;
  spot.state = "reserved";
  spot.kind = "spot";
  spot.id = "room:1";
  spot.object_kind = "instanceSpot";
  spot.stable_type = "Room";
  EXPECT_LEGAL(h.script.write(seconds(1), 0, Write{.op = "reserve", .row = spot}));
  EXPECT_LEGAL(h.script.capacity(seconds(1), 0, "sim", "00a1", "spots", 1, 5));  // spots: no limit
  expect_violation(h, h.script.capacity(seconds(1), 0, "sim", "00a1", "spot-type", 1, 2, "instanceSpot", "Room"),
                   "capacity", {"spot-type(instanceSpot/Room) on sim/00a1", "past the node's limit of 1"});
}

TEST_F(Capacity, CapacityReleasedWhereItWasNotSecured) {
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "reserve", .row = x}));
  x.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "commit", .row = x}));
  Row elsewhere = x;
  elsewhere.rid = "00c1";
  expect_violation(h, s.write_with_capacity(seconds(2), 0, Write{.op = "delete", .row = elsewhere}), "capacity",
                   {"placed on sim/00c1 here but on sim/00a1", "released where it was not secured"});
}

TEST_F(Capacity, NewOwnerFromTheWrongPreviousNode) {
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "reserve", .row = x}));
  x.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "commit", .row = x}));
  Write moved = new_owner(x, "owner-b", 2, "00b1");
  moved.prev_rid = "00c1";
  expect_violation(h, s.write_with_capacity(seconds(20), 1, moved), "capacity", {"placed on sim/00c1 here but on sim/00a1"});
}

TEST_F(Capacity, NewOwnerOnTheSameNodeMovesNothing) {
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "reserve", .row = x}));
  x.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "commit", .row = x}));
  EXPECT_LEGAL(s.write_with_capacity(seconds(20), 1, new_owner(x, "owner-b", 2, "00a1")));
  EXPECT_FALSE(h.suite.finish(RunEnd{seconds(21), s.next_index()}).has_value());
}

TEST_F(Capacity, MissingChangeAtTheEndOfTheRun) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
  const std::optional<PropertyViolation> violation = h.suite.finish(RunEnd{seconds(2), s.next_index()});
  ASSERT_TRUE(violation.has_value());
  EXPECT_EQ(violation->property, "capacity");
  EXPECT_EQ(violation->event_index, s.next_index());
  EXPECT_NE(violation->message.find("at the end of the run"), std::string::npos) << violation->message;
}

TEST_F(Capacity, TotalsFollowTheWrites) {
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "reserve", .row = x}));
  Row y = x;
  y.id = "player:2";
  y.object_gen = 2;
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "reserve", .row = y}));
  EXPECT_LEGAL(s.write_with_capacity(seconds(2), 0, Write{.op = "abort", .row = y}));
  const auto* checker = dynamic_cast<const CapacityChecker*>(h.suite.find("capacity"));
  ASSERT_NE(checker, nullptr);
  const std::string sep(1, '\0');
  EXPECT_EQ(checker->expected_totals().at("capacity" + sep + "sim" + sep + "00a1" + sep + "actors"), 1);
  EXPECT_EQ(checker->reported_totals(), checker->expected_totals());
}

}  // namespace
}  // namespace spotcheck::properties::testing
