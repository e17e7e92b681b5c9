// Authority operations (§6.1): success, Conflict (stale version, wrong state, stale lease, stale
// target) with the store unchanged, capacity in the same request, and lost replies (§10).
#include <gtest/gtest.h>

#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/limits.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::StoreFault;
using testing::TestNode;
using testing::World;
using platform::seconds;

class AuthorityOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a.start();
    b.start();
  }

  std::int64_t actors_on(const TestNode& node) {
    return testing::counter_value(world.store, keys::capacity_actors(node.spec.mesh, node.spec.rid));
  }

  // Reserve + Commit of an actor on `node`, by `node`.
  AuthoritySnapshot active_actor(TestNode& node, const std::string& id) {
    Result<AuthoritySnapshot> reserved = node.authority.reserve(testing::actor_request(id), node.view());
    EXPECT_TRUE(reserved.ok()) << describe(reserved.error());
    Result<AuthoritySnapshot> active = node.authority.commit(reserved.value());
    EXPECT_TRUE(active.ok()) << describe(active.error());
    return active.value();
  }

  // Asserts the result is a Conflict with `cause` and that the store did not change.
  template <class R>
  void expect_conflict_unchanged(const R& result, ConflictCause cause,
                                 const decltype(testing::snapshot_all(std::declval<store::LocationStore&>()))& before) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::kConflict) << describe(result.error());
    EXPECT_EQ(result.error().cause, cause) << describe(result.error());
    EXPECT_EQ(testing::snapshot_all(world.store), before);
  }

  World world;
  LocationConfig config;
  TestNode a{world, config, 1, {.rid = "aa01"}};
  TestNode b{world, config, 2, {.rid = "bb02", .actors_limit = 2}};
};

// ---- read ---------------------------------------------------------------------------------------

TEST_F(AuthorityOpsTest, ReadingAMissingRowReturnsMissingAndCreatesNoGeneration) {
  const auto before = testing::snapshot_all(world.store);
  Result<AuthorityRead> read = a.authority.read({records::AuthorityKind::kActor, "nobody"});
  ASSERT_TRUE(read.ok());
  EXPECT_FALSE(read.value().current.has_value());
  EXPECT_EQ(read.value().now_ms, testing::kEpochBaseMs + world.clock.now_us() / 1000);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
  EXPECT_EQ(testing::counter_value(world.store, keys::object_generation_counter()), 0);
}

// ---- Reserve --------------------------------------------------------------------------------------

TEST_F(AuthorityOpsTest, ReserveWritesAReservedRowIssuesGenerationsAndSecuresCapacity) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), b.view());
  ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
  const records::AuthorityRecord& record = reserved.value().record;
  EXPECT_EQ(record.allocation.state, records::AllocationState::kReserved);
  EXPECT_EQ(record.object_generation, 1U);
  EXPECT_EQ(record.authority_owner_generation, 1U);
  EXPECT_EQ(record.owner_id, b.lease.host_run().owner_id);  // the target's host run owns it
  EXPECT_EQ(record.owner_lease_generation, b.lease.host_run().lease_generation);
  EXPECT_EQ(record.allocation.descriptor.routing_id_hex, "bb02");
  EXPECT_EQ(record.allocation.descriptor_lifecycle_generation, 1U);
  EXPECT_EQ(record.allocation.capacity.actors, 1U);
  EXPECT_EQ(actors_on(b), 1);
  EXPECT_EQ(actors_on(a), 0);
  const std::optional<store::Found> row = testing::raw_read(world.store, reserved.value().key.store_key());
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->value, reserved.value().bytes);
  EXPECT_EQ(row->version, reserved.value().version);
  ASSERT_EQ(world.events.count(kinds::kAuthorityReserve), 1U);
  const testing::RecordedEvent event = world.events.of_kind(kinds::kAuthorityReserve)[0];
  EXPECT_EQ(event.str("outcome"), "applied");
  EXPECT_EQ(event.num("object_gen"), 1);
  EXPECT_EQ(event.str("owner"), b.lease.host_run().owner_id);
  EXPECT_EQ(event.str("by_owner"), a.lease.host_run().owner_id);
  ASSERT_EQ(world.events.count(kinds::kCapacityChanged), 1U);
  EXPECT_EQ(world.events.of_kind(kinds::kCapacityChanged)[0].num("value"), 1);
}

