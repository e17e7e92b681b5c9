// Property `single-owner`: flagged histories name the object, both host runs and the facts.
#include <gtest/gtest.h>

#include "impl/location/events/creation_events.h"
#include "impl/location/events/instance_events.h"
#include "impl/location/events/lease_events.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::millis;
using platform::seconds;

class SingleOwner : public ::testing::Test {
 protected:
  History h{"single-owner"};
  Script& s = h.script;
  Row x;

  void SetUp() override {
    EXPECT_LEGAL(s.registered(0, 0, "owner-a", 1, store_ms(seconds(15))));
    EXPECT_LEGAL(s.registered(0, 1, "owner-b", 2, store_ms(seconds(15))));
    x.state = "reserved";
    EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
    x.state = "active";
    EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "commit", .row = x}));
  }
};

// B15: §5's relation is strict; a host run whose renew interval + renew timeout equals the owner
// lease TTL - fencing margin must not start, and one that keeps the relation is not refused for it.
TEST_F(SingleOwner, AHostStartedWithTheTimingAtTheBoundaryIsFlagged) {
  const auto checked = [&](std::int64_t accepted, const std::string& reason, std::int64_t timeout_us) {
    return s.feed(seconds(2), 2, "lease.startup_checked",
                  owned_fields(location::events::LeaseStartupChecked{accepted, reason, seconds(5), timeout_us,
                                                                     seconds(15), seconds(5)}));
  };
  EXPECT_LEGAL(checked(1, "", seconds(5) - 1'000));            // 9.999 s < 10 s: starts
  EXPECT_LEGAL(checked(0, "timing_relation", seconds(5)));     // 10 s: refused
  EXPECT_LEGAL(checked(0, "not_positive", seconds(5) - 1'000));  // refused for another reason
  expect_violation(h, checked(1, "", seconds(5)), "single-owner",
                   {"a host run started with renew interval 5000000 us + renew timeout 5000000 us",
                    "breaks renew interval + renew timeout < TTL - fencing margin"});
}

TEST_F(SingleOwner, AHostRefusedForATimingThatKeepsTheRuleIsFlagged) {
  expect_violation(h,
                   s.feed(seconds(2), 2, "lease.startup_checked",
                          owned_fields(location::events::LeaseStartupChecked{0, "timing_relation", seconds(5),
                                                                             seconds(4), seconds(15), seconds(5)})),
                   "single-owner", {"was refused for its timing", "keeps the §5 rule"});
}

TEST_F(SingleOwner, PreviousOwnerWorksAfterTheOwnerChange) {
  // A's lease was extended, yet B took X over (a planted bug elsewhere): A keeps working.
  EXPECT_LEGAL(s.renewed(seconds(5), 0, "owner-a", 1, store_ms(seconds(60))));
  EXPECT_LEGAL(s.renewed(seconds(5), 1, "owner-b", 2, store_ms(seconds(60))));
  EXPECT_LEGAL(s.write(seconds(10), 1, new_owner(x, "owner-b", 2, "00b1")));
  expect_violation(h, s.work(seconds(11), 0, x), "single-owner",
                   {"host run owner-a/1", "actor 'player:1'", "AuthorityOwnerGeneration 1", "after its authority ended",
                    "two host runs accepted work"});
}

TEST_F(SingleOwner, OwnerChangeReportedAfterThePreviousOwnersLateWorkIsStillCaught) {
  EXPECT_LEGAL(s.renewed(seconds(5), 0, "owner-a", 1, store_ms(seconds(60))));
  EXPECT_LEGAL(s.renewed(seconds(5), 1, "owner-b", 2, store_ms(seconds(60))));
  EXPECT_LEGAL(s.work(seconds(11), 0, x));  // the NewOwner applied at 10 s, its reply arrives at 12 s
  Write takeover = new_owner(x, "owner-b", 2, "00b1");
  takeover.store_now_ms = store_ms(seconds(10));
  expect_violation(h, s.write(seconds(12), 1, takeover), "single-owner", {"after its authority ended"});
}

TEST_F(SingleOwner, TwoHostRunsWorkOnOneEpoch) {
  EXPECT_LEGAL(s.work(seconds(2), 0, x));
  Row claimed = x;
  claimed.owner = "owner-b";
  claimed.lease_gen = 2;
  expect_violation(h, s.work(seconds(3), 1, claimed), "single-owner",
                   {"host run owner-b/2 ran the handler", "which host run owner-a/1 owns", "two host runs accept work"});
}

TEST_F(SingleOwner, WorkAfterTheLeaseExpired) {
  expect_violation(h, s.work(seconds(16), 0, x), "single-owner",
                   {"host run owner-a/1", "latest ExpiresAt", "admission deadline must close first"});
}

TEST_F(SingleOwner, WorkAfterTheLeaseWasLost) {
  EXPECT_LEGAL(s.lost(seconds(2), 0, "owner-a", 1));
  expect_violation(h, s.work(seconds(3), 0, x), "single-owner", {"after its owner lease was lost (#"});
}

TEST_F(SingleOwner, WorkPastTheLocalAdmissionDeadline) {
  expect_violation(h,
                   s.feed(seconds(3), 0, "object.work",
                          {F::s("id", x.id), F::s("owner", x.owner), F::n("lease_gen", 1), F::n("object_gen", 1),
                           F::n("owner_gen", 1), F::n("now_us", 9'000'000), F::n("deadline_us", 8'000'000)}),
                   "single-owner", {"not before its admission deadline 8000000us"});
}

// The §5 bound: a lease adopted at 0 s with ExpiresAt 15 s (StoreNow 0 s, margin 1 s) allows
// admission deadlines up to 14 s on the node's clock.
TEST_F(SingleOwner, AdoptedDeadlinePastTheBoundTheObservationsAllow) {
  EXPECT_LEGAL(s.registered(seconds(1), 2, "owner-c", 3, store_ms(seconds(16)), seconds(15)));
  expect_violation(h, s.registered(seconds(1), 3, "owner-d", 4, store_ms(seconds(16)), seconds(15) + 1), "single-owner",
                   {"host run owner-d/4 adopted the admission deadline 15000001us", "allow, 15000000us",
                    "- fencing margin"});
}

TEST_F(SingleOwner, ALaterObservationRaisesTheBound) {
  // Renewed at 5 s to ExpiresAt 30 s: the bound is 29 s, and work under a deadline of 28 s is fine.
  EXPECT_LEGAL(s.renewed(seconds(5), 0, "owner-a", 1, store_ms(seconds(30))));
  EXPECT_LEGAL(s.feed(seconds(6), 0, "object.work",
                      {F::s("id", x.id), F::s("owner", x.owner), F::n("lease_gen", 1), F::n("object_gen", 1),
                       F::n("owner_gen", 1), F::n("now_us", seconds(6)), F::n("deadline_us", seconds(28))}));
}

TEST_F(SingleOwner, WorkUnderADeadlinePastTheBound) {
  // The handler reports a deadline of 14.5 s, but the lease observations allow only 14 s.
  expect_violation(h,
                   s.feed(seconds(3), 0, "object.work",
                          {F::s("id", x.id), F::s("owner", x.owner), F::n("lease_gen", 1), F::n("object_gen", 1),
                           F::n("owner_gen", 1), F::n("now_us", seconds(3)), F::n("deadline_us", millis(14'500))}),
                   "single-owner", {"under an admission deadline of 14500000us", "allow, 14000000us"});
}

TEST_F(SingleOwner, ALeaseEventWithoutAPositiveFencingMargin) {
  expect_violation(h,
                   s.feed(seconds(1), 3, "lease.registered",
                          owned_fields(location::events::LeaseAdopted{"owner-d", 4, store_ms(seconds(16)),
                                                                      store_ms(seconds(1)), seconds(10), 1, 0,
                                                                      seconds(1), /*margin_us=*/0})),
                   "single-owner", {"fencing margin of 0us", "must be positive"});
}

TEST_F(SingleOwner, ALeaseEventWithoutAnOwnerIsReportedNotACrash) {
  expect_violation(h,
                   s.feed(seconds(1), 3, "lease.renewed",
                          owned_fields(location::events::LeaseAdopted{"", 4, store_ms(seconds(16)), store_ms(seconds(1)),
                                                                      seconds(10), 1, 0, seconds(1), seconds(1)})),
                   "single-owner", {"lease.renewed names no owner"});
}

TEST_F(SingleOwner, FactoryRunPastTheAdmissionDeadline) {
  const auto factory_run = [&](TimeUs t_us, std::int64_t now_us, std::int64_t deadline_us) {
    return s.feed(t_us, 0, "creation.factory_run",
                  owned_fields(location::events::CreationFactoryRun{"actor", "player:7", 3, "Player", "0a", "owner-a",
                                                                    1, "op-1", now_us, deadline_us}));
  };
  EXPECT_LEGAL(factory_run(seconds(2), seconds(2), seconds(14)));
  expect_violation(h, factory_run(seconds(3), seconds(3), millis(2'500)), "single-owner",
                   {"creation.factory_run: host run owner-a/1 ran the factory of player:7 (ObjectGeneration 3)",
                    "not before its admission deadline 2500000us"});
}

TEST_F(SingleOwner, InstanceFactoryRunAfterTheLeaseWasLost) {
  EXPECT_LEGAL(s.lost(seconds(2), 0, "owner-a", 1));
  expect_violation(h,
                   s.feed(seconds(3), 0, "instance.factory_run",
                          owned_fields(location::events::InstanceFactoryRun{"room:1", 2, "Room", "0a", "owner-a", 1,
                                                                            "op-2", seconds(3), seconds(14)})),
                   "single-owner", {"ran the factory of Instance Spot room:1", "after its owner lease was lost"});
}

TEST_F(SingleOwner, InstanceMessageRunPastTheDeadlineButNotTheFirstMessage) {
  const auto run = [&](const std::string& kind, std::int64_t now_us) {
    return s.feed(seconds(3), 0, kind,
                  owned_fields(location::events::InstanceMessageRun{"room:1", "op-3", 2, "0a", "0b", "owner-b", 2,
                                                                    "owner-a", 1, now_us, seconds(2)}));
  };
  // The first message was accepted with its factory run: work already accepted may finish (§5).
  EXPECT_LEGAL(run("instance.first_message_run", seconds(3)));
  expect_violation(h, run("instance.message_run", seconds(3)), "single-owner",
                   {"instance.message_run: host run owner-a/1 ran message op-3 on Instance Spot room:1",
                    "not before its admission deadline 2000000us"});
}

TEST_F(SingleOwner, WorkWithoutARegisteredLease) {
  Row other = x;
  other.owner = "owner-z";
  other.lease_gen = 9;
  expect_violation(h, s.work(seconds(3), 3, other), "single-owner", {"host run owner-z/9", "without a registered owner lease"});
}

TEST_F(SingleOwner, CommitByAHostRunThatDoesNotOwnTheRow) {
  Row y;
  y.id = "player:2";
  y.object_gen = 2;
  y.state = "reserved";
  EXPECT_LEGAL(s.write(seconds(2), 0, Write{.op = "reserve", .row = y}));
  y.state = "active";
  expect_violation(h, s.write(seconds(3), 1, Write{.op = "commit", .row = y, .by_owner = "owner-b", .by_lease_gen = 2}),
                   "single-owner", {"host run owner-b/2 Commit actor 'player:2'", "while host run owner-a/1 owns it"});
}

TEST_F(SingleOwner, WorkBeforeTheEpochBecameActive) {
  // B works on epoch 2 at 9 s; the NewOwner that creates epoch 2 applied only at 10 s.
  Write takeover = new_owner(x, "owner-b", 2, "00b1");
  EXPECT_LEGAL(s.renewed(seconds(5), 1, "owner-b", 2, store_ms(seconds(60))));
  EXPECT_LEGAL(s.work(seconds(9), 1, takeover.row));
  expect_violation(h, s.write(seconds(10), 1, takeover), "single-owner", {"before its authority became Active"});
}

TEST_F(SingleOwner, KilledOwnersSuccessorTakesOverAfterExpiry) {
  EXPECT_LEGAL(s.work(seconds(2), 0, x));
  EXPECT_LEGAL(s.kill(seconds(3), 0));
  EXPECT_LEGAL(s.start(seconds(4), 0));
  EXPECT_LEGAL(s.registered(seconds(4), 0, "owner-c", 3, store_ms(seconds(19))));
  EXPECT_LEGAL(s.renewed(seconds(10), 0, "owner-c", 3, store_ms(seconds(25))));
  Write takeover = new_owner(x, "owner-c", 3, "00a1");
  EXPECT_LEGAL(s.write(seconds(16), 0, takeover));
  EXPECT_LEGAL(s.work(seconds(17), 0, takeover.row));
  EXPECT_LEGAL(s.write(seconds(17), 0, Write{.op = "preserve", .row = takeover.row}));
}

}  // namespace
}  // namespace spotcheck::properties::testing
