// Fixtures and helpers of the provider contract suite. Only the SPI and ProviderUnderTest are
// used here, never a provider's internals, so the same tests run against every provider.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "impl/store/spi/location_store.h"
#include "impl/store/spi/relocation_store.h"
#include "tests/store_contract/provider_under_test.h"

namespace spotcheck::store::contract {

inline constexpr DeadlineUs kNoDeadlineUs = std::numeric_limits<DeadlineUs>::max();

// Human-readable result descriptions for failure messages.
std::string describe(const ReadResult& result);
std::string describe(const WriteResult& result);
std::string describe(const ScanResult& result);
std::string describe(const PutResult& result);
std::string describe(const GetResult& result);
std::string describe(const DeleteResult& result);

// The smallest key greater than every key starting with `prefix` (prefix must not end in 0xff).
Key prefix_end(const Key& prefix);

// Every test works under its own key prefix (test name + provider name), so a provider whose
// storage outlives one test (Redis) still sees independent tests.
class ContractFixtureBase {
 protected:
  void set_up_prefix();
  Key key(const std::string& suffix) const { return _prefix + suffix; }
  const Key& prefix() const { return _prefix; }
  Key prefix_range_end() const { return prefix_end(_prefix); }

 private:
  Key _prefix;
};

class LocationStoreContract : public ::testing::TestWithParam<ProviderFactory>,
                              public ContractFixtureBase {
 protected:
  void SetUp() override;

  LocationStore& store() { return *_provider.location; }
  DeadlineUs deadline();
  void let_store_time_pass(std::int64_t ms) { _provider.let_store_time_pass(ms); }
  std::int64_t scan_ttl_ms() const { return _provider.scan_continuation_ttl_ms; }

  ReadResult read(const Key& key) { return store().read(key, deadline()); }
  WriteResult write(const WriteRequest& request) { return store().write(request, deadline()); }
  ScanResult scan(const ScanRequest& request) { return store().scan(request, deadline()); }

  // Unconditional put; returns the new version (fails the test otherwise).
  StoreVersion put(const Key& key, const Bytes& value);
  // Puts `count` keys key(name_of(i)) = value_of(i), in batches of kMaxMutations.
  void put_many(const std::vector<std::pair<Key, Bytes>>& entries);
  // Reads and expects Found; returns it (an empty Found after a failed expectation).
  Found read_found(const Key& key);
  void expect_missing(const Key& key);

  struct ScanOutcome {
    std::vector<ScanEntry> entries;
    std::vector<std::size_t> page_sizes;
    bool complete = false;
  };
  // Pages through [start, end) to the end, checking the page-level limits on every page.
  ScanOutcome scan_all(const Key& start, const Key& end, std::uint32_t max_entries);
  // Writes `count` keys in a range and checks a full scan of it at `max_entries` per page.
  void check_full_scan(std::size_t count, std::uint32_t max_entries);

 private:
  ProviderUnderTest _provider;
};

class RelocationStoreContract : public ::testing::TestWithParam<ProviderFactory>,
                                public ContractFixtureBase {
 protected:
  void SetUp() override;

  RelocationStore& store() { return *_provider.relocation; }
  DeadlineUs deadline();
  void let_store_time_pass(std::int64_t ms) { _provider.let_store_time_pass(ms); }

  PutResult put(const Key& reference, const Bytes& payload, std::int64_t retention_ms) {
    return store().put(PayloadPut{reference, payload, retention_ms}, deadline());
  }
  GetResult get(const Key& reference) { return store().get(reference, deadline()); }
  DeleteResult remove(const Key& reference) { return store().remove(reference, deadline()); }

 private:
  ProviderUnderTest _provider;
};

}  // namespace spotcheck::store::contract
