// In-memory Location Store specifics beyond the shared contract: snapshot memory, live-scan
// bound and eviction, determinism, counters that are not decimal, StoreNow monotonicity.
#include <gtest/gtest.h>

#include "impl/store/memory/memory_location_store.h"
#include "tests/store_memory/fake_store_clock.h"

namespace spotcheck::store::memory {
namespace {

using testing::FakeStoreClock;

WriteRequest put_request(const Key& key, const Bytes& value) { return WriteRequest{{}, {Put{key, value}}}; }

class MemoryLocationStoreTest : public ::testing::Test {
 protected:
  MemoryStoreOptions options() const {
    MemoryStoreOptions o;
    o.scan_continuation_ttl_ms = 1'000;
    o.max_live_scans = 2;
    return o;
  }
  void put(const Key& key, const Bytes& value) {
    ASSERT_TRUE(std::holds_alternative<Applied>(_store.write(put_request(key, value), 0)));
  }
  void put_keys(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      put("k" + std::to_string(i), "v");
    }
  }
  // The first page of a 1-entry-per-page scan over everything; returns its continuation.
  Bytes first_page_token(const Key& start = "k") {
    const ScanResult result = _store.scan(ScanRequest{start, "l", std::nullopt, 1}, 0);
    EXPECT_TRUE(std::holds_alternative<ScanPage>(result));
    return std::get<ScanPage>(result).continuation.value();
  }
  ScanResult next_page(const Bytes& token, const Key& start = "k") {
    return _store.scan(ScanRequest{start, "l", token, 1}, 0);
  }

  FakeStoreClock _clock;
  MemoryLocationStore _store{_clock.clock(), options()};
};

TEST_F(MemoryLocationStoreTest, FaultsAreOffByDefault) {
  EXPECT_FALSE(_store.test_only_faults().partial_write_on_bound_exceeded);
  EXPECT_FALSE(_store.test_only_faults().scan_sees_later_writes);
}

TEST_F(MemoryLocationStoreTest, OldRevisionsAreKeptOnlyWhileASnapshotNeedsThem) {
  put_keys(3);
  EXPECT_EQ(_store.stats().revision_count, 3U);
  const Bytes token = first_page_token();
  put("k1", "new");
  put("k2", "new");
  ASSERT_TRUE(std::holds_alternative<Applied>(_store.write(WriteRequest{{}, {Delete{"k0"}}}, 0)));
  EXPECT_EQ(_store.stats().live_scans, 1U);
  EXPECT_EQ(_store.stats().revision_count, 3U + 3U) << "old k1, k2 and k0's tombstone are kept";
  // Finishing the scan releases them.
  ScanResult result = next_page(token);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(result));
  result = next_page(std::get<ScanPage>(result).continuation.value());
  ASSERT_TRUE(std::holds_alternative<ScanPage>(result));
  EXPECT_FALSE(std::get<ScanPage>(result).continuation.has_value());
  EXPECT_EQ(_store.stats().live_scans, 0U);
  EXPECT_EQ(_store.stats().revision_count, 2U);
  EXPECT_EQ(_store.stats().key_count, 2U);
}

TEST_F(MemoryLocationStoreTest, AnExpiredScanReleasesItsRevisionsOnTheNextCall) {
  put_keys(3);
  first_page_token();
  put("k1", "new");
  EXPECT_EQ(_store.stats().revision_count, 4U);
  _clock.advance(1'001);
  put("k2", "new");  // any call expires the abandoned scan
  EXPECT_EQ(_store.stats().live_scans, 0U);
  EXPECT_EQ(_store.stats().revision_count, 3U);
}

TEST_F(MemoryLocationStoreTest, TtlBoundaryIsInclusive) {
  put_keys(3);
  const Bytes token = first_page_token();
  _clock.advance(1'000);
  EXPECT_TRUE(std::holds_alternative<ScanPage>(next_page(token)));
  const Bytes token2 = first_page_token();
  _clock.advance(1'001);
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(next_page(token2)));
}

TEST_F(MemoryLocationStoreTest, StartingMoreScansThanTheBoundEvictsTheLeastRecentlyUsed) {
  put_keys(4);
  const Bytes a = first_page_token();
  _clock.advance(1);
  const Bytes b = first_page_token();
  _clock.advance(1);
  const ScanResult a2 = next_page(a);  // a is now used more recently than b
  ASSERT_TRUE(std::holds_alternative<ScanPage>(a2));
  _clock.advance(1);
  const Bytes c = first_page_token();  // evicts b
  EXPECT_EQ(_store.stats().live_scans, 2U);
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(next_page(b)));
  EXPECT_TRUE(std::holds_alternative<ScanPage>(next_page(std::get<ScanPage>(a2).continuation.value())));
  EXPECT_TRUE(std::holds_alternative<ScanPage>(next_page(c)));
}

TEST_F(MemoryLocationStoreTest, AContinuationCanBeRetriedWhileTheScanLives) {
  put_keys(3);
  const Bytes token = first_page_token();
  const ScanResult first_try = next_page(token);
  const ScanResult retry = next_page(token);  // e.g. the reply of the first try was lost
  ASSERT_TRUE(std::holds_alternative<ScanPage>(first_try));
  ASSERT_TRUE(std::holds_alternative<ScanPage>(retry));
  EXPECT_EQ(std::get<ScanPage>(first_try).entries.at(0).key, std::get<ScanPage>(retry).entries.at(0).key);
}

TEST_F(MemoryLocationStoreTest, ContinuationOfAnotherStoreSeedIsScanExpired) {
  put_keys(3);
  MemoryStoreOptions other_options = options();
  other_options.continuation_key_seed = 99;
  MemoryLocationStore other(_clock.clock(), other_options);
  ASSERT_TRUE(std::holds_alternative<Applied>(other.write(put_request("k0", "v"), 0)));
  ASSERT_TRUE(std::holds_alternative<Applied>(other.write(put_request("k1", "v"), 0)));
  const ScanResult foreign_first = other.scan(ScanRequest{"k", "l", std::nullopt, 1}, 0);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(foreign_first));
  first_page_token();  // scan id 1 is live here too
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(next_page(std::get<ScanPage>(foreign_first).continuation.value())));
}

