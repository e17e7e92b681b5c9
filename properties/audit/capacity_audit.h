// End-of-run capacity audit (spec §3.3, §4): reads a Location Store directly and compares every
// capacity counter with the sum of the allocations of the authority rows the store holds:
//     counter(node, c) == sum of allocation.capacity[c] over the rows placed on node.
// Use it on the world context after a run, on the store server's engine
// (sim::StoreServer::location_engine()) or any provider; it issues reads/scans only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "impl/store/spi/location_store.h"

namespace spotcheck::properties {

struct CapacityMismatch {
  std::string counter_key;        // the counter's store key (impl/location/keys/counter_keys.h)
  std::int64_t stored = 0;        // the counter's value (0 when absent)
  std::int64_t allocated = 0;     // sum over the authority rows placed on its node
};

struct CapacityAuditResult {
  // False when the store could not be read completely (then `error` says why and nothing is judged).
  bool complete = false;
  std::string error;
  std::map<std::string, std::int64_t> stored;     // every capacity counter present
  std::map<std::string, std::int64_t> allocated;  // per counter key, from the authority rows
  std::size_t rows = 0;                           // authority rows read
  std::vector<std::string> bad_rows;              // keys of rows that do not decode
  std::vector<CapacityMismatch> mismatches;       // in counter key order

  bool ok() const { return complete && bad_rows.empty() && mismatches.empty(); }
  // A violation text naming the first mismatch (or bad row / read error); nullopt when ok().
  std::optional<std::string> violation() const;
};

// Scans "authority\0".."authority\1" and "capacity\0".."capacity\1" as same-point-in-time lists
// (a ScanExpired restarts that list, at most `restarts_max` times) and compares.
CapacityAuditResult audit_capacity_counters(store::LocationStore& store, store::DeadlineUs deadline_us,
                                            std::uint32_t restarts_max = 8);

// Human-readable form of a counter store key: "actors on sim/00a10000" etc.
std::string describe_counter_key(const std::string& counter_key);

}  // namespace spotcheck::properties
