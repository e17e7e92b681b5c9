// Location Store provider contract: same-point-in-time scan (spec §6.2, §12 "Descriptor And
// Location Lookup"): key byte order, page limits, continuation size, snapshot isolation, expiry.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "tests/store_contract/contract_fixture.h"

namespace spotcheck::store::contract {
namespace {

std::string numbered(std::size_t i) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "k%05zu", i);
  return buffer;
}

}  // namespace

// Writes `count` keys (plus one key before and one after the range) and scans them all.
void LocationStoreContract::check_full_scan(std::size_t count, std::uint32_t max_entries) {
  std::vector<std::pair<Key, Bytes>> entries;
  entries.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    entries.emplace_back(key("in/" + numbered(i)), "value-" + std::to_string(i));
  }
  put_many(entries);
  put(key("in."), "before the range");  // '.' sorts before '/'
  put(key("in0"), "at the range end");  // '0' sorts right after '/'
  const ScanOutcome all = scan_all(key("in/"), key("in0"), max_entries);
  ASSERT_TRUE(all.complete);
  ASSERT_EQ(all.entries.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(all.entries[i].key, entries[i].first);
    EXPECT_EQ(all.entries[i].value, entries[i].second);
  }
  // Small values: no page is cut short by the byte bound, so every page but the last is full.
  ASSERT_EQ(all.page_sizes.size(), (count + max_entries - 1) / max_entries);
  for (std::size_t p = 0; p + 1 < all.page_sizes.size(); ++p) {
    EXPECT_EQ(all.page_sizes[p], max_entries) << "page " << p;
  }
}