TEST_F(MemoryLocationStoreTest, IncrementOfANonDecimalValueIsInvalidAndChangesNothing) {
  for (const Bytes& value : {Bytes("abc"), Bytes("007"), Bytes("+1"), Bytes("-0"), Bytes("1 "),
                             Bytes("99999999999999999999")}) {
    put("n", value);
    const ReadResult before = _store.read("n", 0);
    const WriteResult result = _store.write(WriteRequest{{}, {Put{"other", "x"}, Increment{"n", 1, 0, 100}}}, 0);
    ASSERT_TRUE(std::holds_alternative<StoreError>(result)) << value;
    EXPECT_EQ(std::get<StoreError>(result).kind, StoreErrorKind::kInvalidArgument);
    EXPECT_TRUE(std::holds_alternative<Missing>(_store.read("other", 0)));
    EXPECT_EQ(std::get<Found>(_store.read("n", 0)).version, std::get<Found>(before).version);
  }
}

TEST_F(MemoryLocationStoreTest, StoreNowNeverGoesBackWhenTheClockDoes) {
  const StoreNowMs first = std::get<Missing>(_store.read("a", 0)).now_ms;
  _clock.advance(-500);
  EXPECT_EQ(std::get<Missing>(_store.read("a", 0)).now_ms, first);
  _clock.advance(600);
  EXPECT_EQ(std::get<Missing>(_store.read("a", 0)).now_ms, first + 100);
}

TEST_F(MemoryLocationStoreTest, VersionsComeFromOneStoreWideSequence) {
  const WriteResult first = _store.write(WriteRequest{{}, {Put{"a", "1"}, Delete{"x"}, Put{"b", "2"}}}, 0);
  const WriteResult second = _store.write(put_request("a", "3"), 0);
  ASSERT_TRUE(std::holds_alternative<Applied>(first));
  ASSERT_TRUE(std::holds_alternative<Applied>(second));
  EXPECT_EQ(std::get<Applied>(first).outcomes[0].version.value, 1U);
  EXPECT_EQ(std::get<Applied>(first).outcomes[2].version.value, 2U);
  EXPECT_EQ(std::get<Applied>(second).outcomes[0].version.value, 3U);
  // A conflicting write issues no version.
  ASSERT_TRUE(std::holds_alternative<Conflict>(_store.write(WriteRequest{{ExpectAbsent{"a"}}, {Put{"c", "4"}}}, 0)));
  const WriteResult third = _store.write(put_request("c", "5"), 0);
  EXPECT_EQ(std::get<Applied>(third).outcomes[0].version.value, 4U);
}

TEST_F(MemoryLocationStoreTest, SameOperationsGiveTheSameResultsAndContinuationBytes) {
  FakeStoreClock other_clock;
  MemoryLocationStore other(other_clock.clock(), options());
  for (MemoryLocationStore* store : {&_store, &other}) {
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(std::holds_alternative<Applied>(store->write(put_request("k" + std::to_string(i), "v"), 0)));
    }
  }
  const ScanResult mine = _store.scan(ScanRequest{"k", "l", std::nullopt, 2}, 0);
  const ScanResult theirs = other.scan(ScanRequest{"k", "l", std::nullopt, 2}, 0);
  EXPECT_EQ(std::get<ScanPage>(mine).continuation, std::get<ScanPage>(theirs).continuation);
  EXPECT_EQ(std::get<Found>(_store.read("k3", 0)).version, std::get<Found>(other.read("k3", 0)).version);
}

TEST_F(MemoryLocationStoreTest, ASingleEntryLargerThanThePageBoundStillGetsItsOwnPage) {
  // Values may be 4 MiB and keys 1 KiB: such an entry alone exceeds 4 MiB (documented).
  put("k0", "small");
  put("k1", std::string(kMaxValueBytes, 'v'));
  put("k2", "small");
  std::vector<std::size_t> page_sizes;
  ScanRequest request{"k", "l", std::nullopt, 1000};
  for (int page_index = 0; page_index < 5; ++page_index) {
    const ScanResult result = _store.scan(request, 0);
    ASSERT_TRUE(std::holds_alternative<ScanPage>(result));
    page_sizes.push_back(std::get<ScanPage>(result).entries.size());
    if (!std::get<ScanPage>(result).continuation) {
      break;
    }
    request.continuation = std::get<ScanPage>(result).continuation;
  }
  EXPECT_EQ(page_sizes, (std::vector<std::size_t>{1, 1, 1}));
}

}  // namespace
}  // namespace spotcheck::store::memory
