// Owner lease (§3.1, §5): registration, LeaseGeneration issuance and exhaustion, renew by CAS,
// re-read resolution of lost replies (§10), loss, and the background renew task.
#include <gtest/gtest.h>

#include <set>

#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/location/lease/owner_id.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/records/limits.h"
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

records::OwnerLeaseRecord stored_lease(World& world, const OwnerLease& lease) {
  std::optional<store::Found> found = testing::raw_read(world.store, lease.record_key());
  EXPECT_TRUE(found.has_value());
  records::RecordResult<records::OwnerLeaseRecord> decoded =
      records::decode_owner_lease_record(found ? found->value : std::string());
  EXPECT_TRUE(decoded.ok());
  return decoded.ok() ? decoded.value() : records::OwnerLeaseRecord{};
}

TEST(OwnerLease, RegisterIssuesUuidOwnerAndLeaseGenerationOne) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  EXPECT_TRUE(is_uuid_v4(lease.host_run().owner_id)) << lease.host_run().owner_id;
  EXPECT_EQ(lease.host_run().lease_generation, 1U);
  const records::OwnerLeaseRecord record = stored_lease(world, lease);
  EXPECT_EQ(record.owner_id, lease.host_run().owner_id);
  EXPECT_EQ(record.lease_generation, 1U);
  // ExpiresAt = store time + TTL (store time taken from the store, not the local clock).
  EXPECT_EQ(record.expires_at_epoch_ms, testing::kEpochBaseMs + 1'000 + 15'000);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 1);
  EXPECT_TRUE(lease.admission_open());
  ASSERT_EQ(world.events.count(kinds::kLeaseRegistered), 1U);
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseRegistered)[0].num("lease_gen"), 1);
}

// §5: a host whose timing breaks renew interval + renew timeout < TTL - fencing margin (equality
// included) does not start: a typed configuration error, nothing read or written, the check
// reported; one just inside the rule starts.
TEST(OwnerLease, ATimingAtTheBoundaryIsATypedStartupErrorAndWritesNothing) {
  World world;
  Host host(world, 7, 1);
  LocationConfig config;
  config.renew_timeout_us = config.owner_lease_ttl_us - config.fencing_margin_us - config.renew_interval_us;  // equal
  OwnerLease refused(config, host.platform, world.store);
  const Result<Done> registered = refused.register_lease();
  ASSERT_FALSE(registered.ok());
  EXPECT_EQ(registered.error_kind(), ErrorKind::kConfiguration);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 0);  // nothing written
  EXPECT_EQ(world.events.count(kinds::kLeaseRegistered), 0U);
  ASSERT_EQ(world.events.count(kinds::kLeaseStartupChecked), 1U);
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseStartupChecked)[0].num("accepted"), 0);

  config.renew_timeout_us -= millis(1);  // just inside the rule
  Host next(world, 8, 2);
  OwnerLease started(config, next.platform, world.store);
  ASSERT_TRUE(started.register_lease().ok());
  ASSERT_EQ(world.events.count(kinds::kLeaseStartupChecked), 2U);
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseStartupChecked)[1].num("accepted"), 1);
}

// §7.3: the location cache's configuration rules are startup errors too (a cache not 5 s shorter
// than Message Follow): the host run does not start and writes nothing.
TEST(OwnerLease, ARouteCacheRuleBrokenIsATypedStartupErrorAndWritesNothing) {
  World world;
  Host host(world, 7, 1);
  LocationConfig config;
  config.route_cache_max_age_us = config.message_follow_duration_us - seconds(5) + 1;
  OwnerLease refused(config, host.platform, world.store);
  const Result<Done> registered = refused.register_lease();
  ASSERT_FALSE(registered.ok());
  EXPECT_EQ(registered.error_kind(), ErrorKind::kConfiguration);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 0);
  ASSERT_EQ(world.events.count(kinds::kLeaseStartupChecked), 1U);
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseStartupChecked)[0].num("accepted"), 0);
}

TEST(OwnerLease, LeaseGenerationIsNeverZeroAndNeverReused) {
  World world;
  const LocationConfig config;
  std::set<std::uint64_t> generations;
  std::set<std::string> owners;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Host host(world, seed, seed);
    OwnerLease lease(config, host.platform, world.store);
    ASSERT_TRUE(lease.register_lease().ok());
    EXPECT_NE(lease.host_run().lease_generation, 0U);
    EXPECT_TRUE(generations.insert(lease.host_run().lease_generation).second);
    EXPECT_TRUE(owners.insert(lease.host_run().owner_id).second);
  }
  EXPECT_EQ(*generations.begin(), 1U);
  EXPECT_EQ(*generations.rbegin(), 20U);
}

