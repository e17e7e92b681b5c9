// MeshNode descriptors (§4): whole-descriptor startup check, Revision no-op, takeover only after
// lease end, Revision exhaustion, and the same-point-in-time list with direct lease checks.
#include <gtest/gtest.h>

#include "impl/location/descriptor/descriptor_list.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/keys.h"
#include "impl/records/limits.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::TestNode;
using testing::World;
using platform::seconds;

store::Key descriptor_key(const std::string& mesh, const std::string& rid) {
  return records::mesh_node_preimage(mesh, rid);
}

TEST(DescriptorPublisher, PublishesTheWholeDescriptorWithTheHostRun) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  a.start();
  const std::optional<store::Found> row = testing::raw_read(world.store, descriptor_key("game", "aa01"));
  ASSERT_TRUE(row.has_value());
  records::RecordResult<records::MeshNodeDescriptorRecord> stored =
      records::decode_mesh_node_descriptor_record(row->value);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored.value().owner_id, a.lease.host_run().owner_id);
  EXPECT_EQ(stored.value().lease_generation, a.lease.host_run().lease_generation);
  EXPECT_EQ(stored.value().descriptor_revision, 1U);
  EXPECT_EQ(stored.value().object_capabilities.size(), 3U);
  const testing::RecordedEvent event = world.events.of_kind(kinds::kDescriptorPublished).back();
  EXPECT_EQ(event.str("outcome"), "published");
  EXPECT_EQ(event.num("revision"), 1);
}

TEST(DescriptorPublisher, SameRevisionIsAHarmlessNoOpEvenWhenReplayed) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  a.start();
  const std::optional<store::Found> before = testing::raw_read(world.store, descriptor_key("game", "aa01"));
  const std::size_t writes = world.store.writes;
  for (int replay = 0; replay < 3; ++replay) {
    world.clock.advance(seconds(1));
    Result<PublishOutcome> again = a.publisher.publish();
    ASSERT_TRUE(again.ok()) << describe(again.error());
    EXPECT_EQ(again.value(), PublishOutcome::kIgnoredStale);
  }
  EXPECT_EQ(world.store.writes, writes);
  const std::optional<store::Found> after = testing::raw_read(world.store, descriptor_key("game", "aa01"));
  EXPECT_EQ(after->value, before->value);
  EXPECT_EQ(after->version, before->version);
  EXPECT_EQ(world.events.of_kind(kinds::kDescriptorPublished).back().str("outcome"), "ignored_stale");
}

TEST(DescriptorPublisher, ChangingContentNeedsTheNextRevision) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  a.start();
  records::MeshNodeDescriptorRecord changed = a.publisher.descriptor();
  changed.state = records::DescriptorState::kDraining;
  Result<PublishOutcome> updated = a.publisher.update(changed);
  ASSERT_TRUE(updated.ok());
  EXPECT_EQ(updated.value(), PublishOutcome::kPublished);
  EXPECT_EQ(a.publisher.revision(), 2U);
  const records::MeshNodeDescriptorRecord stored =
      records::decode_mesh_node_descriptor_record(
          testing::raw_read(world.store, descriptor_key("game", "aa01"))->value)
          .value();
  EXPECT_EQ(stored.descriptor_revision, 2U);
  EXPECT_EQ(stored.state, records::DescriptorState::kDraining);
}

TEST(DescriptorPublisher, TooManyCapabilitiesFailStartupAndNothingIsPublished) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  ASSERT_TRUE(a.lease.register_lease().ok());
  records::MeshNodeDescriptorRecord descriptor = testing::make_descriptor(a.spec);
  descriptor.object_capabilities.clear();
  for (std::size_t i = 0; i < records::kCapabilityEntriesMax + 1; ++i) {
    descriptor.object_capabilities.push_back(
        {records::ObjectKind::kActor, "T" + std::to_string(i), records::CapabilityPolicy::kDisabled, false, 0});
  }
  Result<Done> prepared = a.publisher.prepare(descriptor);
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_FALSE(a.publisher.prepared());
  EXPECT_TRUE(testing::list_range(world.store, keys::mesh_node_range_begin("game"),
                                  keys::mesh_node_range_end("game"))
                  .empty());
}

TEST(DescriptorPublisher, AnOverSizeDescriptorFailsStartupAndNothingIsPublished) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  ASSERT_TRUE(a.lease.register_lease().ok());
  records::MeshNodeDescriptorRecord descriptor = testing::make_descriptor(a.spec);
  descriptor.endpoint = "tcp://" + std::string(records::kDescriptorBytesMax, 'x');
  const std::size_t writes = world.store.writes;
  Result<Done> prepared = a.publisher.prepare(descriptor);
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(world.store.writes, writes);
  EXPECT_FALSE(testing::raw_read(world.store, descriptor_key("game", "aa01")).has_value());
}

