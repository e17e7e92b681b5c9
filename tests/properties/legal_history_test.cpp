// Legal histories must pass every property: owner changes after lease expiry, kills and
// restarts, re-creation of an ID, replies reported out of store order, writes resolved by
// re-read, refused and indeterminate operations, and the liveness phase.
#include <gtest/gtest.h>

#include "properties/checkers/capacity_checker.h"
#include "properties/checkers/liveness_checker.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::millis;
using platform::seconds;

constexpr std::int32_t kNode0 = 0;
constexpr std::int32_t kNode1 = 1;

Row row_x_of_a() {
  Row row;
  row.id = "player:1";
  row.object_gen = 1;
  row.owner = "owner-a";
  row.lease_gen = 1;
  row.rid = "00a1";
  return row;
}

TEST(LegalHistory, TakeoverAfterExpiryKillsRestartsAndRecreationPassEveryProperty) {
  History h;
  Script& s = h.script;
  // Two host runs register; A renews once, then its process dies.
  EXPECT_LEGAL(s.registered(0, kNode0, "owner-a", 1, store_ms(seconds(15))));
  EXPECT_LEGAL(s.registered(millis(100), kNode1, "owner-b", 2, store_ms(seconds(15) + millis(100))));

  Row x = row_x_of_a();
  x.state = "reserved";
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), kNode0, Write{.op = "reserve", .row = x}));
  x.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(millis(1'100), kNode0, Write{.op = "commit", .row = x}));
  EXPECT_LEGAL(s.work(seconds(2), kNode0, x));
  EXPECT_LEGAL(s.write_with_capacity(seconds(2), kNode0, Write{.op = "preserve", .row = x}));

  // B creates Y, a Spot, on its own node.
  Row y;
  y.id = "room:7";
  y.kind = "spot";
  y.object_kind = "userSpot";
  y.stable_type = "Room";
  y.object_gen = 2;
  y.owner = "owner-b";
  y.lease_gen = 2;
  y.rid = "00b1";
  y.state = "reserved";
  EXPECT_LEGAL(s.write_with_capacity(seconds(3), kNode1, Write{.op = "reserve", .row = y}));
  y.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(seconds(3), kNode1, Write{.op = "commit", .row = y}));

  // Refused and indeterminate operations change nothing the checkers rely on.
  Write refused{.op = "reserve", .row = x, .outcome = "conflict", .cause = "already_exists"};
  refused.row.owner = "owner-b";
  refused.row.lease_gen = 2;
  refused.row.object_gen = 0;
  EXPECT_LEGAL(s.write_with_capacity(seconds(4), kNode1, refused));
  EXPECT_LEGAL(s.write_with_capacity(seconds(4), kNode0, Write{.op = "preserve", .row = x, .outcome = "indeterminate"}));

  EXPECT_LEGAL(s.renewed(seconds(5), kNode0, "owner-a", 1, store_ms(seconds(20))));
  EXPECT_LEGAL(s.kill(seconds(6), kNode0));
  EXPECT_LEGAL(s.renewed(seconds(10), kNode1, "owner-b", 2, store_ms(seconds(25))));
  EXPECT_LEGAL(s.renewed(seconds(20), kNode1, "owner-b", 2, store_ms(seconds(35))));

  // A's lease ended at 20 s of store time: B takes X over at 21 s (its node, capacity moves).
  Write takeover = new_owner(x, "owner-b", 2, "00b1");
  EXPECT_LEGAL(s.write_with_capacity(seconds(21), kNode1, takeover));
  Row x_of_b = takeover.row;
  EXPECT_LEGAL(s.work(seconds(22), kNode1, x_of_b));
  // A Preserve of Y whose reply was lost, established by a re-read after the fact.
  EXPECT_LEGAL(s.write_with_capacity(seconds(22), kNode1,
                                     Write{.op = "preserve", .row = y, .store_now_ms = store_ms(seconds(22)), .resolved = true}));
  EXPECT_LEGAL(s.write_with_capacity(seconds(23), kNode1, Write{.op = "delete", .row = x_of_b}));

  // Node 0 comes back as a new host run and re-creates X under a new ObjectGeneration.
  EXPECT_LEGAL(s.start(seconds(24), kNode0));
  EXPECT_LEGAL(s.registered(seconds(24), kNode0, "owner-c", 3, store_ms(seconds(39))));
  Row x2 = row_x_of_a();
  x2.object_gen = 3;
  x2.owner = "owner-c";
  x2.lease_gen = 3;
  x2.state = "reserved";
  EXPECT_LEGAL(s.write_with_capacity(seconds(25), kNode0, Write{.op = "reserve", .row = x2}));
  x2.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(seconds(25), kNode0, Write{.op = "commit", .row = x2}));
  EXPECT_LEGAL(s.work(seconds(26), kNode0, x2));

  // Liveness phase: a request after faults stop ends in time.
  EXPECT_LEGAL(s.feed(seconds(30), sim::kWorldNode, "faults.stopped", {}));
  EXPECT_LEGAL(s.feed(seconds(31), kNode1, "request.start",
                      {F::s("owner", "owner-b"), F::n("request", 1), F::n("deadline_us", seconds(41)),
                       F::n("now_us", seconds(31))}));
  EXPECT_LEGAL(s.feed(seconds(32), kNode1, "request.end",
                      {F::s("owner", "owner-b"), F::n("request", 1), F::s("outcome", "used"), F::n("late", 0)}));

  EXPECT_FALSE(h.suite.finish(RunEnd{seconds(45), s.next_index()}).has_value());
  EXPECT_FALSE(h.suite.violation().has_value());

  auto* capacity = dynamic_cast<CapacityChecker*>(h.suite.find("capacity"));
  ASSERT_NE(capacity, nullptr);
  EXPECT_EQ(capacity->reported_totals(), capacity->expected_totals());
  // X moved away from 00a1 and was deleted on 00b1; Y (a Spot) and X's re-creation remain.
  const std::string sep(1, '\0');
  EXPECT_EQ(capacity->expected_totals().at("capacity" + sep + "sim" + sep + "00a1" + sep + "actors"), 1);
  EXPECT_EQ(capacity->expected_totals().at("capacity" + sep + "sim" + sep + "00b1" + sep + "actors"), 0);
  EXPECT_EQ(capacity->expected_totals().at("capacity" + sep + "sim" + sep + "00b1" + sep + "spots"), 1);
  EXPECT_EQ(h.suite.events_seen(), s.next_index());
}

