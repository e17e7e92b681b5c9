// Issuing generations from a bounded store counter (spec §3.1, §3.2).
//
// A counter key holds the last issued value (absent = 0, nothing issued yet). Issuing reads the
// counter, computes next = value + 1 and puts into ONE all-or-nothing write both
//   * a condition pinning the counter as read (ExpectVersion, or ExpectAbsent when absent), and
//   * store::Increment{+1, min 1, max kGenerationMax},
// beside the record that carries `next`. So the record's bytes carry the generation the same
// request issues, the counter never passes 2^63-2, 0 is never issued, and a value is never
// issued twice (a concurrent issuer moves the counter's version and the write conflicts).
// A counter at 2^63-2 or holding the sentinel 2^63-1 is GenerationExhausted before any write;
// a store that still reports Conflict{kBoundExceeded} on the Increment means the same. Either
// way the store is unchanged, and a retry gives the same result.
#pragma once

#include <cstdint>
#include <optional>

#include "impl/location/errors.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

struct CounterRead {
  store::Key key;
  std::uint64_t value = 0;                     // last issued; 0 when the counter is absent
  std::optional<store::StoreVersion> version;  // nullopt when absent
  store::StoreNowMs now_ms = 0;
};

// Reads a generation counter. A value that is not a decimal in 0..2^63-1 is kRecordInvalid.
Result<CounterRead> read_generation_counter(store::LocationStore& store, const store::Key& key,
                                            store::DeadlineUs deadline_us);

// The generation the next issuance gives, or kGenerationExhausted.
Result<std::uint64_t> next_generation(const CounterRead& counter);

// The condition and the bounded increment that issue next_generation(counter) in one write.
store::Condition counter_condition(const CounterRead& counter);
store::Increment counter_increment(const store::Key& key);

}  // namespace spotcheck::location