TEST(DescriptorPublisher, ADescriptorJustUnderTheLimitIsPublished) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  ASSERT_TRUE(a.lease.register_lease().ok());
  records::MeshNodeDescriptorRecord descriptor = testing::make_descriptor(a.spec);
  descriptor.endpoint = "tcp://" + std::string(records::kDescriptorBytesMax - 4096, 'x');
  ASSERT_TRUE(a.publisher.prepare(descriptor).ok());
  Result<PublishOutcome> published = a.publisher.publish();
  ASSERT_TRUE(published.ok());
  EXPECT_EQ(published.value(), PublishOutcome::kPublished);
}

TEST(DescriptorPublisher, AnotherLiveHostRunKeepsItsDescriptor) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  a.start();
  TestNode restarted(world, config, 2, {.rid = "aa01", .lifecycle_generation = 2});
  ASSERT_TRUE(restarted.lease.register_lease().ok());
  ASSERT_TRUE(restarted.publisher.prepare(testing::make_descriptor(restarted.spec)).ok());
  const auto before = testing::snapshot_all(world.store);
  Result<PublishOutcome> result = restarted.publisher.publish();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().cause, ConflictCause::kOwnedByOtherHost);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
}

TEST(DescriptorPublisher, ADescriptorWhoseLeaseEndedIsTakenOver) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  a.start();
  world.clock.advance(seconds(16));  // a's lease ends unrenewed (a crashed)
  TestNode restarted(world, config, 2, {.rid = "aa01", .lifecycle_generation = 2});
  restarted.start();
  EXPECT_EQ(world.events.of_kind(kinds::kDescriptorPublished).back().str("outcome"), "taken_over");
  const records::MeshNodeDescriptorRecord stored =
      records::decode_mesh_node_descriptor_record(
          testing::raw_read(world.store, descriptor_key("game", "aa01"))->value)
          .value();
  EXPECT_EQ(stored.owner_id, restarted.lease.host_run().owner_id);
  EXPECT_EQ(stored.lifecycle_generation, 2U);
}

TEST(DescriptorPublisher, RevisionExhaustionSwitchesToErrorAndStopsPublishing) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  ASSERT_TRUE(a.lease.register_lease().ok());
  records::MeshNodeDescriptorRecord descriptor = testing::make_descriptor(a.spec);
  descriptor.descriptor_revision = records::kRevisionMax;
  ASSERT_TRUE(a.publisher.prepare(descriptor).ok());
  ASSERT_TRUE(a.publisher.publish().ok());
  const auto before = testing::snapshot_all(world.store);
  Result<PublishOutcome> updated = a.publisher.update(testing::make_descriptor(a.spec));
  ASSERT_FALSE(updated.ok());
  EXPECT_TRUE(a.publisher.stopped());
  EXPECT_EQ(a.publisher.descriptor().state, records::DescriptorState::kError);
  EXPECT_FALSE(a.publisher.publish().ok());
  EXPECT_EQ(testing::snapshot_all(world.store), before);
}

TEST(DescriptorList, ReadsOneMeshAndChecksEachLeaseDirectly) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  TestNode b(world, config, 2, {.rid = "bb02"});
  a.start();
  b.start();
  world.clock.advance(seconds(12));
  ASSERT_TRUE(a.lease.renew().ok());  // b does not renew: its lease ends at 16 s
  world.clock.advance(seconds(5));
  TestNode other_mesh(world, config, 3, {.mesh = "gamex", .rid = "cc03"});
  other_mesh.start();
  Result<DescriptorList> list = read_descriptor_list(world.store, a.host.platform, config, "game");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list.value().nodes.size(), 2U);  // "gamex" shares the prefix "game" but is not listed
  EXPECT_EQ(list.value().nodes[0].descriptor.routing_id_hex, "aa01");
  EXPECT_TRUE(list.value().nodes[0].lease_valid);
  EXPECT_EQ(list.value().nodes[1].descriptor.routing_id_hex, "bb02");
  EXPECT_FALSE(list.value().nodes[1].lease_valid);
  EXPECT_EQ(list.value().nodes[0].lease_version,
            testing::raw_read(world.store, a.lease.record_key())->version);
}

TEST(DescriptorList, ManyPagesFormOneList) {
  World world;
  const LocationConfig config;
  TestNode a(world, config, 1, {.rid = "aa01"});
  a.start();
  // 1,204 more descriptors of the same host run (written directly) span two pages.
  records::MeshNodeDescriptorRecord descriptor = a.publisher.descriptor();
  for (int i = 0; i < 1204; ++i) {
    char rid[16];
    std::snprintf(rid, sizeof(rid), "%06x", i + 0x100000);
    descriptor.routing_id_hex = rid;
    descriptor.entry_spot_id = std::string("entry:") + rid;
    testing::raw_put(world.store, descriptor_key("game", rid), records::encode(descriptor));
  }
  Result<DescriptorList> list = read_descriptor_list(world.store, a.host.platform, config, "game");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list.value().nodes.size(), 1205U);
  EXPECT_EQ(list.value().pages, 2U);
  for (const NodeView& node : list.value().nodes) {
    EXPECT_TRUE(node.lease_valid);
  }
}

}  // namespace
}  // namespace spotcheck::location
