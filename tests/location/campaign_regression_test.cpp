// Situations campaigns found, reproduced with the test platform's store faults. Each test runs
// under the throwing assertion handler, so a failed LOCATION_ASSERT fails the test instead of
// aborting the test binary.
#include <gtest/gtest.h>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/records/owner_lease_record.h"
#include "tests/location/store_inspect.h"
#include "tests/location/test_platform.h"

namespace spotcheck::location {
namespace {

using testing::Host;
using testing::StoreFault;
using testing::World;
using platform::millis;
using platform::seconds;

class CampaignRegression : public ::testing::Test {
 protected:
  check::ScopedAssertionHandler _throwing{&check::throw_invariant_violation};
  World world;
  Host host{world, 7, 1};
  const LocationConfig config{};  // {}: clang refuses a const member without an initializer
  OwnerLease lease{config, host.platform, world.store};

  Result<Done> call(Result<Done> (OwnerLease::*operation)()) {
    Result<Done> result = Error::of(ErrorKind::kStoreError, "not run");
    EXPECT_NO_THROW(result = (lease.*operation)());
    return result;
  }
};

// `spotcheck replay --scenario store-outage --seed 739`: the first register_lease() applied but
// its reply was lost and every re-read hit the outage, so it ended kIndeterminate. The retry's
// write conflicted on our own key (ExpectAbsent) and its reply came too late; the re-read found
// the FIRST call's record. That record is our registration: it is adopted (resolved=1), not
// reported as a failure while the lease counts as registered.
TEST_F(CampaignRegression, RegisterRetryAdoptsTheRecordOfAnEarlierCallWhoseReplyWasLost) {
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, seconds(3)});
  world.store.read_faults.push_back({StoreFault::Kind::kSlow, 0, 0});  // the counter: on time
  for (std::uint32_t i = 0; i < config.indeterminate_rereads_max; ++i) {
    world.store.read_faults.push_back({StoreFault::Kind::kUnavailable, 0, 0});
  }
  const Result<Done> first = call(&OwnerLease::register_lease);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().kind, ErrorKind::kIndeterminate);
  EXPECT_FALSE(lease.registered());
  ASSERT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 1);

  world.clock.advance(seconds(1));
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, seconds(3)});
  const Result<Done> second = call(&OwnerLease::register_lease);
  ASSERT_TRUE(second.ok()) << describe(second.error());
  ASSERT_TRUE(lease.registered());
  // The first call's generation: the retry's write did not apply and burnt nothing.
  EXPECT_EQ(lease.host_run().lease_generation, 1U);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 1);
  const std::optional<store::Found> stored = testing::raw_read(world.store, lease.record_key());
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(lease.record_version(), stored->version);
  EXPECT_EQ(lease.expires_at_ms(),
            records::decode_owner_lease_record(stored->value).value().expires_at_epoch_ms);
  EXPECT_TRUE(lease.admission_open());
  ASSERT_EQ(world.events.count(kinds::kLeaseRegistered), 1U);
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseRegistered)[0].num("resolved"), 1);
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseRegistered)[0].num("lease_gen"), 1);
}

// `spotcheck run --scenario default --swarm` seed 74: the main task's reconfirm() was parked on
// its re-read of the lease record (the node was paused) while the renew task found the lease end
// passed and marked the lease lost. The re-read then returned our record: it must not be adopted
// — lost is for good (§5).
TEST_F(CampaignRegression, ReconfirmParkedWhileTheRenewTaskLosesTheLeaseAdoptsNothing) {
  ASSERT_TRUE(call(&OwnerLease::register_lease).ok());
  world.clock.advance_to(lease.admission_deadline_us() + config.fencing_margin_us);
  bool renew_task_ran = false;
  world.store.before_read = [&](const store::Key&) {
    if (!renew_task_ran) {
      renew_task_ran = true;
      EXPECT_FALSE(lease.renew().ok());  // the renew task, while reconfirm's read is in flight
      EXPECT_TRUE(lease.lost());
    }
  };
  const std::size_t renewed = world.events.count(kinds::kLeaseRenewed);
  const Result<Done> reconfirmed = call(&OwnerLease::reconfirm);
  ASSERT_TRUE(renew_task_ran);
  ASSERT_FALSE(reconfirmed.ok());
  EXPECT_EQ(reconfirmed.error().kind, ErrorKind::kAdmissionClosed);
  EXPECT_TRUE(lease.lost());
  EXPECT_FALSE(lease.admission_open());
  EXPECT_EQ(world.events.count(kinds::kLeaseRenewed), renewed);
  EXPECT_EQ(world.events.count(kinds::kLeaseLost), 1U);
}