namespace {

TEST_P(LocationStoreContract, ScanOfAnEmptyRangeIsOneLastPage) {
  put(key("outside"), "x");
  const ScanResult result = scan(ScanRequest{key("range/"), key("range0"), std::nullopt, 10});
  const auto* page = std::get_if<ScanPage>(&result);
  ASSERT_NE(page, nullptr) << describe(result);
  EXPECT_TRUE(page->entries.empty());
  EXPECT_FALSE(page->continuation.has_value());
  EXPECT_GT(page->now_ms, 0);
}

TEST_P(LocationStoreContract, ScanHonoursStartInclusiveAndEndExclusive) {
  for (const char* suffix : {"a", "b", "c", "d", "e"}) {
    put(key(suffix), suffix);
  }
  const ScanOutcome all = scan_all(key("b"), key("d"), 10);
  ASSERT_TRUE(all.complete);
  ASSERT_EQ(all.entries.size(), 2U);
  EXPECT_EQ(all.entries[0].key, key("b"));
  EXPECT_EQ(all.entries[1].key, key("c"));
}

TEST_P(LocationStoreContract, ScanOrdersKeysByUnsignedBytes) {
  const std::vector<Key> keys = {key(std::string("\x01", 1)), key("A"), key("a"), key("a\x7f"),
                                 key("a\x80"), key("\xc3\xa9"), key("\xfe")};
  for (const Key& k : keys) {
    put(k, "v");
  }
  const ScanOutcome all = scan_all(prefix(), prefix_range_end(), 3);
  ASSERT_TRUE(all.complete);
  ASSERT_EQ(all.entries.size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(all.entries[i].key, keys[i]) << i;
  }
}

TEST_P(LocationStoreContract, ScanEntriesCarryTheCurrentVersions) {
  const StoreVersion a = put(key("a"), "1");
  const StoreVersion b = put(key("b"), "2");
  const ScanOutcome all = scan_all(prefix(), prefix_range_end(), 1000);
  ASSERT_EQ(all.entries.size(), 2U);
  EXPECT_EQ(all.entries[0].version, a);
  EXPECT_EQ(all.entries[1].version, b);
}

TEST_P(LocationStoreContract, ScanPagesOfOneEntry) {
  check_full_scan(12, 1);
}

TEST_P(LocationStoreContract, ScanPagesOfSevenEntries) {
  check_full_scan(50, 7);
}

TEST_P(LocationStoreContract, ScanPagesOfAThousandEntries) {
  check_full_scan(2345, 1000);
}

TEST_P(LocationStoreContract, ScanIsSamePointInTimeWhileWritingAndDeletingBetweenPages) {
  std::vector<std::pair<Key, Bytes>> entries;
  for (std::size_t i = 0; i < 20; ++i) {
    entries.emplace_back(key(numbered(i * 10)), "v0-" + std::to_string(i));
  }
  put_many(entries);
  std::map<Key, Found> snapshot;
  for (const auto& [k, v] : entries) {
    snapshot.emplace(k, read_found(k));
  }

  ScanRequest request{prefix(), prefix_range_end(), std::nullopt, 4};
  std::vector<ScanEntry> seen;
  std::size_t pages = 0;
  for (; pages < 20; ++pages) {
    const ScanResult result = scan(request);
    const auto* page = std::get_if<ScanPage>(&result);
    ASSERT_NE(page, nullptr) << "page " << pages << ": " << describe(result);
    seen.insert(seen.end(), page->entries.begin(), page->entries.end());
    if (!page->continuation.has_value()) {
      break;
    }
    request.continuation = page->continuation;
    // Between pages: rewrite a returned key and a pending key, delete pending keys, insert new
    // keys before, inside and after the rest of the range.
    const std::size_t i = pages;
    put(key(numbered(i * 10)), "rewritten-returned");
    put(key(numbered(190 - i * 10)), "rewritten-pending");
    ASSERT_TRUE(std::holds_alternative<Applied>(
        write(WriteRequest{{}, {Delete{key(numbered(180 - i * 10))}}})));
    put(key(numbered(i * 10 + 5)), "inserted-inside");
    put(key(numbered(195 + i)), "inserted-after");
    put(key("!before" + std::to_string(i)), "inserted-before");
  }
  ASSERT_GE(pages, 3U) << "the scan ended before the writes between pages could matter";
  ASSERT_EQ(seen.size(), snapshot.size());
  std::size_t index = 0;
  for (const auto& [k, found] : snapshot) {
    EXPECT_EQ(seen[index].key, k);
    EXPECT_EQ(seen[index].value, found.value) << k;
    EXPECT_EQ(seen[index].version, found.version) << k;
    ++index;
  }
}

TEST_P(LocationStoreContract, ScanContinuationIsBoundedForLongKeys) {
  // Keys near the SPI limit: the continuation must still fit in 4,096 bytes.
  std::vector<std::pair<Key, Bytes>> entries;
  for (std::size_t i = 0; i < 5; ++i) {
    Key k = key(numbered(i));
    k.append(kMaxKeyBytes - k.size(), static_cast<char>('\xf0'));
    entries.emplace_back(k, "v");
  }
  put_many(entries);
  const ScanOutcome all = scan_all(prefix(), prefix_range_end(), 1);  // checks every continuation
  ASSERT_TRUE(all.complete);
  EXPECT_EQ(all.entries.size(), entries.size());
}

TEST_P(LocationStoreContract, ScanPageStaysWithinFourMebibytes) {
  constexpr std::size_t kValueBytes = 900 * 1024;
  std::vector<std::pair<Key, Bytes>> entries;
  for (std::size_t i = 0; i < 10; ++i) {
    entries.emplace_back(key(numbered(i)), std::string(kValueBytes, static_cast<char>('a' + i)));
  }
  for (const auto& entry : entries) {
    put(entry.first, entry.second);
  }
  const ScanOutcome all = scan_all(prefix(), prefix_range_end(), 1000);  // checks 4 MiB per page
  ASSERT_TRUE(all.complete);
  ASSERT_EQ(all.entries.size(), entries.size());
  EXPECT_GE(all.page_sizes.size(), 3U);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(all.entries[i].value, entries[i].second);
  }
}

TEST_P(LocationStoreContract, ScanContinuationExpiresAfterTheTtl) {
  for (std::size_t i = 0; i < 4; ++i) {
    put(key(numbered(i)), "v");
  }
  const ScanResult first = scan(ScanRequest{prefix(), prefix_range_end(), std::nullopt, 1});
  ASSERT_TRUE(std::holds_alternative<ScanPage>(first)) << describe(first);
  const auto continuation = std::get<ScanPage>(first).continuation;
  ASSERT_TRUE(continuation.has_value());
  let_store_time_pass(scan_ttl_ms() + scan_ttl_ms() / 2 + 10);
  const ScanResult late = scan(ScanRequest{prefix(), prefix_range_end(), continuation, 1});
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(late)) << describe(late);
  // Restarting from the first page works.
  const ScanOutcome all = scan_all(prefix(), prefix_range_end(), 1);
  EXPECT_EQ(all.entries.size(), 4U);
}

