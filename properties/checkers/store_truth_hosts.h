// The store's truth about host runs and counters, for property `store-truth` (spec §3.1, §3.3,
// §4): every applied change of an owner lease row, a MeshNode descriptor row and a counter, held
// against the transitions those sections allow — model/host_row_transitions.h, the model's
// table; this ledger keeps the rows the store holds, decodes what a write stored, and asks it. Fed
// one applied write at a time, whole (all of its store.applied parts), after the StoreVersion
// lockstep passed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/capacity_counters.h"
#include "model/host_row_transitions.h"

namespace spotcheck::properties {

// A capacity counter's key as store.applied prints it: "capacity/<scope>".
inline constexpr std::string_view kCapacityPrefix = "capacity/";

// One mutation of an applied write, as store.applied reported it.
struct AppliedPart {
  std::string key;  // NUL separators shown as '/'
  std::string mutation;
  std::int64_t old_version = 0;
  std::int64_t new_version = 0;
  std::string value;
  std::int64_t delta = 0;
  std::int64_t counter = 0;
  std::uint64_t event = 0;
};

// One applied write: its parts in request order.
struct AppliedWrite {
  std::int64_t store_now_ms = 0;
  std::vector<AppliedPart> parts;

  // The counter `key` leaves in this write, or nullopt when the write does not increment it.
  std::optional<std::int64_t> counter_after(std::string_view key) const;
};

class HostRowsLedger {
 public:
  // The renew that stored an owner lease row's ExpiresAt: when it applied and the ExpiresAt it
  // replaced. A renew the store applied at or after the ExpiresAt it replaced came too late: the
  // store accepts it (its condition is the row version), but a host that adopts it revives an
  // expired lease (§5).
  struct RenewFact {
    std::int64_t applied_ms = 0;           // StoreNow of the write
    std::int64_t previous_expires_ms = 0;  // the ExpiresAt it replaced
    std::uint64_t event = 0;               // its store.applied
  };
  // The renew that wrote ExpiresAt `expires_ms` into the row of `owner_id`, if one did.
  const RenewFact* renew_that_wrote(std::string_view owner_id, std::int64_t expires_ms) const;

  // Judges one part of `write` (a put or delete of a lease or descriptor row, a counter; others
  // pass) and records it.
  // Returns what is wrong (a clause, without the event), or nullopt.
  std::optional<std::string> apply(const AppliedWrite& write, const AppliedPart& part);

  // The live lease row of OwnerId `owner_id`, if the store holds one.
  std::optional<model::LeaseRow> lease_of(std::string_view owner_id) const;

 private:
  std::optional<std::string> judge_lease(const AppliedWrite& write, const AppliedPart& part);
  std::optional<std::string> judge_descriptor(const AppliedWrite& write, const AppliedPart& part);
  std::optional<std::string> judge_counter(const AppliedPart& part);
  void note_limits(std::string_view descriptor_key, const model::NodeLimits& limits, const model::DescriptorRow& row);
  void forget_limits(std::string_view descriptor_key);

  // The bound a stored descriptor states for one capacity counter.
  struct CounterBound {
    std::int64_t limit = 0;
    std::string descriptor;  // "Revision R of host run O/G", for the report
  };

  std::map<std::string, model::LeaseRow, std::less<>> _leases;  // live lease rows, by key
  // Every renew, by "<OwnerId>|<ExpiresAt it wrote>".
  std::map<std::string, RenewFact, std::less<>> _renews;
  std::set<std::string, std::less<>> _lease_keys_ever;       // every lease key ever created
  std::map<std::string, model::DescriptorRow, std::less<>> _descriptors;  // stored descriptor rows, by key
  // The highest Revision each host run (owner id and lease generation) published, per row key.
  std::map<std::string, std::int64_t, std::less<>> _revisions;
  std::map<std::string, std::int64_t, std::less<>> _counters;  // by key; absent counts as 0
  // The bounded counters of each stored descriptor row (by row key), and their bounds (by counter key).
  std::map<std::string, std::vector<std::string>, std::less<>> _bounded_by_descriptor;
  std::map<std::string, CounterBound, std::less<>> _bounds;
};

}  // namespace spotcheck::properties