TEST_F(AuthorityOpsTest, ReserveOfASpotSecuresASpotAndASpotTypeSlot) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::room_request("room-1"), a.view());
  ASSERT_TRUE(reserved.ok());
  const records::AllocationCapacity& capacity = reserved.value().record.allocation.capacity;
  EXPECT_EQ(capacity.actors, 0U);
  EXPECT_EQ(capacity.spots, 1U);
  ASSERT_TRUE(capacity.spot_type.has_value());
  EXPECT_EQ(capacity.spot_type->stable_type, "Room");
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_spots("game", "aa01")), 1);
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_spot_type(
                                                    "game", "aa01", records::ObjectKind::kUserSpot, "Room")),
            1);
}

TEST_F(AuthorityOpsTest, ReserveOnAnExistingRowConflictsAndChangesNothing) {
  ASSERT_TRUE(a.authority.reserve(testing::actor_request("u1"), a.view()).ok());
  const NodeView view = a.view();
  const auto before = testing::snapshot_all(world.store);
  expect_conflict_unchanged(a.authority.reserve(testing::actor_request("u1"), view),
                            ConflictCause::kAlreadyExists, before);
}

TEST_F(AuthorityOpsTest, ReserveAgainstAChangedTargetDescriptorConflicts) {
  const NodeView stale = b.view();
  records::MeshNodeDescriptorRecord changed = b.publisher.descriptor();
  changed.placement_weight = 50;
  ASSERT_TRUE(b.publisher.update(changed).ok());
  const auto before = testing::snapshot_all(world.store);
  expect_conflict_unchanged(a.authority.reserve(testing::actor_request("u1"), stale),
                            ConflictCause::kTargetChanged, before);
}

TEST_F(AuthorityOpsTest, ReserveAgainstAStaleTargetLeaseConflicts) {
  const NodeView stale = b.view();
  ASSERT_TRUE(b.lease.renew().ok());  // the target's lease record moved on
  const auto before = testing::snapshot_all(world.store);
  expect_conflict_unchanged(a.authority.reserve(testing::actor_request("u1"), stale),
                            ConflictCause::kTargetLeaseInvalid, before);
}

TEST_F(AuthorityOpsTest, ReserveOnATargetWithAnExpiredLeaseIsRefusedBeforeTheStore) {
  world.clock.advance(seconds(16));  // a's and b's leases have ended (nobody renewed)
  TestNode c(world, config, 3, {.rid = "cc03"});
  c.start();
  const NodeView b_view = b.view();
  EXPECT_FALSE(b_view.lease_valid);
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> result = c.authority.reserve(testing::actor_request("u1"), b_view);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().cause, ConflictCause::kTargetLeaseInvalid);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, ReserveOnAFullNodeIsCapacityFullAndChangesNothing) {
  ASSERT_TRUE(a.authority.reserve(testing::actor_request("u1"), b.view()).ok());
  ASSERT_TRUE(a.authority.reserve(testing::actor_request("u2"), b.view()).ok());
  const NodeView view = b.view();
  const auto before = testing::snapshot_all(world.store);
  Result<AuthoritySnapshot> full = a.authority.reserve(testing::actor_request("u3"), view);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().kind, ErrorKind::kCapacityFull);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
  EXPECT_EQ(actors_on(b), 2);
}

TEST_F(AuthorityOpsTest, ReserveForAnUnregisteredTypeIsAnInternalErrorBeforeTheStore) {
  ReserveRequest request = testing::actor_request("u1");
  request.stable_type = "Monster";
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> result = a.authority.reserve(request, a.view());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, ReserveWithALostReplyIsResolvedAsAppliedOnce) {
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
  EXPECT_EQ(reserved.value().record.object_generation, 1U);
  EXPECT_EQ(testing::counter_value(world.store, keys::object_generation_counter()), 1);
  EXPECT_EQ(actors_on(a), 1);
  EXPECT_EQ(reserved.value().version, testing::raw_read(world.store, reserved.value().key.store_key())->version);
}