TEST(LegalHistory, RepliesReportedOutOfStoreOrderAreJudgedByStoreTime) {
  History h;
  Script& s = h.script;
  EXPECT_LEGAL(s.registered(0, 0, "owner-a", 1, store_ms(seconds(15))));
  EXPECT_LEGAL(s.registered(0, 1, "owner-b", 2, store_ms(seconds(15))));
  // Reserve of ObjectGeneration 5 applied at 1.0 s but its reply came late; 6 applied at 1.2 s
  // and was reported first.
  Row a;
  a.id = "a";
  a.object_gen = 6;
  a.owner = "owner-b";
  a.lease_gen = 2;
  a.state = "reserved";
  a.rid = "00b1";
  EXPECT_LEGAL(s.write_with_capacity(millis(1'300), 1, Write{.op = "reserve", .row = a, .store_now_ms = store_ms(millis(1'200))}));
  Row b;
  b.id = "b";
  b.object_gen = 5;
  b.state = "reserved";
  EXPECT_LEGAL(s.write_with_capacity(millis(1'400), 0, Write{.op = "reserve", .row = b, .store_now_ms = store_ms(millis(1'000))}));
  // Owner epochs too: B's NewOwner of an object (applied later) is reported before A's last
  // Preserve (applied earlier) of the same epoch.
  b.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(seconds(2), 0, Write{.op = "commit", .row = b}));
  EXPECT_LEGAL(s.renewed(seconds(3), 1, "owner-b", 2, store_ms(seconds(40))));
  Write takeover = new_owner(b, "owner-b", 2, "00b1");
  EXPECT_LEGAL(s.write_with_capacity(seconds(17), 1, Write(takeover)));
  EXPECT_LEGAL(s.write_with_capacity(seconds(17), 0, Write{.op = "preserve", .row = b, .store_now_ms = store_ms(seconds(14))}));
  EXPECT_FALSE(h.suite.finish(RunEnd{seconds(20), s.next_index()}).has_value());
}

TEST(LegalHistory, ADeleteResolvedByReReadAfterAnotherPathRemovedTheRowIsNotCounted) {
  // The §10 re-read of a Delete sees the row gone and reports applied (resolved=1), although a
  // NewOwner + Delete of another host run removed it: only upper bounds are known, no alarm.
  History h;
  Script& s = h.script;
  EXPECT_LEGAL(s.registered(0, 0, "owner-a", 1, store_ms(seconds(15))));
  EXPECT_LEGAL(s.registered(0, 1, "owner-b", 2, store_ms(seconds(60))));
  Row x = row_x_of_a();
  x.state = "reserved";
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "reserve", .row = x}));
  x.state = "active";
  EXPECT_LEGAL(s.write_with_capacity(seconds(1), 0, Write{.op = "commit", .row = x}));
  Write takeover = new_owner(x, "owner-b", 2, "00a1");
  EXPECT_LEGAL(s.write_with_capacity(seconds(16), 1, takeover));
  EXPECT_LEGAL(s.write_with_capacity(seconds(17), 1, Write{.op = "delete", .row = takeover.row}));
  EXPECT_LEGAL(s.write_with_capacity(seconds(18), 0,
                                     Write{.op = "delete", .row = x, .store_now_ms = store_ms(seconds(18)), .resolved = true}));
  EXPECT_FALSE(h.suite.finish(RunEnd{seconds(20), s.next_index()}).has_value());
}

}  // namespace
}  // namespace spotcheck::properties::testing
