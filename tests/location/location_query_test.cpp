// Operational queries (spec §7.4): lookup by ActorId / SpotId and paged lists by object kind,
// stable type and MeshName, against a memory Location Store holding rows written by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "impl/location/instance/instance_request.h"
#include "impl/location/query/location_query.h"
#include "impl/location/query/query_continuation.h"
#include "impl/records/authority_record.h"
#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"
#include "impl/store/memory/memory_location_store.h"
#include "properties/audit/query_audit.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location::query {
namespace {

using records::AuthorityKind;
using records::ObjectKind;

constexpr std::int64_t kNowMs = 1'764'417'600'000;

// Fails or forgets scans on request, around a real store.
class FlakyStore final : public store::LocationStore {
 public:
  explicit FlakyStore(store::LocationStore& inner) : _inner(inner) {}
  store::ReadResult read(const store::Key& key, store::DeadlineUs deadline_us) override {
    if (fail_reads) {
      return store::StoreError{store::StoreErrorKind::kUnavailable, "down"};
    }
    if (hide_key.has_value() && key == *hide_key) {
      return store::Missing{kNowMs};
    }
    return _inner.read(key, deadline_us);
  }
  store::WriteResult write(const store::WriteRequest& request, store::DeadlineUs deadline_us) override {
    return _inner.write(request, deadline_us);
  }
  store::ScanResult scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) override {
    ++scans;
    if (fail_scan_at == scans) {
      return store::StoreError{store::StoreErrorKind::kUnavailable, "down"};
    }
    if (expire_scan_at == scans) {
      return store::ScanExpired{kNowMs};
    }
    store::ScanResult result = _inner.scan(request, deadline_us);
    auto* page = std::get_if<store::ScanPage>(&result);
    if (page != nullptr && drop_resumed && request.start.back() == '\0' && !page->entries.empty() &&
        request.start.size() > 20) {
      page->entries.erase(page->entries.begin());  // a resumed scan loses its first row
    }
    return result;
  }
  bool fail_reads = false;
  std::optional<store::Key> hide_key;  // reads of it answer Missing (scans still see it)
  bool drop_resumed = false;
  int fail_scan_at = 0;
  int expire_scan_at = 0;
  int scans = 0;

 private:
  store::LocationStore& _inner;
};

class LocationQueryTest : public ::testing::Test {
 protected:
  store::memory::MemoryLocationStore memory{[] { return kNowMs; }};
  FlakyStore store{memory};