TEST_F(AuthorityOpsTest, ReserveWithALostRequestIsRetriedAndAppliedOnce) {
  world.store.write_faults.push_back({StoreFault::Kind::kLoseRequest, 0, 0});
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
  EXPECT_EQ(testing::counter_value(world.store, keys::object_generation_counter()), 1);
  EXPECT_EQ(actors_on(a), 1);
  EXPECT_EQ(world.events.count(kinds::kStoreIndeterminate), 1U);
}

TEST_F(AuthorityOpsTest, ReserveRetriesWhenAnotherReserveTookTheNextGeneration) {
  const NodeView a_view = a.view();
  const NodeView b_view = b.view();
  bool raced = false;
  world.store.before_write = [&](const store::WriteRequest&) {
    if (!raced) {
      raced = true;  // b's Reserve lands between a's counter read and a's write
      ASSERT_TRUE(b.authority.reserve(testing::actor_request("other"), b_view).ok());
    }
  };
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a_view);
  ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
  EXPECT_EQ(reserved.value().record.object_generation, 2U);
  EXPECT_EQ(testing::counter_value(world.store, keys::object_generation_counter()), 2);
  EXPECT_EQ(actors_on(a), 1);
  EXPECT_EQ(actors_on(b), 1);
}

TEST_F(AuthorityOpsTest, AStoreErrorChangesNothing) {
  const NodeView view = a.view();
  const auto before = testing::snapshot_all(world.store);
  world.store.write_faults.push_back({StoreFault::Kind::kUnavailable, 0, 0});
  Result<AuthoritySnapshot> result = a.authority.reserve(testing::actor_request("u1"), view);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::kStoreError);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
}

// ---- Commit / Abort -------------------------------------------------------------------------------

TEST_F(AuthorityOpsTest, CommitTurnsReservedActiveKeepingGenerationsAndCapacity) {
  records::PendingCreation pending{"6f1c0e2a9b8d4c3e2f1a0b9c8d7e6f50", "creation:1",
                                   std::string(64, 'a'), 21};
  ReserveRequest request = testing::actor_request("u1");
  request.pending_creation = pending;
  Result<AuthoritySnapshot> reserved = a.authority.reserve(request, a.view());
  ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
  ASSERT_TRUE(reserved.value().record.pending_creation.has_value());
  Result<AuthoritySnapshot> active = a.authority.commit(reserved.value());
  ASSERT_TRUE(active.ok()) << describe(active.error());
  EXPECT_EQ(active.value().record.allocation.state, records::AllocationState::kActive);
  EXPECT_FALSE(active.value().record.pending_creation.has_value());
  EXPECT_EQ(active.value().record.object_generation, reserved.value().record.object_generation);
  EXPECT_EQ(active.value().record.authority_owner_generation, 1U);
  EXPECT_NE(active.value().version, reserved.value().version);
  EXPECT_EQ(actors_on(a), 1);
}

TEST_F(AuthorityOpsTest, CommitWithAStaleVersionConflicts) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  AuthoritySnapshot stale = reserved.value();
  ASSERT_TRUE(a.authority.commit(reserved.value()).ok());
  // The row is Active now; a second Commit from the old Reserved snapshot must not apply.
  const auto before = testing::snapshot_all(world.store);
  expect_conflict_unchanged(a.authority.commit(stale), ConflictCause::kVersionChanged, before);
}

TEST_F(AuthorityOpsTest, CommitOnActiveIsWrongStateWithoutAWrite) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> again = a.authority.commit(active);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().cause, ConflictCause::kWrongState);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, CommitByAHostRunThatIsNotTheOwnerIsRefused) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), b.view());
  ASSERT_TRUE(reserved.ok());
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> committed = a.authority.commit(reserved.value());
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.error().cause, ConflictCause::kNotOwner);
  EXPECT_EQ(world.store.writes, writes);
  EXPECT_TRUE(b.authority.commit(reserved.value()).ok());  // the target commits
}