TEST(OwnerLease, LastIssuableGenerationIsTwoToTheSixtyThreeMinusTwo) {
  World world;
  testing::raw_put(world.store, keys::lease_generation_counter(),
                   std::to_string(records::kGenerationMax - 1));
  Host host(world, 3, 3);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  EXPECT_EQ(lease.host_run().lease_generation, records::kGenerationMax);
}

class LeaseExhaustion : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(LeaseExhaustion, IsGenerationExhaustedWithTheStoreUnchangedAndTheSameOnRetry) {
  World world;
  testing::raw_put(world.store, keys::lease_generation_counter(), std::to_string(GetParam()));
  const auto before = testing::snapshot_all(world.store);
  Host host(world, 3, 3);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  for (int attempt = 0; attempt < 3; ++attempt) {
    Result<Done> result = lease.register_lease();
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::kGenerationExhausted);
    EXPECT_EQ(testing::snapshot_all(world.store), before);
    EXPECT_FALSE(lease.admission_open());
    EXPECT_FALSE(lease.registered());
  }
  EXPECT_EQ(world.events.count(kinds::kGenerationExhausted), 3U);
}

INSTANTIATE_TEST_SUITE_P(AtMaxAndSentinel, LeaseExhaustion,
                         ::testing::Values(records::kGenerationMax, records::kGenerationExhausted));

TEST(OwnerLease, RenewExtendsExpiryByCasAndNeverChangesTheGeneration) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  const store::StoreVersion v1 = lease.record_version();
  const std::int64_t e1 = lease.expires_at_ms();
  world.clock.advance(seconds(5));
  ASSERT_TRUE(lease.renew().ok());
  EXPECT_NE(lease.record_version(), v1);
  EXPECT_EQ(lease.expires_at_ms(), e1 + 5'000);
  const records::OwnerLeaseRecord record = stored_lease(world, lease);
  EXPECT_EQ(record.lease_generation, 1U);
  EXPECT_EQ(record.expires_at_epoch_ms, e1 + 5'000);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 1);
  EXPECT_EQ(world.events.count(kinds::kLeaseRenewed), 1U);
}

TEST(OwnerLease, RegisterReplyLostAfterApplyIsAdoptedByReread) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, millis(100)});
  ASSERT_TRUE(lease.register_lease().ok());
  EXPECT_EQ(lease.host_run().lease_generation, 1U);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 1);
  EXPECT_TRUE(lease.admission_open());
}

TEST(OwnerLease, RegisterRequestLostIsRetriedWithoutBurningAGeneration) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  world.store.write_faults.push_back({StoreFault::Kind::kLoseRequest, 0, 0});
  ASSERT_TRUE(lease.register_lease().ok());
  EXPECT_EQ(lease.host_run().lease_generation, 1U);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 1);
}

TEST(OwnerLease, RenewReplyLostAfterApplyIsResolvedByReread) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  const std::int64_t e1 = lease.expires_at_ms();
  world.clock.advance(seconds(5));
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, millis(10)});
  const std::size_t writes = world.store.writes;
  ASSERT_TRUE(lease.renew().ok());
  EXPECT_EQ(world.store.writes, writes + 1);  // resolved by the re-read, not by writing again
  EXPECT_EQ(lease.expires_at_ms(), e1 + 5'000);
  EXPECT_EQ(stored_lease(world, lease).expires_at_epoch_ms, e1 + 5'000);
  EXPECT_EQ(lease.record_version(), testing::raw_read(world.store, lease.record_key())->version);
}

TEST(OwnerLease, RenewRequestLostIsReadThenRetried) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  world.clock.advance(seconds(5));
  world.store.write_faults.push_back({StoreFault::Kind::kLoseRequest, 0, 0});
  const std::size_t writes = world.store.writes;
  ASSERT_TRUE(lease.renew().ok());
  EXPECT_EQ(world.store.writes, writes + 2);
  EXPECT_EQ(lease.record_version(), testing::raw_read(world.store, lease.record_key())->version);
}

