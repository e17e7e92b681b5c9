// Direct looks at the store for tests: raw reads, counter values, and whole-range listings.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "impl/location/generation/generation_counter.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/store/spi/counter_text.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::testing {

inline std::optional<store::Found> raw_read(store::LocationStore& store, const store::Key& key) {
  store::ReadResult read = store.read(key, platform::kNever);
  if (auto* found = std::get_if<store::Found>(&read)) {
    return *found;
  }
  EXPECT_TRUE(std::holds_alternative<store::Missing>(read));
  return std::nullopt;
}

// Counter value; 0 when absent.
inline std::int64_t counter_value(store::LocationStore& store, const store::Key& key) {
  std::optional<store::Found> found = raw_read(store, key);
  if (!found) {
    return 0;
  }
  std::optional<std::int64_t> value = spotcheck::store::parse_counter(found->value);
  EXPECT_TRUE(value.has_value());
  return value.value_or(-1);
}

// Puts raw bytes under a key unconditionally (for setting up states the protocol cannot reach).
inline void raw_put(store::LocationStore& store, const store::Key& key, const store::Bytes& value) {
  store::WriteRequest request{{}, {store::Put{key, value}}};
  store::WriteResult result = store.write(request, platform::kNever);
  ASSERT_TRUE(std::holds_alternative<store::Applied>(result));
}

inline void raw_delete(store::LocationStore& store, const store::Key& key) {
  store::WriteRequest request{{}, {store::Delete{key}}};
  store::WriteResult result = store.write(request, platform::kNever);
  ASSERT_TRUE(std::holds_alternative<store::Applied>(result));
}

// Every (key -> (bytes, version)) in [begin, end).
inline std::map<store::Key, std::pair<store::Bytes, std::uint64_t>> list_range(
    store::LocationStore& store, const store::Key& begin, const store::Key& end) {
  std::map<store::Key, std::pair<store::Bytes, std::uint64_t>> out;
  store::ScanRequest request{begin, end, std::nullopt, store::kMaxScanPageEntries};
  for (int page = 0; page < 10'000; ++page) {
    store::ScanResult result = store.scan(request, platform::kNever);
    auto* scanned = std::get_if<store::ScanPage>(&result);
    EXPECT_NE(scanned, nullptr);
    if (scanned == nullptr) {
      return out;
    }
    for (const store::ScanEntry& entry : scanned->entries) {
      out[entry.key] = {entry.value, entry.version.value};
    }
    if (!scanned->continuation) {
      return out;
    }
    request.continuation = scanned->continuation;
  }
  ADD_FAILURE() << "scan did not end";
  return out;
}

// The whole store (every key), to assert "the store is unchanged".
inline std::map<store::Key, std::pair<store::Bytes, std::uint64_t>> snapshot_all(
    store::LocationStore& store) {
  return list_range(store, std::string(1, '\x01'), "");
}

}  // namespace spotcheck::location::testing
