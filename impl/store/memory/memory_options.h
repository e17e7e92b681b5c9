// Configuration and test-only fault switches of the in-memory store provider.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "impl/store/spi/types.h"

namespace spotcheck::store::memory {

// The store process's clock (Unix epoch milliseconds). The simulator passes the store server's
// clock; tests pass a fake. Observed StoreNow never goes back even if the clock does.
using StoreClock = std::function<StoreNowMs()>;

struct MemoryStoreOptions {
  // An unused scan continuation stays valid this long after its last use (store time).
  std::int64_t scan_continuation_ttl_ms = 30'000;
  // At most this many scans hold a snapshot; starting one more evicts the least recently used.
  std::size_t max_live_scans = 64;
  // Seeds the key that signs continuations (so tokens are deterministic for one seed).
  std::uint64_t continuation_key_seed = 0x5eed'c0de'5107'0001ULL;
};

// Deliberate bugs, for tests that prove the model-based test can fail. Never on in a simulation.
struct TestOnlyFaults {
  // A write that ends in Conflict{kBoundExceeded} keeps the mutations before the failing one.
  bool partial_write_on_bound_exceeded = false;
  // Scan pages read the current state instead of the scan's snapshot.
  bool scan_sees_later_writes = false;
};

}  // namespace spotcheck::store::memory