TEST_F(AuthorityOpsTest, CommitReplyLostIsResolvedByReread) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  Result<AuthoritySnapshot> active = a.authority.commit(reserved.value());
  ASSERT_TRUE(active.ok()) << describe(active.error());
  EXPECT_EQ(active.value().version, testing::raw_read(world.store, reserved.value().key.store_key())->version);
  EXPECT_EQ(world.events.of_kind(kinds::kAuthorityCommit).back().num("resolved"), 1);
}

TEST_F(AuthorityOpsTest, AbortRemovesTheReservationAndReturnsCapacity) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::room_request("room-1"), a.view());
  ASSERT_TRUE(reserved.ok());
  ASSERT_TRUE(a.authority.abort(reserved.value()).ok());
  EXPECT_FALSE(testing::raw_read(world.store, reserved.value().key.store_key()).has_value());
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_spots("game", "aa01")), 0);
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_spot_type(
                                                    "game", "aa01", records::ObjectKind::kUserSpot, "Room")),
            0);
  // The generation is not reused by the next Reserve of the same id.
  Result<AuthoritySnapshot> again = a.authority.reserve(testing::room_request("room-1"), a.view());
  ASSERT_TRUE(again.ok());
  EXPECT_GT(again.value().record.object_generation, reserved.value().record.object_generation);
}

TEST_F(AuthorityOpsTest, AbortOnActiveIsWrongState) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  const std::size_t writes = world.store.writes;
  Result<Done> aborted = a.authority.abort(active);
  ASSERT_FALSE(aborted.ok());
  EXPECT_EQ(aborted.error().cause, ConflictCause::kWrongState);
  EXPECT_EQ(world.store.writes, writes);
}

// ---- Preserve ---------------------------------------------------------------------------------

TEST_F(AuthorityOpsTest, PreserveChangesOnlyPayloadAndVersion) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  Result<AuthoritySnapshot> preserved = a.authority.preserve(active, "payload-2");
  ASSERT_TRUE(preserved.ok()) << describe(preserved.error());
  EXPECT_EQ(preserved.value().record.payload, "payload-2");
  records::AuthorityRecord expected = active.record;
  expected.payload = "payload-2";
  EXPECT_EQ(preserved.value().record, expected);
  EXPECT_NE(preserved.value().version, active.version);
  EXPECT_EQ(actors_on(a), 1);
}

TEST_F(AuthorityOpsTest, PreserveOnReservedIsWrongStateWithoutAWrite) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> result = a.authority.preserve(reserved.value(), "x");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().cause, ConflictCause::kWrongState);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, PreserveFromAnActiveSnapshotWhileTheStoreHoldsReservedConflicts) {
  // The row was deleted and reserved again after our Active snapshot: the store's version
  // condition refuses what the local check could not see.
  const AuthoritySnapshot active = active_actor(a, "u1");
  ASSERT_TRUE(a.authority.remove(active).ok());
  ASSERT_TRUE(a.authority.reserve(testing::actor_request("u1"), a.view()).ok());
  const auto before = testing::snapshot_all(world.store);
  expect_conflict_unchanged(a.authority.preserve(active, "x"), ConflictCause::kVersionChanged, before);
}

TEST_F(AuthorityOpsTest, PreserveWithAStaleOwnLeaseLosesTheLeaseAndChangesNothing) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  testing::raw_delete(world.store, a.lease.record_key());  // our lease is gone
  const auto before = testing::snapshot_all(world.store);
  Result<AuthoritySnapshot> result = a.authority.preserve(active, "x");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::kAdmissionClosed);
  EXPECT_TRUE(a.lease.lost());
  EXPECT_EQ(testing::snapshot_all(world.store), before);
}

