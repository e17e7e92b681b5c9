// Property `fencing`: writes on behalf of expired, lost or superseded leases are flagged; writes
// established by a re-read after the fact are not.
#include <gtest/gtest.h>

#include "impl/location/events/lease_events.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::millis;
using platform::seconds;

class Fencing : public ::testing::Test {
 protected:
  History h{"fencing"};
  Script& s = h.script;
  Row x;

  void SetUp() override {
    EXPECT_LEGAL(s.registered(0, 0, "owner-a", 1, store_ms(seconds(15))));
    EXPECT_LEGAL(s.registered(0, 1, "owner-b", 2, store_ms(seconds(60))));
    x.state = "reserved";
    EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = x}));
    x.state = "active";
    EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "commit", .row = x}));
  }
};

TEST_F(Fencing, WriteAppliedAfterTheLeaseExpired) {
  // Paused after its admission check, the node's Preserve reaches the store at 16 s.
  expect_violation(h, s.write(seconds(16), 0, Write{.op = "preserve", .row = x}), "fencing",
                   {"Preserve", "actor 'player:1'", "on behalf of host run owner-a/1", "expired at", "spec §5"});
}

TEST_F(Fencing, WriteSentPastTheAdmissionDeadlineThoughItAppliedInTime) {
  // owner-a's lease (adopted at 0 s, ExpiresAt 15 s, margin 1 s) allows admission until 14 s. A
  // Preserve sent at 14.2 s lands at 14.5 s, before ExpiresAt: the store took it, §5 did not allow it.
  EXPECT_LEGAL(s.write(millis(13'900), 0, Write{.op = "preserve", .row = x, .sent_us = millis(13'800)}));
  expect_violation(h, s.write(millis(14'500), 0, Write{.op = "preserve", .row = x, .sent_us = millis(14'200)}),
                   "fencing",
                   {"sent by host run owner-a/1 at local time 14200000us", "allow, 14000000us",
                    "expired owner eligibility"});
}

TEST_F(Fencing, WriteResolvedByReReadIsJudgedByItsSendTime) {
  expect_violation(h,
                   s.write(seconds(16), 0, Write{.op = "preserve", .row = x, .resolved = true, .sent_us = seconds(15)}),
                   "fencing", {"at local time 15000000us"});
}

TEST_F(Fencing, WriteResolvedByReReadAfterExpiryIsNotJudged) {
  // The reply was lost; the re-read at 16 s found the write, which applied at some earlier instant.
  EXPECT_LEGAL(s.write(seconds(16), 0, Write{.op = "preserve", .row = x, .resolved = true}));
}

TEST_F(Fencing, RenewalMovesTheExpiry) {
  EXPECT_LEGAL(s.renewed(seconds(5), 0, "owner-a", 1, store_ms(seconds(20))));
  EXPECT_LEGAL(s.write(seconds(16), 0, Write{.op = "preserve", .row = x}));
}

TEST_F(Fencing, WriteAppliedAfterTheLeaseWasLost) {
  EXPECT_LEGAL(s.lost(seconds(5), 0, "owner-a", 1));
  expect_violation(h, s.write(seconds(6), 0, Write{.op = "preserve", .row = x}), "fencing", {"was lost at"});
}

TEST_F(Fencing, WriteOfASupersededOwner) {
  EXPECT_LEGAL(s.renewed(seconds(5), 0, "owner-a", 1, store_ms(seconds(60))));
  EXPECT_LEGAL(s.write(seconds(10), 1, new_owner(x, "owner-b", 2, "00b1")));
  expect_violation(h, s.write(seconds(11), 0, Write{.op = "preserve", .row = x}), "fencing",
                   {"a write on actor 'player:1' (ObjectGeneration 1, AuthorityOwnerGeneration 1)", "after the row was superseded"});
}

TEST_F(Fencing, TwoWritesEndingOneEpoch) {
  EXPECT_LEGAL(s.renewed(seconds(5), 0, "owner-a", 1, store_ms(seconds(60))));
  EXPECT_LEGAL(s.write(seconds(10), 0, Write{.op = "delete", .row = x}));
  expect_violation(h, s.write(seconds(10), 1, new_owner(x, "owner-b", 2, "00b1")), "fencing",
                   {"was already ended by #", "superseded row"});
}

TEST_F(Fencing, CommitAndAbortOfOneReservation) {
  Row y;
  y.id = "player:2";
  y.object_gen = 2;
  y.state = "reserved";
  EXPECT_LEGAL(s.write(seconds(2), 0, Write{.op = "reserve", .row = y}));
  EXPECT_LEGAL(s.write(seconds(3), 0, Write{.op = "abort", .row = y}));
  y.state = "active";
  expect_violation(h, s.write(seconds(3), 0, Write{.op = "commit", .row = y}), "fencing",
                   {"reservation of actor 'player:2'", "already consumed"});
}

TEST_F(Fencing, WriteByAHostRunWithoutALease) {
  expect_violation(h, s.write(seconds(2), 3, Write{.op = "preserve", .row = x, .by_owner = "owner-z", .by_lease_gen = 7}),
                   "fencing", {"host run owner-z/7, which never registered"});
}

TEST_F(Fencing, RenewAppliedAfterExpiryWhenTheEventSaysSo) {
  // A renewal found by a re-read (resolved=1) is not the renew CAS's own answer: not judged.
  EXPECT_LEGAL(s.feed(seconds(16), 0, "lease.renewed",
                      owned_fields(location::events::LeaseAdopted{"owner-a", 1, store_ms(seconds(31)),
                                                                  store_ms(seconds(16)), 0, 2, /*resolved=*/1})));
  // The CAS itself (resolved=0) applied after the lease it extends expired.
  expect_violation(h, s.renewed(seconds(40), 0, "owner-a", 1, store_ms(seconds(55))), "fencing",
                   {"an expired lease was revived"});
}

}  // namespace
}  // namespace spotcheck::properties::testing