TEST(OwnerLease, RecordGoneMeansLostAndAdmissionClosedForGood) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  testing::raw_delete(world.store, lease.record_key());
  world.clock.advance(seconds(5));
  Result<Done> renewed = lease.renew();
  ASSERT_FALSE(renewed.ok());
  EXPECT_TRUE(lease.lost());
  EXPECT_FALSE(lease.admission_open());
  EXPECT_EQ(world.events.count(kinds::kLeaseLost), 1U);
  // Nothing brings it back: the key stays absent, the renew is refused without a write.
  const std::size_t writes = world.store.writes;
  EXPECT_FALSE(lease.renew().ok());
  EXPECT_EQ(world.store.writes, writes);
}

TEST(OwnerLease, AnotherHostRunUnderOurKeyMeansLost) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  records::OwnerLeaseRecord other = stored_lease(world, lease);
  other.lease_generation = 99;
  testing::raw_put(world.store, lease.record_key(), records::encode(other));
  world.clock.advance(seconds(5));
  EXPECT_FALSE(lease.renew().ok());
  EXPECT_TRUE(lease.lost());
  EXPECT_FALSE(lease.admission_open());
}

TEST(OwnerLease, RenewAfterTheLeaseEndIsRefusedAndTheLeaseLost) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  world.clock.advance(seconds(15));  // a paused process wakes at the lease end
  const std::size_t writes = world.store.writes;
  EXPECT_FALSE(lease.renew().ok());
  EXPECT_TRUE(lease.lost());
  EXPECT_EQ(world.store.writes, writes);  // never revives an expired lease
}

TEST(OwnerLease, RenewAppliedAfterExpiryByASlowStoreMarksTheLeaseLost) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  world.clock.advance(seconds(12));
  world.store.write_faults.push_back({StoreFault::Kind::kSlow, seconds(4), 0});
  EXPECT_FALSE(lease.renew().ok());
  EXPECT_TRUE(lease.lost());
  EXPECT_FALSE(lease.admission_open());
}

TEST(OwnerLease, ReconfirmAdoptsANewerRecordOfOurs) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  // Same bytes again under a new version (e.g. a late duplicate of our own write).
  const store::Bytes bytes = testing::raw_read(world.store, lease.record_key())->value;
  testing::raw_put(world.store, lease.record_key(), bytes);
  ASSERT_TRUE(lease.reconfirm().ok());
  EXPECT_EQ(lease.record_version(), testing::raw_read(world.store, lease.record_key())->version);
  EXPECT_FALSE(lease.lost());
}

TEST(OwnerLease, BackgroundTaskRenewsEveryIntervalUntilStopped) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  int waits = 0;
  host.tasks.on_gate_wait = [&] {
    if (++waits == 4) {
      lease.stop_renewing();
    }
  };
  lease.start_renewing();
  EXPECT_TRUE(lease.renewing());
  ASSERT_EQ(host.tasks.spawned_names, std::vector<std::string>{"owner-lease-renew"});
  host.tasks.run_spawned();
  EXPECT_FALSE(lease.renewing());
  EXPECT_EQ(world.events.count(kinds::kLeaseRenewed), 3U);
  // Renewed at 6 s, 11 s, 16 s: the lease stays open well past the first TTL.
  EXPECT_EQ(world.clock.now_us(), seconds(21));
  EXPECT_FALSE(lease.lost());
  EXPECT_EQ(lease.expires_at_ms(), testing::kEpochBaseMs + 16'000 + 15'000);
}

TEST(OwnerLease, BackgroundTaskRetriesSoonerAndGivesUpOnlyAtTheLeaseEnd) {
  World world;
  Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  ASSERT_TRUE(lease.register_lease().ok());
  for (int i = 0; i < 1000; ++i) {
    world.store.write_faults.push_back({StoreFault::Kind::kUnavailable, 0, 0});
  }
  lease.start_renewing();
  host.tasks.run_spawned();  // ends by itself: the lease is lost once its end has passed
  EXPECT_TRUE(lease.lost());
  EXPECT_FALSE(lease.renewing());
  EXPECT_GE(world.events.count(kinds::kLeaseRenewFailed), 5U);
  // Lost no later than one retry step after the lease end seen from the last send (16 s).
  EXPECT_LE(world.clock.now_us(), seconds(16) + seconds(1));
  EXPECT_GE(world.clock.now_us(), seconds(16));
}

}  // namespace
}  // namespace spotcheck::location