// The same race the other way round: a renew applied in time, but while its reply was on its
// way another task's re-read (at a store time past the ExpiresAt held) found the newer record and
// had to mark the lease lost. The renew's late reply must not revive it.
TEST_F(CampaignRegression, RenewReplyArrivingAfterAnotherTaskLostTheLeaseRevivesNothing) {
  ASSERT_TRUE(call(&OwnerLease::register_lease).ok());
  const std::int64_t expires_before_ms = lease.expires_at_ms();
  world.clock.advance(seconds(5));
  bool other_task_ran = false;
  world.store.after_write = [&](const store::WriteRequest&) {
    other_task_ran = true;
    world.clock.advance(seconds(11));  // the reply is slow; the host's other task runs on
    EXPECT_FALSE(lease.reconfirm().ok());
    EXPECT_TRUE(lease.lost());
  };
  const Result<Done> renewed = call(&OwnerLease::renew);
  ASSERT_TRUE(other_task_ran);
  ASSERT_FALSE(renewed.ok());
  EXPECT_EQ(renewed.error().kind, ErrorKind::kAdmissionClosed);
  EXPECT_TRUE(lease.lost());
  EXPECT_FALSE(lease.admission_open());
  EXPECT_EQ(lease.expires_at_ms(), expires_before_ms);  // nothing adopted after the loss
  EXPECT_EQ(world.events.count(kinds::kLeaseRenewed), 0U);
}

// A renew that applied AFTER the lease expired, its reply not yet back: another task's re-read
// finds the newer record of ours. It cannot tell when that write applied, so it must not adopt
// it (that would reopen admission on a revived lease, §5): the lease is lost.
TEST_F(CampaignRegression, ReconfirmNeverAdoptsARenewThatMayHaveAppliedAfterExpiry) {
  ASSERT_TRUE(call(&OwnerLease::register_lease).ok());
  const std::int64_t expires_ms = lease.expires_at_ms();
  // Just inside the lease end seen locally: the renew is sent, and the store applies it late.
  world.clock.advance_to(lease.admission_deadline_us() + config.fencing_margin_us - millis(500));
  world.store.write_faults.push_back({StoreFault::Kind::kSlow, seconds(1), 0});
  bool other_task_ran = false;
  world.store.after_write = [&](const store::WriteRequest&) {
    other_task_ran = true;
    EXPECT_FALSE(lease.reconfirm().ok());
    EXPECT_FALSE(lease.admission_open());  // never reopened on the revived record
    EXPECT_TRUE(lease.lost());
  };
  EXPECT_FALSE(call(&OwnerLease::renew).ok());
  ASSERT_TRUE(other_task_ran);
  EXPECT_TRUE(lease.lost());
  EXPECT_EQ(lease.expires_at_ms(), expires_ms);
  EXPECT_EQ(world.events.count(kinds::kLeaseRenewed), 0U);
  EXPECT_EQ(world.events.count(kinds::kLeaseAdmissionReopened), 0U);
}

// A registration whose key holds a record this host run never wrote (undecodable, or another
// OwnerId) does not lose a lease it never had: it fails, and the next call draws a fresh OwnerId.
TEST_F(CampaignRegression, RegistrationFindingAForeignRecordUnderItsKeyDrawsAFreshOwnerId) {
  bool occupied = false;
  world.store.before_write = [&](const store::WriteRequest& request) {
    if (occupied) {
      return;
    }
    // Occupy our key with foreign bytes just before our registration write is served.
    occupied = true;
    const store::Key& key = std::get<store::Put>(request.mutations[1]).key;
    testing::raw_put(world.store, key, "not a lease record");
  };
  const Result<Done> first = call(&OwnerLease::register_lease);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().cause, ConflictCause::kOwnedByOtherHost);
  EXPECT_FALSE(lease.registered());
  EXPECT_FALSE(lease.lost());
  const Result<Done> second = call(&OwnerLease::register_lease);
  ASSERT_TRUE(second.ok()) << describe(second.error());
  EXPECT_TRUE(lease.admission_open());
  const std::optional<store::Found> stored = testing::raw_read(world.store, lease.record_key());
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(records::decode_owner_lease_record(stored->value).value().owner_id,
            lease.host_run().owner_id);
  EXPECT_EQ(lease.host_run().lease_generation, 1U);  // the failed attempt burnt no generation
}

}  // namespace
}  // namespace spotcheck::location
