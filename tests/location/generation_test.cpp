// Generations (§3.2): ObjectGeneration from the store-wide sequence in the Reserve request,
// AuthorityOwnerGeneration per owner change, the three generations never swap, and exhaustion at
// 2^63-1 leaves the store unchanged with the same result on retry.
#include <gtest/gtest.h>

#include "impl/platform/event_kinds.h"
#include "impl/location/generation/generation_counter.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/limits.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::TestNode;
using testing::World;

TEST(GenerationCounter, NextIsValuePlusOneUpToTwoToTheSixtyThreeMinusTwo) {
  CounterRead counter{"k", 0, std::nullopt, 0};
  EXPECT_EQ(next_generation(counter).value(), 1U);
  counter.value = records::kGenerationMax - 1;
  EXPECT_EQ(next_generation(counter).value(), records::kGenerationMax);
  counter.value = records::kGenerationMax;
  EXPECT_EQ(next_generation(counter).error().kind, ErrorKind::kGenerationExhausted);
  counter.value = records::kGenerationExhausted;
  EXPECT_EQ(next_generation(counter).error().kind, ErrorKind::kGenerationExhausted);
}

TEST(GenerationCounter, AnIncrementPastTheMaxIsRefusedByTheStoreToo) {
  // Even a framework that skipped the local check cannot issue the sentinel: the bounded
  // Increment makes the whole write Conflict{kBoundExceeded}, and nothing changes.
  World world;
  const store::Key key = keys::object_generation_counter();
  testing::raw_put(world.store, key, std::to_string(records::kGenerationMax));
  const auto before = testing::snapshot_all(world.store);
  store::WriteRequest request{{}, {store::Put{"x", "y"}, counter_increment(key)}};
  const store::WriteResult result = world.store.write(request, platform::kNever);
  const auto* conflict = std::get_if<store::Conflict>(&result);
  ASSERT_NE(conflict, nullptr);
  EXPECT_EQ(conflict->reason, store::Conflict::Reason::kBoundExceeded);
  EXPECT_EQ(testing::snapshot_all(world.store), before);
}

class GenerationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a.start();
    b.start();
  }
  World world;
  LocationConfig config;
  TestNode a{world, config, 1, {.rid = "aa01"}};
  TestNode b{world, config, 2, {.rid = "bb02"}};
};

TEST_F(GenerationTest, ObjectGenerationComesFromOneStoreWideSequence) {
  std::uint64_t last = 0;
  for (int i = 0; i < 6; ++i) {
    ReserveRequest request = i % 2 == 0 ? testing::actor_request("actor-" + std::to_string(i))
                                        : testing::room_request("room-" + std::to_string(i));
    TestNode& by = i % 3 == 0 ? a : b;
    Result<AuthoritySnapshot> reserved = by.authority.reserve(request, (i % 2 == 0 ? a : b).view());
    ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
    EXPECT_EQ(reserved.value().record.object_generation, last + 1);
    last = reserved.value().record.object_generation;
  }
  EXPECT_EQ(testing::counter_value(world.store, keys::object_generation_counter()), 6);
}

TEST_F(GenerationTest, ReCreatingTheSameIdGivesANewObjectGenerationAndOwnerGenerationOne) {
  Result<AuthoritySnapshot> first = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(first.ok());
  Result<AuthoritySnapshot> active = a.authority.commit(first.value());
  ASSERT_TRUE(active.ok());
  Result<AuthoritySnapshot> moved = b.authority.new_owner(active.value(), b.view());
  ASSERT_TRUE(moved.ok());
  ASSERT_TRUE(b.authority.remove(moved.value()).ok());
  Result<AuthoritySnapshot> second = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(second.ok());
  EXPECT_GT(second.value().record.object_generation, first.value().record.object_generation);
  EXPECT_EQ(second.value().record.authority_owner_generation, 1U);
}

TEST_F(GenerationTest, TheThreeGenerationsNeverSwap) {
  // Spread the counters apart so a swap would show: 5 more host runs, 10 more objects.
  for (int i = 0; i < 5; ++i) {
    TestNode extra(world, config, 100 + i, {.rid = "ee0" + std::to_string(i)});
    extra.start();
  }
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(a.authority.reserve(testing::actor_request("filler-" + std::to_string(i)), a.view()).ok());
  }
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  Result<AuthoritySnapshot> active = a.authority.commit(reserved.value());
  ASSERT_TRUE(active.ok());
  Result<AuthoritySnapshot> moved = b.authority.new_owner(active.value(), b.view());
  ASSERT_TRUE(moved.ok());
  Result<AuthoritySnapshot> back = a.authority.new_owner(moved.value(), a.view());
  ASSERT_TRUE(back.ok());
  const records::AuthorityRecord& record = back.value().record;
  EXPECT_EQ(record.object_generation, 11U);                       // the object sequence
  EXPECT_EQ(record.authority_owner_generation, 3U);               // two owner changes
  EXPECT_EQ(record.owner_lease_generation, a.lease.host_run().lease_generation);  // host run: 1
  EXPECT_EQ(a.lease.host_run().lease_generation, 1U);
  EXPECT_EQ(b.lease.host_run().lease_generation, 2U);
  EXPECT_EQ(testing::counter_value(world.store, keys::lease_generation_counter()), 7);
  EXPECT_EQ(testing::counter_value(world.store, keys::object_generation_counter()), 11);
}

TEST_F(GenerationTest, ObjectGenerationExhaustionChangesNothingAndRepeats) {
  testing::raw_put(world.store, keys::object_generation_counter(),
                   std::to_string(records::kGenerationMax));
  const NodeView view = a.view();
  const auto before = testing::snapshot_all(world.store);
  for (int attempt = 0; attempt < 3; ++attempt) {
    Result<AuthoritySnapshot> result = a.authority.reserve(testing::actor_request("u1"), view);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::kGenerationExhausted);
    EXPECT_EQ(testing::snapshot_all(world.store), before);
  }
  EXPECT_EQ(world.events.count(kinds::kGenerationExhausted), 3U);
}

TEST_F(GenerationTest, AuthorityOwnerGenerationExhaustionChangesNothing) {
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("u1"), a.view());
  ASSERT_TRUE(reserved.ok());
  Result<AuthoritySnapshot> active = a.authority.commit(reserved.value());
  ASSERT_TRUE(active.ok());
  // An Active row whose owner generation is already the last issuable value.
  records::AuthorityRecord record = active.value().record;
  record.authority_owner_generation = records::kGenerationMax;
  testing::raw_put(world.store, active.value().key.store_key(), records::encode(record));
  Result<AuthorityRead> read = b.authority.read(active.value().key);
  ASSERT_TRUE(read.ok());
  const auto before = testing::snapshot_all(world.store);
  const NodeView view = b.view();
  for (int attempt = 0; attempt < 2; ++attempt) {
    Result<AuthoritySnapshot> moved = b.authority.new_owner(*read.value().current, view);
    ASSERT_FALSE(moved.ok());
    EXPECT_EQ(moved.error().kind, ErrorKind::kGenerationExhausted);
    EXPECT_EQ(testing::snapshot_all(world.store), before);
  }
}

}  // namespace
}  // namespace spotcheck::location
