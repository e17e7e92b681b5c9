// The local admission deadline (§5): its derivation from StoreNow/ExpiresAt and the local time
// around the request, slow replies, clock offsets, and every blocked operation refusing past it.
#include <gtest/gtest.h>

#include "impl/platform/event_kinds.h"
#include "impl/location/lease/admission_deadline.h"
#include "impl/location/shutdown/owner_sweep.h"
#include "impl/records/owner_lease_record.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::StoreFault;
using testing::TestNode;
using testing::World;
using platform::millis;
using platform::seconds;

TEST(AdmissionDeadline, IsSendTimePlusRemainingLeaseMinusMargin) {
  const LeaseObservation seen{seconds(100), seconds(100) + millis(40), 5'000, 5'000 + 15'000};
  EXPECT_EQ(admission_deadline_us(seen, seconds(5)), seconds(100) + seconds(15) - seconds(5));
}

TEST(AdmissionDeadline, ASlowReplyNeverMovesTheDeadlineLater) {
  // The same StoreNow/ExpiresAt reached after a 2 s round trip: the deadline is still measured
  // from the send, so the slow reply shortens the usable window instead of extending it.
  const LeaseObservation fast{seconds(100), seconds(100), 5'000, 20'000};
  const LeaseObservation slow{seconds(100), seconds(102), 5'000, 20'000};
  EXPECT_EQ(admission_deadline_us(slow, seconds(5)), admission_deadline_us(fast, seconds(5)));
}

TEST(AdmissionDeadline, AnExpiredLeaseGivesADeadlineBeforeTheSend) {
  const LeaseObservation seen{seconds(100), seconds(101), 20'000, 19'000};
  EXPECT_LT(admission_deadline_us(seen, seconds(5)), seconds(100));
}

TEST(AdmissionDeadline, StoreClockEstimateNeverFallsBehind) {
  const LeaseObservation seen{seconds(100), seconds(101), 5'000, 20'000};
  EXPECT_EQ(estimated_store_now_ms(seen, seconds(100)), 5'000);
  EXPECT_EQ(estimated_store_now_ms(seen, seconds(100) + 1), 5'001);  // rounds up
  EXPECT_EQ(estimated_store_now_ms(seen, seconds(103)), 8'000);
}

TEST(Admission, RegistrationThroughASlowStoreGivesAConservativeDeadline) {
  World world;
  const LocationConfig config;
  testing::Host host(world, 7, 1);
  OwnerLease lease(config, host.platform, world.store);
  // The write takes 2 s to arrive and its reply 2 s more (sent at local 1 s).
  world.store.write_faults.push_back({StoreFault::Kind::kSlow, seconds(2), seconds(2)});
  ASSERT_TRUE(lease.register_lease().ok());
  // ExpiresAt = 1 s + 15 s of store time; StoreNow at apply = 3 s: 13 s remain after the send at
  // 1 s, minus the 5 s margin -> 9 s. A fast store would give 11 s.
  EXPECT_EQ(lease.admission_deadline_us(), seconds(9));
  EXPECT_EQ(world.clock.now_us(), seconds(5));
  EXPECT_TRUE(lease.admission_open());
  world.clock.advance_to(seconds(9) - 1);
  EXPECT_TRUE(lease.admission_open());
  world.clock.advance_to(seconds(9));
  EXPECT_FALSE(lease.admission_open());
}

TEST(Admission, AStoreClockOffsetDoesNotMoveTheDeadline) {
  for (std::int64_t skew_ms : {std::int64_t{-400'000}, std::int64_t{0}, std::int64_t{3'600'000}}) {
    World world;
    world.store_skew_ms = skew_ms;
    const LocationConfig config;
    testing::Host host(world, 7, 1);
    OwnerLease lease(config, host.platform, world.store);
    ASSERT_TRUE(lease.register_lease().ok());
    EXPECT_EQ(lease.admission_deadline_us(), seconds(1) + seconds(15) - seconds(5)) << skew_ms;
  }
}

TEST(Admission, ClosesAtTheDeadlineAndReopensOnRenew) {
  World world;
  const LocationConfig config;
  testing::Host host(world, 7, 1);
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  world.clock.advance_to(seconds(11) - 1);
  EXPECT_TRUE(lease.admit("object_message").ok());
  world.clock.advance_to(seconds(11));
  Result<Done> refused = lease.admit("object_message");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kAdmissionClosed);
  EXPECT_FALSE(lease.admit("timer_callback").ok());
  EXPECT_EQ(world.events.count(kinds::kLeaseAdmissionClosed), 1U);
  EXPECT_EQ(world.events.count(kinds::kAdmissionRefused), 2U);
  // Still inside the lease itself (not past deadline + margin): a renew reopens admission.
  ASSERT_TRUE(lease.renew().ok());
  EXPECT_TRUE(lease.admission_open());
  EXPECT_EQ(world.events.count(kinds::kLeaseAdmissionReopened), 1U);
  EXPECT_EQ(lease.admission_deadline_us(), seconds(11) + seconds(15) - seconds(5));
}

// Every blocked operation refuses past the deadline, and the store does not change.
TEST(Admission, EveryBlockedOperationRefusesPastTheDeadline) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  TestNode b(world, config, 2, {.rid = "bb02"});
  a.start();
  b.start();
  const NodeView a_view = a.view();
  const NodeView b_view = b.view();
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("r1"), a_view);
  ASSERT_TRUE(reserved.ok());
  Result<AuthoritySnapshot> other = a.authority.reserve(testing::actor_request("r2"), a_view);
  ASSERT_TRUE(other.ok());
  Result<AuthoritySnapshot> active = a.authority.commit(other.value());
  ASSERT_TRUE(active.ok());
  ASSERT_TRUE(b.lease.renew().ok());  // b stays open; only a passes its deadline

  world.clock.advance_to(a.lease.admission_deadline_us());
  ASSERT_FALSE(a.lease.admission_open());
  const auto before = testing::snapshot_all(world.store);
  const std::size_t writes = world.store.writes;
  auto closed = [](const auto& result) {
    return !result.ok() && result.error().kind == ErrorKind::kAdmissionClosed;
  };
  EXPECT_TRUE(closed(a.authority.reserve(testing::actor_request("r3"), b_view)));
  EXPECT_TRUE(closed(a.authority.commit(reserved.value())));
  EXPECT_TRUE(closed(a.authority.abort(reserved.value())));
  EXPECT_TRUE(closed(a.authority.preserve(active.value(), "new-payload")));
  EXPECT_TRUE(closed(a.authority.new_owner(active.value(), b_view)));
  EXPECT_TRUE(closed(a.authority.remove(active.value())));
  EXPECT_TRUE(closed(a.publisher.publish()));
  EXPECT_TRUE(closed(a.lease.admit("object_message")));
  EXPECT_TRUE(closed(a.lease.admit("timer_callback")));
  EXPECT_TRUE(closed(a.lease.admit("factory_commit")));
  EXPECT_TRUE(closed(a.lease.admit("relocation_change")));
  EXPECT_TRUE(closed(
      sweep_owner_authority(world.store, a.host.platform, config, a.lease, a.authority)));
  EXPECT_EQ(world.store.writes, writes);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
}

TEST(Admission, ALostLeaseBlocksEvenBeforeTheDeadline) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  a.start();
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("r1"), a.view());
  ASSERT_TRUE(reserved.ok());
  // The store shows another host run under our key: the next write conditioned on our lease
  // record conflicts, the re-read finds the difference, and admission closes for good.
  records::OwnerLeaseRecord other =
      records::decode_owner_lease_record(testing::raw_read(world.store, a.lease.record_key())->value)
          .value();
  other.lease_generation += 7;
  testing::raw_put(world.store, a.lease.record_key(), records::encode(other));
  Result<AuthoritySnapshot> committed = a.authority.commit(reserved.value());
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.error().kind, ErrorKind::kAdmissionClosed);
  EXPECT_TRUE(a.lease.lost());
  EXPECT_LT(world.clock.now_us(), a.lease.admission_deadline_us());
  EXPECT_FALSE(a.lease.admission_open());
  const std::optional<store::Found> row =
      testing::raw_read(world.store, reserved.value().key.store_key());
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->version, reserved.value().version);  // unchanged: still Reserved
}

}  // namespace
}  // namespace spotcheck::location
