// Property `store-truth`: the store's account (store.applied) against model/'s transitions, and
// the protocol's "applied" against the store's account.
#include <gtest/gtest.h>

#include "impl/records/authority_record.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::seconds;

PropertyOptions with_ground_truth() {
  PropertyOptions options = test_options();
  options.store_ground_truth = true;
  return options;
}

// The stored bytes of `row` (tests/properties/event_script.h Row).
std::string stored_bytes(const Row& row) {
  records::AuthorityRecord record;
  record.object_generation = static_cast<std::uint64_t>(row.object_gen);
  record.authority_owner_generation = static_cast<std::uint64_t>(row.owner_gen);
  record.owner_id = row.owner;
  record.owner_lease_generation = static_cast<std::uint64_t>(row.lease_gen);
  record.allocation.state = row.state == "active" ? records::AllocationState::kActive : records::AllocationState::kReserved;
  record.allocation.object_kind = records::ObjectKind::kActor;
  record.allocation.stable_type = row.stable_type;
  record.allocation.descriptor = {row.mesh, row.rid};
  record.allocation.descriptor_lifecycle_generation = 1;
  record.allocation.capacity.actors = 1;
  return records::encode(record);
}

class StoreTruth : public ::testing::Test {
 protected:
  History h{with_ground_truth(), {"store-truth"}};
  Script& s = h.script;

  std::string key(const Row& row) const { return "authority/" + row.kind + "/" + row.id; }

  std::optional<std::string> put(TimeUs t_us, const Row& row, std::int64_t old_version, std::int64_t new_version) {
    return s.feed(t_us, -1, "store.applied",
                  {F::n("node", 0), F::s("key", key(row)), F::s("mutation", "put"), F::n("old_version", old_version),
                   F::n("new_version", new_version), F::s("value", stored_bytes(row)), F::n("mutations", 2),
                   F::n("store_now_ms", store_ms(t_us))});
  }
  std::optional<std::string> remove(TimeUs t_us, const Row& row, std::int64_t old_version) {
    return s.feed(t_us, -1, "store.applied",
                  {F::n("node", 0), F::s("key", key(row)), F::s("mutation", "delete"), F::n("old_version", old_version),
                   F::n("new_version", 0), F::s("value", ""), F::n("mutations", 2), F::n("store_now_ms", store_ms(t_us))});
  }

  static Row reserved(std::int64_t object_gen = 1) {
    Row r;
    r.object_gen = object_gen;
    r.state = "reserved";
    return r;
  }
  static Row active(std::int64_t object_gen = 1) {
    Row r = reserved(object_gen);
    r.state = "active";
    return r;
  }
};

TEST_F(StoreTruth, ALegalLifeWithTruthfulClaimsPasses) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = reserved(), .version = 3}));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 5));
  EXPECT_LEGAL(s.write(seconds(2), 0, Write{.op = "commit", .row = active(), .version = 5}));
  // A preserve, then a NewOwner to another host run with a higher owner generation.
  EXPECT_LEGAL(put(seconds(3), active(), 5, 6));
  Row moved = active();
  moved.owner = "owner-b";
  moved.lease_gen = 2;
  moved.owner_gen = 2;
  EXPECT_LEGAL(put(seconds(4), moved, 6, 8));
  EXPECT_LEGAL(remove(seconds(5), moved, 8));
  EXPECT_LEGAL(s.write(seconds(5), 1, Write{.op = "delete", .row = moved}));
  // Re-created with a higher ObjectGeneration; a resolved claim reports no version mismatch.
  EXPECT_LEGAL(put(seconds(6), reserved(2), 0, 9));
  EXPECT_LEGAL(s.write(seconds(6), 0, Write{.op = "reserve", .row = reserved(2), .resolved = true, .version = 9}));
}

TEST_F(StoreTruth, AnAppliedClaimTheStoreNeverSawIsFlagged) {
  expect_violation(h, s.write(seconds(1), 0, Write{.op = "commit", .row = active()}), "store-truth",
                   {"claims applied", "the store applied no write to authority/actor/player:1"});
}

TEST_F(StoreTruth, AClaimOfARowTheStoreDidNotStoreIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  // The Commit's reply was lost and taken as applied without a re-read: the row is still Reserved.
  expect_violation(h, s.write(seconds(2), 0, Write{.op = "commit", .row = active(), .resolved = true, .version = 0}),
                   "store-truth", {"claims applied (StoreVersion 0)", "never stored that row", "it holds Reserved", "#0"});
}

TEST_F(StoreTruth, AClaimWithAnotherStoreVersionIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  expect_violation(h, s.write(seconds(1), 0, Write{.op = "reserve", .row = reserved(), .version = 4}), "store-truth",
                   {"StoreVersion 4", "never stored that row"});
}

TEST_F(StoreTruth, ADeleteClaimWithoutARemovalIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 4));
  expect_violation(h, s.write(seconds(3), 0, Write{.op = "delete", .row = active()}), "store-truth",
                   {"never removed a row of object_gen 1"});
}

TEST_F(StoreTruth, AnIllegalTransitionIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 4));
  expect_violation(h, put(seconds(3), reserved(), 4, 5), "store-truth",
                   {"went Active", "-> Reserved", "no operation of §6.1"});
}

TEST_F(StoreTruth, AReCreationMustRaiseTheObjectGeneration) {
  EXPECT_LEGAL(put(seconds(1), reserved(4), 0, 3));
  EXPECT_LEGAL(remove(seconds(2), reserved(4), 3));
  expect_violation(h, put(seconds(3), reserved(4), 0, 5), "store-truth",
                   {"as a Reserve", "not above the ID's earlier ones (4)"});
}

TEST_F(StoreTruth, ANewOwnerMustRaiseTheOwnerGeneration) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 4));
  Row moved = active();
  moved.owner = "owner-b";
  expect_violation(h, put(seconds(3), moved, 4, 5), "store-truth", {"as a NewOwner", "raise AuthorityOwnerGeneration"});
}

TEST_F(StoreTruth, AWriteThatFoundAnotherVersionIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  expect_violation(h, put(seconds(2), active(), 2, 4), "store-truth",
                   {"found StoreVersion 2", "the last write the store applied left 3"});
}

TEST_F(StoreTruth, ARowThatDoesNotDecodeIsFlagged) {
  expect_violation(h,
                   s.feed(seconds(1), -1, "store.applied",
                          {F::n("node", 0), F::s("key", "authority/actor/x"), F::s("mutation", "put"),
                           F::n("old_version", 0), F::n("new_version", 1), F::s("value", "{}"), F::n("mutations", 1),
                           F::n("store_now_ms", store_ms(seconds(1)))}),
                   "store-truth", {"does not decode"});
}

TEST(StoreTruthOff, WithoutAStoreAccountNothingIsJudged) {
  History h{test_options(), {"store-truth"}};
  EXPECT_LEGAL(h.script.write(seconds(1), 0, Write{.op = "commit"}));
}

}  // namespace
}  // namespace spotcheck::properties::testing
