// The simulated store's clock as checkers see it, and bounds on when a write applied.
//
// StoreNow = epoch_ms + offset + virtual_us / 1000 (sim::StoreServer), where the offset is 0 in
// contract and grows at each store.clock_jumped of the Location Store's server (the
// out-of-contract fault store-clock-jump, faults/out_of_contract.h). An authority event with
// resolved=0 carries the StoreNow of its write reply, i.e. the apply instant (to the ms); with
// resolved=1 it carries the StoreNow of the re-read that found the write, so the write applied at
// or before it and the lower bound is unknown.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "impl/platform/time.h"
#include "sim/trace/trace_event.h"

namespace spotcheck::properties {

inline constexpr std::int64_t kUnknownLowerMs = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kUnknownUpperMs = std::numeric_limits<std::int64_t>::max();

struct StoreClock {
  std::int64_t epoch_ms = 0;
  // Out of contract: (virtual time of a jump, the total offset in ms from then on), in time order.
  std::vector<std::pair<platform::TimeUs, std::int64_t>> jumps;

  // StoreNow at virtual time `virtual_us` (>= 0).
  std::int64_t at(platform::TimeUs virtual_us) const {
    return epoch_ms + (jumps.empty() ? 0 : offset_at(virtual_us)) + virtual_us / platform::kMicrosPerMilli;
  }
  // Takes a store.clock_jumped of the Location Store's server into account; ignores other events.
  void observe(const sim::TraceEvent& event);

 private:
  std::int64_t offset_at(platform::TimeUs virtual_us) const;
};

// The store instant (ms) a write applied lies in [lower, upper].
struct ApplyBounds {
  std::int64_t lower = kUnknownLowerMs;
  std::int64_t upper = kUnknownUpperMs;

  static ApplyBounds exact(std::int64_t ms) { return ApplyBounds{ms, ms}; }
  static ApplyBounds at_or_before(std::int64_t ms) { return ApplyBounds{kUnknownLowerMs, ms}; }
  bool lower_known() const { return lower != kUnknownLowerMs; }
  bool upper_known() const { return upper != kUnknownUpperMs; }
};

// True when `first` certainly applied after `second` (never true on unknown bounds).
inline bool certainly_after(const ApplyBounds& first, const ApplyBounds& second) {
  return first.lower_known() && second.upper_known() && first.lower > second.upper;
}

}  // namespace spotcheck::properties