TEST_F(AuthorityOpsTest, PreserveAfterOurLeaseRecordMovedReconfirmsAndApplies) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  const store::Bytes bytes = testing::raw_read(world.store, a.lease.record_key())->value;
  testing::raw_put(world.store, a.lease.record_key(), bytes);  // same record, new version
  Result<AuthoritySnapshot> preserved = a.authority.preserve(active, "x");
  ASSERT_TRUE(preserved.ok()) << describe(preserved.error());
  EXPECT_FALSE(a.lease.lost());
}

TEST_F(AuthorityOpsTest, PreserveByANonOwnerIsRefused) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> result = b.authority.preserve(active, "x");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().cause, ConflictCause::kNotOwner);
  EXPECT_EQ(world.store.writes, writes);
}

// ---- NewOwner ---------------------------------------------------------------------------------

TEST_F(AuthorityOpsTest, NewOwnerKeepsObjectGenerationBumpsOwnerGenerationAndMovesCapacity) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  Result<AuthoritySnapshot> moved = b.authority.new_owner(active, b.view());
  ASSERT_TRUE(moved.ok()) << describe(moved.error());
  const records::AuthorityRecord& record = moved.value().record;
  EXPECT_EQ(record.object_generation, active.record.object_generation);
  EXPECT_EQ(record.authority_owner_generation, 2U);
  EXPECT_EQ(record.owner_id, b.lease.host_run().owner_id);
  EXPECT_EQ(record.owner_lease_generation, b.lease.host_run().lease_generation);
  EXPECT_EQ(record.allocation.state, records::AllocationState::kActive);
  EXPECT_EQ(record.allocation.descriptor.routing_id_hex, "bb02");
  EXPECT_EQ(actors_on(a), 0);
  EXPECT_EQ(actors_on(b), 1);
  const testing::RecordedEvent event = world.events.of_kind(kinds::kAuthorityNewOwner).back();
  EXPECT_EQ(event.str("outcome"), "applied");
  EXPECT_EQ(event.num("prev_owner_gen"), 1);
  EXPECT_EQ(event.num("owner_gen"), 2);
  EXPECT_EQ(event.str("prev_owner"), a.lease.host_run().owner_id);
}

TEST_F(AuthorityOpsTest, NewOwnerOnReservedIsWrongStateWithoutAWrite) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> result = b.authority.new_owner(reserved.value(), b.view());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().cause, ConflictCause::kWrongState);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, NewOwnerWithAStaleTargetLeaseConflicts) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  const NodeView stale = b.view();
  ASSERT_TRUE(b.lease.renew().ok());
  const auto before = testing::snapshot_all(world.store);
  // `a` runs the NewOwner towards b (a recovery task), so b's lease is a target condition.
  expect_conflict_unchanged(a.authority.new_owner(active, stale), ConflictCause::kTargetLeaseInvalid,
                            before);
}

TEST_F(AuthorityOpsTest, NewOwnerWithAStaleRowVersionConflicts) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  ASSERT_TRUE(a.authority.preserve(active, "p2").ok());
  const auto before = testing::snapshot_all(world.store);
  expect_conflict_unchanged(b.authority.new_owner(active, b.view()), ConflictCause::kVersionChanged,
                            before);
}

TEST_F(AuthorityOpsTest, NewOwnerToTheCurrentOwnerIsAnInternalError) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> result = a.authority.new_owner(active, a.view());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, NewOwnerOntoAFullTargetIsCapacityFull) {
  ASSERT_TRUE(a.authority.reserve(testing::actor_request("f1"), b.view()).ok());
  ASSERT_TRUE(a.authority.reserve(testing::actor_request("f2"), b.view()).ok());
  const AuthoritySnapshot active = active_actor(a, "u1");
  const NodeView view = b.view();
  const auto before = testing::snapshot_all(world.store);
  Result<AuthoritySnapshot> result = b.authority.new_owner(active, view);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::kCapacityFull);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
}

// ---- Delete -----------------------------------------------------------------------------------

