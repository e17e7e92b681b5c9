// Fencing (§5): admission is checked again right before every store write of a blocked operation,
// after its last blocking read. A host paused (or answered slowly) past its admission deadline
// between the first check and the write never sends the write — even when the store would still
// have applied it because the lease record itself has not expired yet.
#include <gtest/gtest.h>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/shutdown/owner_sweep.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::StoreFault;
using testing::TestNode;
using testing::World;
using platform::millis;
using platform::seconds;

class FencingGap : public ::testing::Test {
 protected:
  void SetUp() override { a.start(); }

  // The next store read is answered only after `node`'s admission deadline has passed.
  void answer_next_read_past_the_deadline(const TestNode& node) {
    const TimeUs late_by_us = node.lease.admission_deadline_us() - world.clock.now_us() + millis(1);
    ASSERT_GT(late_by_us, 0);
    world.store.read_faults.push_back({StoreFault::Kind::kSlow, 0, late_by_us});
  }

  // Past the local deadline, yet the store would still accept a write conditioned on the lease.
  void expect_store_would_still_accept(const TestNode& node) {
    EXPECT_FALSE(node.lease.admission_open());
    EXPECT_LT(testing::kEpochBaseMs + world.clock.now_us() / 1000, node.lease.expires_at_ms());
  }

  std::size_t refusals(std::string_view op) const {
    std::size_t count = 0;
    for (const testing::RecordedEvent& event : world.events.of_kind(kinds::kAdmissionRefused)) {
      count += event.str("op") == op ? 1 : 0;
    }
    return count;
  }

  check::ScopedAssertionHandler _throwing{&check::throw_invariant_violation};
  World world;
  const LocationConfig config{};  // {}: clang refuses a const member without an initializer
  TestNode a{world, config, 1, {.rid = "aa01"}};
};

TEST_F(FencingGap, ReserveWhoseCounterReadEndsPastTheDeadlineWritesNothing) {
  const NodeView target = a.view();
  ASSERT_TRUE(a.lease.admission_open());
  answer_next_read_past_the_deadline(a);  // Reserve's read of the ObjectGeneration counter
  const auto before = testing::snapshot_all(world.store);
  const std::size_t writes = world.store.writes;
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("p1"), target);
  ASSERT_FALSE(reserved.ok());
  EXPECT_EQ(reserved.error().kind, ErrorKind::kAdmissionClosed);
  expect_store_would_still_accept(a);
  EXPECT_EQ(world.store.writes, writes);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
  EXPECT_EQ(refusals("reserve"), 1U);
  const testing::RecordedEvent event = world.events.of_kind(kinds::kAuthorityReserve).back();
  EXPECT_EQ(event.str("outcome"), "admission_closed");
}

TEST_F(FencingGap, DescriptorUpdateWhoseRowReadEndsPastTheDeadlineWritesNothing) {
  records::MeshNodeDescriptorRecord changed = a.publisher.descriptor();
  changed.placement_weight = 7;
  answer_next_read_past_the_deadline(a);  // publish's read of our descriptor row
  const auto before = testing::snapshot_all(world.store);
  const std::size_t writes = world.store.writes;
  Result<PublishOutcome> published = a.publisher.update(changed);
  ASSERT_FALSE(published.ok());
  EXPECT_EQ(published.error().kind, ErrorKind::kAdmissionClosed);
  expect_store_would_still_accept(a);
  EXPECT_EQ(world.store.writes, writes);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
  EXPECT_EQ(refusals("descriptor_publish"), 1U);
  EXPECT_EQ(world.events.of_kind(kinds::kDescriptorPublished).back().str("outcome"),
            "admission_closed");
}

TEST_F(FencingGap, TakeoverWhosePreviousLeaseReadEndsPastTheDeadlineWritesNothing) {
  // b published on rid bb02 and its lease ended; c (same rid) takes over — but c's read of b's
  // lease record is answered only after c's own deadline.
  TestNode b(world, config, 2, {.rid = "bb02"});
  b.start();
  world.clock.advance(seconds(16));  // b's lease (and a's) ended
  TestNode c(world, config, 3, {.rid = "bb02"});
  ASSERT_TRUE(c.lease.register_lease().ok());
  ASSERT_TRUE(c.publisher.prepare(testing::make_descriptor(c.spec)).ok());
  world.store.read_faults.push_back({StoreFault::Kind::kSlow, 0, 0});  // the row: on time
  answer_next_read_past_the_deadline(c);                                // b's lease: late
  const std::size_t writes = world.store.writes;
  Result<PublishOutcome> published = c.publisher.publish();
  ASSERT_FALSE(published.ok());
  EXPECT_EQ(published.error().kind, ErrorKind::kAdmissionClosed);
  expect_store_would_still_accept(c);
  EXPECT_EQ(world.store.writes, writes);
  // b's descriptor is still there: the takeover was never sent.
  const std::optional<store::Found> row =
      testing::raw_read(world.store, records::mesh_node_preimage("game", "bb02"));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(records::decode_mesh_node_descriptor_record(row->value).value().owner_id,
            b.lease.host_run().owner_id);
}

TEST_F(FencingGap, SweepWhoseRowReReadEndsPastTheDeadlineDeletesNothing) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("p1"), a.view());
  ASSERT_TRUE(reserved.ok());
  answer_next_read_past_the_deadline(a);  // the sweep's re-read of the listed row
  const std::size_t writes = world.store.writes;
  Result<SweepReport> swept = sweep_owner_authority(world.store, a.host.platform, config, a.lease, a.authority);
  ASSERT_TRUE(swept.ok());
  EXPECT_EQ(swept.value().candidates, 1U);
  EXPECT_EQ(swept.value().deleted, 0U);
  EXPECT_EQ(swept.value().failed, 1U);
  EXPECT_EQ(world.store.writes, writes);
  EXPECT_TRUE(testing::raw_read(world.store, reserved.value().key.store_key()).has_value());
  EXPECT_EQ(refusals("sweep_delete"), 1U);
}

// The control: the same slow read that still ends before the deadline lets the write through.
TEST_F(FencingGap, ASlowReadEndingBeforeTheDeadlineStillWrites) {
  const NodeView target = a.view();
  const TimeUs early_us = a.lease.admission_deadline_us() - world.clock.now_us() - millis(1);
  world.store.read_faults.push_back({StoreFault::Kind::kSlow, 0, early_us});
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("p1"), target);
  ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
  EXPECT_TRUE(a.lease.admission_open());
  EXPECT_EQ(refusals("reserve"), 0U);
}

}  // namespace
}  // namespace spotcheck::location
