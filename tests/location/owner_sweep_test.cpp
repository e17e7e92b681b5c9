// Owner sweep (§11): reclaims only this host run's authority rows, re-reading each; never
// descriptors; capacity returned with each row.
#include <gtest/gtest.h>

#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/location/shutdown/owner_sweep.h"
#include "impl/records/keys.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::TestNode;
using testing::World;

class OwnerSweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a.start();
    b.start();
  }
  AuthoritySnapshot reserve(TestNode& node, const ReserveRequest& request) {
    Result<AuthoritySnapshot> reserved = node.authority.reserve(request, node.view());
    EXPECT_TRUE(reserved.ok());
    return reserved.value();
  }
  AuthoritySnapshot active(TestNode& node, const ReserveRequest& request) {
    Result<AuthoritySnapshot> committed = node.authority.commit(reserve(node, request));
    EXPECT_TRUE(committed.ok());
    return committed.value();
  }
  Result<SweepReport> sweep(TestNode& node) {
    return sweep_owner_authority(world.store, node.host.platform, config, node.lease, node.authority);
  }

  World world;
  LocationConfig config;
  TestNode a{world, config, 1, {.rid = "aa01"}};
  TestNode b{world, config, 2, {.rid = "bb02"}};
};

TEST_F(OwnerSweepTest, RemovesOnlyThisHostRunsRowsAndReturnsTheirCapacity) {
  const AuthoritySnapshot a1 = active(a, testing::actor_request("a-actor-1"));
  const AuthoritySnapshot a2 = active(a, testing::room_request("a-room"));
  const AuthoritySnapshot a3 = reserve(a, testing::actor_request("a-actor-2"));
  const AuthoritySnapshot b1 = active(b, testing::actor_request("b-actor"));
  const AuthoritySnapshot b2 = reserve(b, testing::room_request("b-room"));
  Result<SweepReport> report = sweep(a);
  ASSERT_TRUE(report.ok()) << describe(report.error());
  EXPECT_EQ(report.value().candidates, 3U);
  EXPECT_EQ(report.value().deleted, 3U);
  for (const AuthoritySnapshot* gone : {&a1, &a2, &a3}) {
    EXPECT_FALSE(testing::raw_read(world.store, gone->key.store_key()).has_value()) << gone->key.id;
  }
  for (const AuthoritySnapshot* kept : {&b1, &b2}) {
    const std::optional<store::Found> row = testing::raw_read(world.store, kept->key.store_key());
    ASSERT_TRUE(row.has_value());
    EXPECT_EQ(row->version, kept->version);
  }
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_actors("game", "aa01")), 0);
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_spots("game", "aa01")), 0);
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_actors("game", "bb02")), 1);
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_spots("game", "bb02")), 1);
  // Descriptors and leases are never swept.
  EXPECT_TRUE(testing::raw_read(world.store, records::mesh_node_preimage("game", "aa01")).has_value());
  EXPECT_TRUE(testing::raw_read(world.store, a.lease.record_key()).has_value());
  for (const testing::RecordedEvent& event : world.events.of_kind(kinds::kAuthorityDelete)) {
    EXPECT_EQ(event.str("via"), "sweep");
    EXPECT_EQ(event.str("owner"), a.lease.host_run().owner_id);
  }
  EXPECT_EQ(world.events.count(kinds::kSweepFinished), 1U);
}

TEST_F(OwnerSweepTest, ARowThatChangedAfterTheListIsLeftAlone) {
  const AuthoritySnapshot a1 = active(a, testing::actor_request("a-actor-1"));
  const AuthoritySnapshot a2 = active(a, testing::actor_request("a-actor-2"));
  // When the sweep re-reads a-actor-2, it has just been preserved (a new StoreVersion).
  bool changed = false;
  world.store.before_read = [&](const store::Key& key) {
    if (!changed && key == a2.key.store_key()) {
      changed = true;
      ASSERT_TRUE(a.authority.preserve(a2, "changed").ok());
    }
  };
  Result<SweepReport> report = sweep(a);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report.value().candidates, 2U);
  EXPECT_EQ(report.value().deleted, 1U);
  EXPECT_EQ(report.value().changed, 1U);
  EXPECT_FALSE(testing::raw_read(world.store, a1.key.store_key()).has_value());
  EXPECT_TRUE(testing::raw_read(world.store, a2.key.store_key()).has_value());
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_actors("game", "aa01")), 1);
}

TEST_F(OwnerSweepTest, ARowOfTheSameOwnerIdButAnotherLeaseGenerationIsNotOurs) {
  const AuthoritySnapshot a1 = active(a, testing::actor_request("a-actor-1"));
  records::AuthorityRecord foreign = a1.record;
  foreign.owner_lease_generation += 1;
  const AuthorityKey key{records::AuthorityKind::kActor, "foreign"};
  testing::raw_put(world.store, key.store_key(), records::encode(foreign));
  Result<SweepReport> report = sweep(a);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report.value().deleted, 1U);
  EXPECT_TRUE(testing::raw_read(world.store, key.store_key()).has_value());
}

}  // namespace
}  // namespace spotcheck::location