TEST_F(AuthorityOpsTest, DeleteRemovesTheRowAndItsCapacityTogether) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  ASSERT_EQ(actors_on(a), 1);
  ASSERT_TRUE(a.authority.remove(active).ok());
  EXPECT_FALSE(testing::raw_read(world.store, active.key.store_key()).has_value());
  EXPECT_EQ(actors_on(a), 0);
}

TEST_F(AuthorityOpsTest, DeleteOnReservedIsWrongStateWithoutAWrite) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  const std::size_t writes = world.store.writes;
  Result<Done> result = a.authority.remove(reserved.value());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().cause, ConflictCause::kWrongState);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, DeleteWithAStaleVersionConflicts) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  ASSERT_TRUE(a.authority.preserve(active, "p2").ok());
  const auto before = testing::snapshot_all(world.store);
  expect_conflict_unchanged(a.authority.remove(active), ConflictCause::kVersionChanged, before);
}

TEST_F(AuthorityOpsTest, DeleteByANonOwnerIsRefused) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  const std::size_t writes = world.store.writes;
  Result<Done> result = b.authority.remove(active);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().cause, ConflictCause::kNotOwner);
  EXPECT_EQ(world.store.writes, writes);
}

TEST_F(AuthorityOpsTest, DeleteReplyLostIsResolvedByReread) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  ASSERT_TRUE(a.authority.remove(active).ok());
  EXPECT_EQ(actors_on(a), 0);
  EXPECT_FALSE(testing::raw_read(world.store, active.key.store_key()).has_value());
}

// An Abort that also puts a record (a creation's final result) and got no answer: before its
// re-read another writer removed the row (an abandoned creation cancelled). The row is gone either
// way, but the attached record is not stored, so the Abort did not apply: a Conflict (superseded),
// never "applied" — else a final result would be reported that no write stored (create-storm
// seed 519, exactly-one-creation).
TEST_F(AuthorityOpsTest, ALostAbortWhoseRowAnotherWriterRemovedIsNotTakenAsApplied) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  const store::Key row_key = reserved.value().key.store_key();
  const store::Key result_key = "final-result/u1";
  world.store.write_faults.push_back({StoreFault::Kind::kLoseRequest, 0, 0});
  bool removed = false;
  world.store.before_read = [&](const store::Key& key) {
    if (key == row_key && !removed) {
      removed = true;
      testing::raw_delete(world.store, row_key);  // another writer's removal, before our re-read
    }
  };
  Result<Done> aborted = a.authority.abort(reserved.value(), {store::Put{result_key, "rejected"}});
  world.store.before_read = nullptr;
  ASSERT_TRUE(removed);
  ASSERT_FALSE(aborted.ok());
  EXPECT_EQ(aborted.error().kind, ErrorKind::kConflict) << describe(aborted.error());
  EXPECT_FALSE(testing::raw_read(world.store, result_key).has_value());
  EXPECT_EQ(world.events.of_kind(kinds::kAuthorityAbort).back().str("outcome"), "conflict");
}

// The same lost Abort when it did apply: its attached record is there, so it is applied.
TEST_F(AuthorityOpsTest, ALostAbortThatAppliedIsResolvedByItsAttachedRecord) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  ASSERT_TRUE(a.authority.abort(reserved.value(), {store::Put{"final-result/u1", "rejected"}}).ok());
  EXPECT_EQ(world.events.of_kind(kinds::kAuthorityAbort).back().num("resolved"), 1);
  EXPECT_EQ(actors_on(a), 0);
}

TEST_F(AuthorityOpsTest, ALocationRecordDoesNotExpireWithItsOwnerLease) {
  const AuthoritySnapshot active = active_actor(a, "u1");
  world.clock.advance(seconds(3600));  // a's lease is long over
  Result<AuthorityRead> read = b.authority.read(active.key);
  ASSERT_TRUE(read.ok());
  ASSERT_TRUE(read.value().current.has_value());
  EXPECT_EQ(read.value().current->version, active.version);
}

}  // namespace
}  // namespace spotcheck::location
