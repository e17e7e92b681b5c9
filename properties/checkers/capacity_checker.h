// Property `capacity` (spec §3.3, §4, design "Properties"): store counters equal the sum of the
// allocations.
//
// Online, from events (docs/events.md "Capacity"):
//   * every applied authority write is followed, on the same node, by exactly the
//     capacity.changed events its allocation implies (Reserve secures, Abort/Delete release,
//     NewOwner moves between nodes, Commit/Preserve change nothing), and no capacity.changed
//     appears otherwise (e.g. after a refused or exhausted write);
//   * a counter value reported after a secure is at least the delta, and never negative;
//   * an object's capacity is released on the node where it was secured: each owner epoch has one
//     placement (mesh, rid), and NewOwner's prev_mesh/prev_rid is the previous epoch's placement;
//   * per counter, the sum of reported deltas equals the sum of the allocations of the applied
//     writes (reported_totals() == expected_totals());
//   * no secure leaves a counter past the node's limit (PropertyOptions::capacity, the limits the
//     scenario's nodes publish; 0 = unlimited): the value a capacity.changed reports is the
//     store's answer to the write, and a full node refuses (§3.3).
// At the end of a run, audit_capacity_counters() (audit/capacity_audit.h) compares the store's
// counters with the authority rows it holds: the strong, state-based form.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "properties/common/authority_event.h"
#include "properties/common/epoch_ledger.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class CapacityChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "capacity";

  explicit CapacityChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;
  std::optional<std::string> finish(const RunEnd& end) override;

  // Per capacity counter store key (impl/location/keys/counter_keys.h): the sum of reported
  // capacity.changed deltas, and the sum of the allocations the applied writes imply.
  const std::map<std::string, std::int64_t>& reported_totals() const { return _reported; }
  const std::map<std::string, std::int64_t>& expected_totals() const { return _expected; }

 private:
  struct CounterChange {
    std::string key;   // the counter's store key
    std::string text;  // "actors on sim/00a1" for messages
    std::int64_t delta = 0;
    std::uint32_t limit = 0;  // the node's published limit for this counter (0: unlimited)
  };
  struct Pending {
    std::vector<CounterChange> changes;
    std::uint64_t write_event = 0;
    std::string write_text;
  };

  std::optional<std::string> on_authority(const sim::TraceEvent& event, const AuthorityEvent& change);
  std::optional<std::string> on_capacity_changed(const sim::TraceEvent& event);
  std::optional<std::string> missing_changes(const Pending& pending) const;
  // The counter changes securing (+) or releasing (-) one object's allocation on a node.
  std::optional<std::string> allocation_changes(const AuthorityEvent& change, std::string_view mesh,
                                                std::string_view rid, std::int64_t sign,
                                                std::vector<CounterChange>& out) const;
  std::optional<std::string> check_placement(const sim::TraceEvent& event, const AuthorityEvent& change,
                                             std::int64_t owner_gen, std::string_view mesh, std::string_view rid);
  CapacityLimits _limits;
  std::unordered_map<std::int32_t, Pending> _pending;  // by node: changes still to be reported
  std::map<std::string, std::int64_t> _reported;
  std::map<std::string, std::int64_t> _expected;
  EpochLedger _epochs;
};

}  // namespace spotcheck::properties