  LocationQuery query(QueryLimits limits = {}) {
    return LocationQuery(store, [] { return platform::kNever; }, limits);
  }
  void lease(const std::string& owner, std::uint64_t generation, std::int64_t expires_at_ms) {
    records::OwnerLeaseRecord record{owner, generation, expires_at_ms, kNowMs - 1'000};
    testing::raw_put(memory, records::owner_lease_preimage(owner), records::encode(record));
  }
  // A row of `kind` placed on node `rid` of `mesh`, owned by owner-1/1 (whose lease is valid).
  void row(AuthorityKind authority, const std::string& id, ObjectKind kind, const std::string& type,
           records::AllocationState state = records::AllocationState::kActive, const std::string& mesh = "game",
           const std::string& owner = "owner-1", std::string payload = "") {
    records::AuthorityRecord record;
    record.object_generation = ++_generation;
    record.authority_owner_generation = 1;
    record.owner_id = owner;
    record.owner_lease_generation = 1;
    record.allocation.state = state;
    record.allocation.object_kind = kind;
    record.allocation.stable_type = type;
    record.allocation.descriptor = {mesh, "00000000000000a1"};
    record.allocation.descriptor_lifecycle_generation = 1;
    if (kind == ObjectKind::kActor) {
      record.allocation.capacity.actors = 1;
    } else {
      record.allocation.capacity.spots = 1;
      record.allocation.capacity.spot_type = records::SpotTypeSlot{kind, type, 1};
    }
    record.payload = std::move(payload);
    testing::raw_put(memory, records::authority_preimage(authority, id), records::encode(record));
  }
  void SetUp() override { lease("owner-1", 1, kNowMs + 10'000); }

  std::uint64_t _generation = 0;
};

TEST_F(LocationQueryTest, ALookupTellsActorFromSpotAndAMissingRecordIsEmpty) {
  row(AuthorityKind::kActor, "user:42", ObjectKind::kActor, "Player");
  row(AuthorityKind::kSpot, "user:42", ObjectKind::kUserSpot, "Room");
  LocationQuery q = query();
  const auto actor = q.lookup(AuthorityKind::kActor, "user:42");
  ASSERT_TRUE(actor.ok());
  ASSERT_TRUE(actor.value().has_value());
  EXPECT_EQ(actor.value()->object_kind, ObjectKind::kActor);
  EXPECT_EQ(actor.value()->stable_type, "Player");
  EXPECT_EQ(actor.value()->state, LocationState::kReady);
  EXPECT_EQ(actor.value()->mesh_name, "game");
  EXPECT_EQ(actor.value()->node_rid_hex, "00000000000000a1");
  const auto spot = q.lookup(AuthorityKind::kSpot, "user:42");
  ASSERT_TRUE(spot.ok() && spot.value().has_value());
  EXPECT_EQ(spot.value()->object_kind, ObjectKind::kUserSpot);
  const auto missing = q.lookup(AuthorityKind::kActor, "user:43");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing.value().has_value()) << "empty, never a Missing entry";
}

TEST_F(LocationQueryTest, StatesAreCreatingReadyOrUnavailableWhenTheOwnerIsGone) {
  row(AuthorityKind::kActor, "creating", ObjectKind::kActor, "Player", records::AllocationState::kReserved);
  row(AuthorityKind::kActor, "ready", ObjectKind::kActor, "Player");
  lease("owner-2", 1, kNowMs - 1);  // expired at StoreNow
  row(AuthorityKind::kActor, "expired", ObjectKind::kActor, "Player", records::AllocationState::kActive, "game",
      "owner-2");
  row(AuthorityKind::kActor, "no-lease", ObjectKind::kActor, "Player", records::AllocationState::kActive, "game",
      "owner-3");
  row(AuthorityKind::kSpot, "lost", ObjectKind::kInstanceSpot, "Chat", records::AllocationState::kActive, "game",
      "owner-1", instance::data_lost_marker("instance:lost:00", "missing"));
  LocationQuery q = query();
  const auto state = [&](AuthorityKind authority, const std::string& id) {
    const auto found = q.lookup(authority, id);
    EXPECT_TRUE(found.ok() && found.value().has_value()) << id;
    return found.ok() && found.value().has_value() ? found.value()->state : LocationState::kCreating;
  };
  EXPECT_EQ(state(AuthorityKind::kActor, "creating"), LocationState::kCreating);
  EXPECT_EQ(state(AuthorityKind::kActor, "ready"), LocationState::kReady);
  EXPECT_EQ(state(AuthorityKind::kActor, "expired"), LocationState::kUnavailable);
  EXPECT_EQ(state(AuthorityKind::kActor, "no-lease"), LocationState::kUnavailable);
  EXPECT_EQ(state(AuthorityKind::kSpot, "lost"), LocationState::kUnavailable);
}

TEST_F(LocationQueryTest, AStoreFailureIsAnErrorNeverAnEmptyAnswer) {
  row(AuthorityKind::kActor, "user:1", ObjectKind::kActor, "Player");
  store.fail_reads = true;
  const auto found = query().lookup(AuthorityKind::kActor, "user:1");
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().kind, ErrorKind::kStoreError);
}

// 2,500 actors in pages of 1,000: three pages, every ID once, in key order; each continuation
// at most 4,096 bytes; the last page has none.
TEST_F(LocationQueryTest, PagesCoverTheListOnceWithBoundedContinuations) {
  std::set<std::string> ids;
  for (int i = 0; i < 2'500; ++i) {
    const std::string id = "user:" + std::to_string(i);
    row(AuthorityKind::kActor, id, ObjectKind::kActor, "Player");
    ids.insert(id);
  }
  row(AuthorityKind::kSpot, "room:1", ObjectKind::kUserSpot, "Room");  // another kind: not listed
  LocationQuery q = query();
  std::set<std::string> seen;
  std::optional<std::string> token;
  int pages = 0;
  do {
    const auto page = q.list(ListFilter{ObjectKind::kActor, {}, {}}, 1'000, token);
    ASSERT_TRUE(page.ok()) << page.error().message;
    ++pages;
    EXPECT_GE(page.value().entries.size(), 1u);
    EXPECT_LE(page.value().entries.size(), 1'000u);
    for (const LocationEntry& entry : page.value().entries) {
      EXPECT_TRUE(seen.insert(entry.id).second) << "twice: " << entry.id;
      EXPECT_EQ(entry.object_kind, ObjectKind::kActor);
    }
    token = page.value().continuation;
    if (token.has_value()) {
      EXPECT_LE(token->size(), kContinuationBytesMax);
    }
  } while (token.has_value() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen, ids);
}

TEST_F(LocationQueryTest, FiltersByStableTypeAndMeshName) {
  row(AuthorityKind::kSpot, "a", ObjectKind::kUserSpot, "Room", records::AllocationState::kActive, "game");
  row(AuthorityKind::kSpot, "b", ObjectKind::kUserSpot, "Lobby", records::AllocationState::kActive, "game");
  row(AuthorityKind::kSpot, "c", ObjectKind::kUserSpot, "Room", records::AllocationState::kActive, "chat");
  row(AuthorityKind::kSpot, "d", ObjectKind::kInstanceSpot, "Room", records::AllocationState::kActive, "game");
  LocationQuery q = query();
  const auto ids = [&](const ListFilter& filter) {
    std::vector<std::string> out;
    const auto page = q.list(filter, 10);
    EXPECT_TRUE(page.ok());
    if (page.ok()) {
      EXPECT_FALSE(page.value().continuation.has_value());
      for (const LocationEntry& entry : page.value().entries) {
        out.push_back(entry.id);
      }
    }
    return out;
  };
  EXPECT_EQ(ids({ObjectKind::kUserSpot, {}, {}}), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(ids({ObjectKind::kUserSpot, "Room", {}}), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(ids({ObjectKind::kUserSpot, "Room", "game"}), (std::vector<std::string>{"a"}));
  EXPECT_EQ(ids({ObjectKind::kInstanceSpot, {}, {}}), (std::vector<std::string>{"d"}));
}

TEST_F(LocationQueryTest, ThePageByteBoundStartsTheNextPageAtTheEntryThatWouldCrossIt) {
  for (int i = 0; i < 5; ++i) {
    row(AuthorityKind::kActor, "user:" + std::to_string(i), ObjectKind::kActor, "Player");
  }
  const LocationEntry sample{AuthorityKind::kActor, "user:0", ObjectKind::kActor, "Player", 1, "game",
                             "00000000000000a1", LocationState::kReady};
  QueryLimits limits;
  limits.page_bytes_max = 2 * encoded_size(sample) + 1;  // two entries fit, the third crosses
  LocationQuery q = query(limits);
  const auto first = q.list(ListFilter{ObjectKind::kActor, {}, {}}, 1'000);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first.value().entries.size(), 2u);
  const auto second = q.list(ListFilter{ObjectKind::kActor, {}, {}}, 1'000, first.value().continuation);
  ASSERT_TRUE(second.ok());
  ASSERT_FALSE(second.value().entries.empty());
  EXPECT_EQ(second.value().entries.front().id, "user:2");
}

TEST_F(LocationQueryTest, AnAlteredOrForeignContinuationIsRefused) {
  for (int i = 0; i < 3; ++i) {
    row(AuthorityKind::kActor, "user:" + std::to_string(i), ObjectKind::kActor, "Player");
  }
  LocationQuery q = query();
  const ListFilter actors{ObjectKind::kActor, {}, {}};
  const auto first = q.list(actors, 1);
  ASSERT_TRUE(first.ok() && first.value().continuation.has_value());
  std::string altered = *first.value().continuation;
  altered[altered.size() / 2] = altered[altered.size() / 2] == '0' ? '1' : '0';
  const auto refused = q.list(actors, 1, altered);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument);
  const auto foreign = q.list(ListFilter{ObjectKind::kActor, "Player", {}}, 1, first.value().continuation);
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_FALSE(q.list(actors, 0).ok());
  EXPECT_FALSE(q.list(actors, 1'001).ok());
  EXPECT_FALSE(q.list(ListFilter{ObjectKind::kActor, "", {}}, 1).ok());
  EXPECT_FALSE(q.list(actors, 1, std::string(5'000, 'a')).ok());
}

// A failed store page ends the whole list page as an error (no partial entries); a forgotten
// scan starts over after the last key read, so no ID comes twice.
TEST_F(LocationQueryTest, AFailedScanIsAnErrorAndAForgottenOneResumesWithoutDuplicates) {
  for (int i = 0; i < 1'500; ++i) {
    row(AuthorityKind::kActor, "user:" + std::to_string(i), ObjectKind::kActor, "Player");
  }
  LocationQuery q = query();
  store.fail_scan_at = 2;
  const auto failed = q.list(ListFilter{ObjectKind::kActor, {}, {}}, 1'000);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::kStoreError);
  store.scans = 0;
  store.fail_scan_at = 0;
  store.expire_scan_at = 2;
  std::set<std::string> seen;
  std::optional<std::string> token;
  for (int page = 0; page < 5; ++page) {
    // The first page's second store page (the scan continued past its 1,000th row) is forgotten.
    const auto listed = q.list(ListFilter{ObjectKind::kActor, {}, {}}, 1'000, token);
    ASSERT_TRUE(listed.ok()) << listed.error().message;
    for (const LocationEntry& entry : listed.value().entries) {
      EXPECT_TRUE(seen.insert(entry.id).second) << "twice: " << entry.id;
    }
    token = listed.value().continuation;
    if (!token.has_value()) {
      break;
    }
  }
  EXPECT_EQ(seen.size(), 1'500u);
  EXPECT_GE(store.scans, 4) << "the forgotten scan was started over";
}

// The end-of-run audit (properties/audit/query_audit.h) passes on a store that answers honestly,
// and catches a query whose answers part from the store's rows.
TEST_F(LocationQueryTest, TheQueryAuditPassesOnTheStoresTruth) {
  for (int i = 0; i < 7; ++i) {
    row(AuthorityKind::kActor, "user:" + std::to_string(i), ObjectKind::kActor, "Player");
  }
  row(AuthorityKind::kActor, "creating", ObjectKind::kActor, "Player", records::AllocationState::kReserved);
  row(AuthorityKind::kSpot, "room", ObjectKind::kUserSpot, "Room", records::AllocationState::kActive, "game", "gone");
  const properties::QueryAuditResult audit = properties::audit_location_queries(store, platform::kNever);
  EXPECT_TRUE(audit.ok()) << audit.violation().value_or("");
  EXPECT_EQ(audit.rows, 9u);
  EXPECT_GE(audit.pages, 4u) << "pages of 3: the continuations are walked";
}

TEST_F(LocationQueryTest, TheQueryAuditFlagsAStateTheStoreDoesNotImply) {
  row(AuthorityKind::kActor, "user:1", ObjectKind::kActor, "Player");
  store.hide_key = records::owner_lease_preimage("owner-1");  // the query sees no lease; the store holds one
  const properties::QueryAuditResult audit = properties::audit_location_queries(store, platform::kNever);
  ASSERT_TRUE(audit.violation().has_value());
  EXPECT_NE(audit.violation()->find("Unavailable"), std::string::npos) << *audit.violation();
}

TEST_F(LocationQueryTest, TheQueryAuditFlagsAListThatMissesARow) {
  for (int i = 0; i < 7; ++i) {
    row(AuthorityKind::kActor, "user:" + std::to_string(i), ObjectKind::kActor, "Player");
  }
  store.drop_resumed = true;
  const properties::QueryAuditResult audit = properties::audit_location_queries(store, platform::kNever);
  ASSERT_TRUE(audit.violation().has_value());
  EXPECT_NE(audit.violation()->find("never returned"), std::string::npos) << *audit.violation();
}

TEST(QueryContinuation, RoundTripsTheFilterAndPosition) {
  const ListFilter filter{ObjectKind::kUserSpot, "Room", "game"};
  const std::string token = encode_continuation(filter, records::authority_preimage(AuthorityKind::kSpot, "r:1"));
  const std::optional<DecodedContinuation> decoded = decode_continuation(token);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->filter, filter);
  EXPECT_EQ(decoded->after_key, records::authority_preimage(AuthorityKind::kSpot, "r:1"));
  EXPECT_FALSE(decode_continuation(token.substr(0, token.size() - 1)).has_value());
  EXPECT_FALSE(decode_continuation("").has_value());
  EXPECT_FALSE(decode_continuation("lq1.....0000000000000000").has_value());
}

}  // namespace
}  // namespace spotcheck::location::query
