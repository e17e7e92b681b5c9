// Unit tests of the memory provider's parts: the SPI's counter codec, continuation codec, versioned map,
// and the Relocation Store's retention details.
#include <gtest/gtest.h>

#include "impl/store/memory/counter_codec.h"
#include "impl/store/memory/memory_relocation_store.h"
#include "impl/store/memory/scan_token.h"
#include "impl/store/memory/versioned_map.h"
#include "tests/store_memory/fake_store_clock.h"

namespace spotcheck::store::memory {
namespace {

TEST(CounterCodec, ParsesOnlyCanonicalDecimal) {
  EXPECT_EQ(parse_counter("0"), 0);
  EXPECT_EQ(parse_counter("-8"), -8);
  EXPECT_EQ(parse_counter("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(parse_counter("-9223372036854775808"), INT64_MIN);
  for (const char* bad : {"", "-", "+1", "01", "-0", " 1", "1 ", "1e3", "9223372036854775808", "x"}) {
    EXPECT_FALSE(parse_counter(bad).has_value()) << bad;
  }
  EXPECT_EQ(format_counter(INT64_MIN), "-9223372036854775808");
}

TEST(CounterCodec, BoundedAddStaysInBoundsAndNeverOverflows) {
  EXPECT_EQ(bounded_add(3, 2, 0, 5), 5);
  EXPECT_FALSE(bounded_add(3, 3, 0, 5).has_value());
  EXPECT_FALSE(bounded_add(0, -1, 0, 5).has_value());
  EXPECT_FALSE(bounded_add(INT64_MAX, 1, INT64_MIN, INT64_MAX).has_value());
  EXPECT_FALSE(bounded_add(INT64_MIN, -1, INT64_MIN, INT64_MAX).has_value());
  EXPECT_EQ(bounded_add(INT64_MAX - 2, 1, 1, INT64_MAX - 1), INT64_MAX - 1);
  EXPECT_FALSE(bounded_add(INT64_MAX - 1, 1, 1, INT64_MAX - 1).has_value());
}

TEST(ScanTokenCodec, RoundTripsAndStaysWithinTheLimit) {
  const ScanTokenCodec codec(1);
  const Key long_key(kMaxKeyBytes, '\xff');
  const Bytes token = codec.encode(ScanPosition{42, long_key}, "", "");
  EXPECT_LE(token.size(), kMaxContinuationBytes);
  EXPECT_EQ(token.size(), ScanTokenCodec::kMaxTokenBytes);
  const auto decoded = codec.decode(token, "", "");
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->scan_id, 42U);
  EXPECT_EQ(decoded->last_key, long_key);
}

TEST(ScanTokenCodec, RejectsEveryFlippedByteAndOtherRanges) {
  const ScanTokenCodec codec(1);
  const Bytes token = codec.encode(ScanPosition{7, "key-7"}, "a", "z");
  ASSERT_TRUE(codec.decode(token, "a", "z").has_value());
  for (std::size_t i = 0; i < token.size(); ++i) {
    Bytes bad = token;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    EXPECT_FALSE(codec.decode(bad, "a", "z").has_value()) << "byte " << i;
  }
  EXPECT_FALSE(codec.decode(token, "a", "y").has_value());
  EXPECT_FALSE(codec.decode(token, "b", "z").has_value());
  EXPECT_FALSE(ScanTokenCodec(2).decode(token, "a", "z").has_value());
  EXPECT_FALSE(codec.decode(token.substr(0, 20), "a", "z").has_value());
}

Record record(const char* value, std::uint64_t version) {
  return Record{std::make_shared<const Bytes>(value), StoreVersion{version}};
}

TEST(VersionedMap, SnapshotsSeeTheStateOfTheirCommit) {
  VersionedMap map;
  map.apply("a", 1, record("a1", 1), 0);
  map.apply("a", 2, record("a2", 2), 0);
  map.apply("a", 3, std::nullopt, 0);
  EXPECT_FALSE(map.as_of("a", 0).has_value());
  EXPECT_EQ(*map.as_of("a", 1)->value, "a1");
  EXPECT_EQ(*map.as_of("a", 2)->value, "a2");
  EXPECT_FALSE(map.as_of("a", 3).has_value());
  EXPECT_FALSE(map.current("a").has_value());
  EXPECT_EQ(map.revision_count(), 3U);
  map.prune(2);  // the revision at 1 is now invisible to everyone
  EXPECT_EQ(map.revision_count(), 2U);
  EXPECT_EQ(*map.as_of("a", 2)->value, "a2");
  map.prune(3);  // the tombstone at 3 is all that is left: the key goes
  EXPECT_EQ(map.revision_count(), 0U);
  EXPECT_EQ(map.key_count(), 0U);
}

TEST(VersionedMap, WithoutSnapshotsOnlyCurrentRecordsAreKept) {
  VersionedMap map;
  for (CommitSeq seq = 1; seq <= 10; ++seq) {
    map.apply("a", seq, record("v", seq), seq);
  }
  map.apply("b", 11, record("b", 11), 11);
  map.apply("b", 12, std::nullopt, 12);
  EXPECT_EQ(map.revision_count(), 1U);
  EXPECT_EQ(map.key_count(), 1U);
}

TEST(VersionedMap, VisitRangeResumesAfterAKeyAndSkipsInvisibleKeys) {
  VersionedMap map;
  map.apply("a", 1, record("a", 1), 0);
  map.apply("b", 1, record("b", 2), 0);
  map.apply("c", 2, record("c", 3), 0);
  map.apply("d", 2, record("d", 4), 0);
  std::vector<Key> seen;
  map.visit_range("a", Key("a"), "d", CommitSeq{1}, [&](const Key& key, const Record&) {
    seen.push_back(key);
    return true;
  });
  EXPECT_EQ(seen, (std::vector<Key>{"b"}));
  seen.clear();
  map.visit_range("a", std::nullopt, "", std::nullopt, [&](const Key& key, const Record&) {
    seen.push_back(key);
    return seen.size() < 3;
  });
  EXPECT_EQ(seen, (std::vector<Key>{"a", "b", "c"}));
}

TEST(MemoryRelocationStore, RetentionDetails) {
  testing::FakeStoreClock clock;
  MemoryRelocationStore store(clock.clock());
  EXPECT_EQ(std::get<StoreError>(store.put(PayloadPut{"r", "p", -1}, 0)).kind, StoreErrorKind::kInvalidArgument);
  ASSERT_TRUE(std::holds_alternative<Stored>(store.put(PayloadPut{"forever", "p", 0}, 0)));
  ASSERT_TRUE(std::holds_alternative<Stored>(store.put(PayloadPut{"short", "p", 100}, 0)));
  clock.advance(50);
  // The same bytes again: already present, and the first retention stays.
  EXPECT_TRUE(std::get<Stored>(store.put(PayloadPut{"short", "p", 10'000}, 0)).already_present);
  clock.advance(49);
  EXPECT_TRUE(std::holds_alternative<PayloadFound>(store.get("short", 0)));
  clock.advance(1);
  EXPECT_TRUE(std::holds_alternative<PayloadMissing>(store.get("short", 0)));
  EXPECT_EQ(store.payload_count(), 1U) << "expired payloads are dropped, not just hidden";
  clock.advance(365LL * 24 * 3600 * 1000);
  EXPECT_TRUE(std::holds_alternative<PayloadFound>(store.get("forever", 0)));
  ASSERT_TRUE(std::holds_alternative<Stored>(store.put(PayloadPut{"huge", "p", INT64_MAX}, 0)));
  EXPECT_TRUE(std::holds_alternative<PayloadFound>(store.get("huge", 0)));
}

}  // namespace
}  // namespace spotcheck::store::memory