TEST_P(LocationStoreContract, ScanContinuationTtlCountsFromLastUse) {
  for (std::size_t i = 0; i < 4; ++i) {
    put(key(numbered(i)), "v");
  }
  ScanRequest request{prefix(), prefix_range_end(), std::nullopt, 1};
  std::size_t entries = 0;
  for (std::size_t page_index = 0; page_index < 4; ++page_index) {
    if (page_index > 0) {
      let_store_time_pass(scan_ttl_ms() / 2);  // each wait alone is within the TTL
    }
    const ScanResult result = scan(request);
    const auto* page = std::get_if<ScanPage>(&result);
    ASSERT_NE(page, nullptr) << "page " << page_index << ": " << describe(result);
    entries += page->entries.size();
    if (!page->continuation.has_value()) {
      break;
    }
    request.continuation = page->continuation;
  }
  EXPECT_EQ(entries, 4U);
}

TEST_P(LocationStoreContract, GarbledContinuationsAreScanExpired) {
  for (std::size_t i = 0; i < 3; ++i) {
    put(key(numbered(i)), "v");
  }
  const ScanResult first = scan(ScanRequest{prefix(), prefix_range_end(), std::nullopt, 1});
  ASSERT_TRUE(std::holds_alternative<ScanPage>(first)) << describe(first);
  const Bytes token = std::get<ScanPage>(first).continuation.value();

  std::vector<std::pair<std::string, Bytes>> garbled;
  for (std::size_t position : {std::size_t{0}, token.size() / 2, token.size() - 1}) {
    Bytes flipped = token;
    flipped[position] = static_cast<char>(flipped[position] ^ 0x20);
    garbled.emplace_back("byte " + std::to_string(position) + " flipped", flipped);
  }
  garbled.emplace_back("truncated", token.substr(0, token.size() - 1));
  garbled.emplace_back("extended", token + "x");
  garbled.emplace_back("arbitrary", "not a continuation");
  garbled.emplace_back("zero bytes", Bytes(token.size(), '\0'));
  for (const auto& [name, bad] : garbled) {
    if (bad.empty() || bad.size() > kMaxContinuationBytes) {
      continue;
    }
    const ScanResult result = scan(ScanRequest{prefix(), prefix_range_end(), bad, 1});
    EXPECT_TRUE(std::holds_alternative<ScanExpired>(result)) << name << ": " << describe(result);
  }
  // The genuine continuation still works afterwards.
  const ScanResult genuine = scan(ScanRequest{prefix(), prefix_range_end(), token, 1});
  EXPECT_TRUE(std::holds_alternative<ScanPage>(genuine)) << describe(genuine);
}

TEST_P(LocationStoreContract, ContinuationOfAnotherListReadIsScanExpired) {
  for (std::size_t i = 0; i < 3; ++i) {
    put(key("a/" + numbered(i)), "v");
    put(key("b/" + numbered(i)), "v");
  }
  const ScanResult first = scan(ScanRequest{key("a/"), key("a0"), std::nullopt, 1});
  ASSERT_TRUE(std::holds_alternative<ScanPage>(first)) << describe(first);
  const Bytes token = std::get<ScanPage>(first).continuation.value();
  const ScanResult foreign = scan(ScanRequest{key("b/"), key("b0"), token, 1});
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(foreign)) << describe(foreign);
}

TEST_P(LocationStoreContract, InvalidScansAreInvalidArgument) {
  std::vector<std::pair<std::string, ScanRequest>> invalid;
  invalid.emplace_back("zero entries", ScanRequest{prefix(), prefix_range_end(), std::nullopt, 0});
  invalid.emplace_back("1001 entries",
                       ScanRequest{prefix(), prefix_range_end(), std::nullopt, kMaxScanPageEntries + 1});
  invalid.emplace_back("empty continuation", ScanRequest{prefix(), prefix_range_end(), Bytes(), 10});
  invalid.emplace_back("continuation too long", ScanRequest{prefix(), prefix_range_end(),
                                                            Bytes(kMaxContinuationBytes + 1, 'c'), 10});
  invalid.emplace_back("end before start", ScanRequest{key("b"), key("a"), std::nullopt, 10});
  for (const auto& [name, request] : invalid) {
    const ScanResult result = scan(request);
    const auto* error = std::get_if<StoreError>(&result);
    ASSERT_NE(error, nullptr) << name << ": " << describe(result);
    EXPECT_EQ(error->kind, StoreErrorKind::kInvalidArgument) << name;
  }
}

TEST_P(LocationStoreContract, ScannedBytesAreIndependentOfLaterWrites) {
  put(key("a"), "original");
  const ScanOutcome all = scan_all(prefix(), prefix_range_end(), 10);
  ASSERT_EQ(all.entries.size(), 1U);
  put(key("a"), "replaced");
  EXPECT_EQ(all.entries[0].value, "original");
}

}  // namespace
}  // namespace spotcheck::store::contract
