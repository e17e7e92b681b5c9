// Location Store / Relocation Store SPI: shared value types (spec §2.1, §6, §10).
//
// This library depends on nothing else of ours. Keys and values are opaque bytes: the provider
// never interprets them. A key is the record's logical key (for the public records, the §3.4
// logical key preimage); a provider maps it to its own storage key.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace spotcheck::store {

using Bytes = std::string;
using Key = std::string;

// Time read from the store's own clock, Unix epoch milliseconds.
using StoreNowMs = std::int64_t;

// A provider-issued version. Non-zero for every existing record. The framework only compares it.
struct StoreVersion {
  std::uint64_t value = 0;
  friend auto operator<=>(const StoreVersion&, const StoreVersion&) = default;
};

// Deadline of one provider request, on the caller's monotonic clock (platform::TimeUs).
using DeadlineUs = std::int64_t;

enum class StoreErrorKind {
  kUnavailable,      // the store refused or could not be reached; nothing changed
  kTimeout,          // a read got no answer before its deadline (reads change nothing)
  kInvalidArgument,  // the request broke an SPI limit; nothing was sent
  kInternal,
};

struct StoreError {
  StoreErrorKind kind = StoreErrorKind::kInternal;
  std::string message;
};

// The request may or may not have been applied (lost reply, timeout after send, broken
// connection). The caller must re-read; it must never guess (spec §10).
struct Indeterminate {
  std::string reason;
};

const char* to_string(StoreErrorKind kind);

// SPI limits.
inline constexpr std::size_t kMaxKeyBytes = 1024;
inline constexpr std::size_t kMaxValueBytes = 4 * 1024 * 1024;
inline constexpr std::size_t kMaxConditions = 256;
inline constexpr std::size_t kMaxMutations = 256;
inline constexpr std::uint32_t kMaxScanPageEntries = 1000;
inline constexpr std::size_t kMaxScanPageBytes = 4 * 1024 * 1024;
inline constexpr std::size_t kMaxContinuationBytes = 4096;

}  // namespace spotcheck::store
