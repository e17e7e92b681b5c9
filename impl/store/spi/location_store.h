// Location Store SPI (spec §2.1, §6.1, §6.2, §10): read, conditional all-or-nothing multi-key
// write, same-point-in-time scan. No descriptor/authority/lease/capacity-specific methods.
#pragma once

#include <cstddef>
#include <optional>
#include <variant>
#include <vector>

#include "impl/store/spi/types.h"

namespace spotcheck::store {

// ---- Read -------------------------------------------------------------------------------------
struct Missing {
  StoreNowMs now_ms = 0;
};
struct Found {
  Bytes value;
  StoreVersion version;
  StoreNowMs now_ms = 0;
};
using ReadResult = std::variant<Missing, Found, StoreError>;

// ---- Conditional write ------------------------------------------------------------------------
struct ExpectVersion {
  Key key;
  StoreVersion version;
};
struct ExpectAbsent {
  Key key;
};
using Condition = std::variant<ExpectVersion, ExpectAbsent>;

struct Put {
  Key key;
  Bytes value;
};
struct Delete {
  Key key;  // deleting an absent key is allowed and changes nothing
};
// A counter kept as the decimal ASCII bytes of a signed 64-bit integer (absent counts as 0).
// The whole write fails with Conflict{kBoundExceeded} when the result would leave [min, max].
struct Increment {
  Key key;
  std::int64_t delta = 1;
  std::int64_t min = 0;
  std::int64_t max = 0;
};
using Mutation = std::variant<Put, Delete, Increment>;

struct WriteRequest {
  std::vector<Condition> conditions;
  std::vector<Mutation> mutations;  // each key at most once
};

struct MutationOutcome {
  StoreVersion version;      // new version of the key; zero for Delete
  std::int64_t counter = 0;  // value after an Increment
};
struct Applied {
  std::vector<MutationOutcome> outcomes;  // one per mutation, same order
  StoreNowMs now_ms = 0;
};
struct Conflict {
  enum class Reason { kVersionMismatch, kBoundExceeded };
  Reason reason = Reason::kVersionMismatch;
  std::size_t index = 0;  // the failing condition (kVersionMismatch) or mutation (kBoundExceeded)
  StoreNowMs now_ms = 0;
};
using WriteResult = std::variant<Applied, Conflict, StoreError, Indeterminate>;

// ---- Same-point-in-time scan --------------------------------------------------------------------
// Keys in [start, end) in key byte order; an empty `end` means no upper bound.
struct ScanRequest {
  Key start;
  Key end;
  std::optional<Bytes> continuation;  // absent on the first page; opaque, <= 4,096 bytes
  std::uint32_t max_entries = kMaxScanPageEntries;  // 1..1,000
};
struct ScanEntry {
  Key key;
  Bytes value;
  StoreVersion version;
};
struct ScanPage {
  std::vector<ScanEntry> entries;    // <= max_entries, <= 4 MiB, never a key twice per scan
  std::optional<Bytes> continuation;  // absent on the last page
  StoreNowMs now_ms = 0;
};
// The continuation expired or belongs to another scan. Restart from the first page.
struct ScanExpired {
  StoreNowMs now_ms = 0;
};
using ScanResult = std::variant<ScanPage, ScanExpired, StoreError>;

class LocationStore {
 public:
  virtual ~LocationStore() = default;
  virtual ReadResult read(const Key& key, DeadlineUs deadline_us) = 0;
  virtual WriteResult write(const WriteRequest& request, DeadlineUs deadline_us) = 0;
  virtual ScanResult scan(const ScanRequest& request, DeadlineUs deadline_us) = 0;
};

// Checks a request against the SPI limits. Providers call it before sending anything.
std::optional<StoreError> validate(const WriteRequest& request);
std::optional<StoreError> validate(const ScanRequest& request);
std::optional<StoreError> validate_key(const Key& key);

}  // namespace spotcheck::store
