// The end-of-run capacity audit reads a store directly: counters must equal the allocations of
// the authority rows it holds.
#include <gtest/gtest.h>

#include <variant>

#include "impl/location/keys/counter_keys.h"
#include "impl/platform/time.h"
#include "impl/records/authority_record.h"
#include "impl/records/keys.h"
#include "impl/store/memory/memory_location_store.h"
#include "properties/audit/capacity_audit.h"

namespace spotcheck::properties::testing {
namespace {

class CapacityAudit : public ::testing::Test {
 protected:
  store::memory::MemoryLocationStore store{[] { return store::StoreNowMs{1'000'000}; }};

  void put_row(const std::string& id, records::ObjectKind kind, const std::string& rid, std::uint64_t object_gen) {
    records::AuthorityRecord row;
    row.payload = "p";
    row.object_generation = object_gen;
    row.authority_owner_generation = 1;
    row.owner_id = "0f0e0d0c-0b0a-4908-8706-050403020100";
    row.owner_lease_generation = 1;
    row.allocation.state = records::AllocationState::kActive;
    row.allocation.object_kind = kind;
    row.allocation.stable_type = kind == records::ObjectKind::kActor ? "Player" : "Room";
    row.allocation.descriptor = records::AllocationDescriptor{"sim", rid};
    row.allocation.descriptor_lifecycle_generation = 1;
    if (kind == records::ObjectKind::kActor) {
      row.allocation.capacity = records::AllocationCapacity{1, 0, std::nullopt};
    } else {
      row.allocation.capacity = records::AllocationCapacity{0, 1, records::SpotTypeSlot{kind, "Room", 1}};
    }
    const records::AuthorityKind key_kind =
        kind == records::ObjectKind::kActor ? records::AuthorityKind::kActor : records::AuthorityKind::kSpot;
    write({store::Put{records::authority_preimage(key_kind, id), records::encode(row)}});
  }

  void add_counter(const std::string& key, std::int64_t delta) {
    write({store::Increment{key, delta, 0, 1'000'000}});
  }

  void write(std::vector<store::Mutation> mutations) {
    store::WriteRequest request{{}, std::move(mutations)};
    ASSERT_TRUE(std::holds_alternative<store::Applied>(store.write(request, platform::kNever)));
  }
};

TEST_F(CapacityAudit, ConsistentStorePasses) {
  put_row("player:1", records::ObjectKind::kActor, "00a1", 1);
  put_row("player:2", records::ObjectKind::kActor, "00a1", 2);
  put_row("room:1", records::ObjectKind::kUserSpot, "00b1", 3);
  add_counter(location::keys::capacity_actors("sim", "00a1"), 2);
  add_counter(location::keys::capacity_spots("sim", "00b1"), 1);
  add_counter(location::keys::capacity_spot_type("sim", "00b1", records::ObjectKind::kUserSpot, "Room"), 1);
  // A counter released back to zero is consistent with no rows.
  add_counter(location::keys::capacity_actors("sim", "00c1"), 1);
  add_counter(location::keys::capacity_actors("sim", "00c1"), -1);

  const CapacityAuditResult audit = audit_capacity_counters(store, platform::kNever);
  EXPECT_TRUE(audit.ok()) << audit.violation().value_or("");
  EXPECT_EQ(audit.rows, 3u);
  EXPECT_EQ(audit.stored.size(), 4u);
  EXPECT_FALSE(audit.violation().has_value());
}

TEST_F(CapacityAudit, LeakedCounterIsFlagged) {
  put_row("player:1", records::ObjectKind::kActor, "00a1", 1);
  add_counter(location::keys::capacity_actors("sim", "00a1"), 2);  // one slot never released
  const CapacityAuditResult audit = audit_capacity_counters(store, platform::kNever);
  ASSERT_FALSE(audit.ok());
  ASSERT_EQ(audit.mismatches.size(), 1u);
  EXPECT_EQ(audit.mismatches[0].stored, 2);
  EXPECT_EQ(audit.mismatches[0].allocated, 1);
  const std::string text = audit.violation().value_or("");
  EXPECT_NE(text.find("capacity/sim/00a1/actors holds 2"), std::string::npos) << text;
  EXPECT_NE(text.find("place 1 slot(s)"), std::string::npos) << text;
}

TEST_F(CapacityAudit, RowWithoutItsCounterIsFlagged) {
  put_row("room:1", records::ObjectKind::kInstanceSpot, "00b1", 1);
  add_counter(location::keys::capacity_spots("sim", "00b1"), 1);
  const CapacityAuditResult audit = audit_capacity_counters(store, platform::kNever);
  ASSERT_EQ(audit.mismatches.size(), 1u);
  EXPECT_EQ(audit.mismatches[0].counter_key,
            location::keys::capacity_spot_type("sim", "00b1", records::ObjectKind::kInstanceSpot, "Room"));
  EXPECT_EQ(audit.mismatches[0].stored, 0);
}

TEST_F(CapacityAudit, ManyRowsAcrossScanPages) {
  constexpr int kRows = 1'234;  // more than one page of 1,000
  for (int i = 0; i < kRows; ++i) {
    put_row("player:" + std::to_string(i), records::ObjectKind::kActor, i % 2 == 0 ? "00a1" : "00b1",
            static_cast<std::uint64_t>(i + 1));
  }
  add_counter(location::keys::capacity_actors("sim", "00a1"), kRows / 2);
  add_counter(location::keys::capacity_actors("sim", "00b1"), kRows / 2);
  const CapacityAuditResult audit = audit_capacity_counters(store, platform::kNever);
  EXPECT_TRUE(audit.ok()) << audit.violation().value_or("");
  EXPECT_EQ(audit.rows, static_cast<std::size_t>(kRows));
}

TEST_F(CapacityAudit, UndecodableRowIsFlagged) {
  write({store::Put{records::authority_preimage(records::AuthorityKind::kActor, "junk"), "{not json"}});
  const CapacityAuditResult audit = audit_capacity_counters(store, platform::kNever);
  EXPECT_FALSE(audit.ok());
  EXPECT_EQ(audit.bad_rows.size(), 1u);
  EXPECT_NE(audit.violation().value_or("").find("does not decode"), std::string::npos);
}

}  // namespace
}  // namespace spotcheck::properties::testing
