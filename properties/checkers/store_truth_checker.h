// Property `store-truth` (spec §3.2, §6.1, §10): the store's own account of what it applied
// (store.applied, recorded by the store host in sim/store_host) held, in lockstep, against the
// legal transitions of model/authority_transitions.h, and the protocol's claims held against it.
// The other properties believe the protocol's "applied"; this one believes only the store.
//
// Lockstep, per key, over every mutation the store applied (store.applied, one per mutation):
//   * the StoreVersion a mutation found is the one the previous applied write left (0: absent);
// per authority row:
//   * every change is a legal transition: Missing→Reserved (Reserve, with an ObjectGeneration
//     above every earlier one of that ID), Reserved→Active (Commit: the same ObjectGeneration,
//     AuthorityOwnerGeneration and owner), Reserved→Missing (Abort), Active→Active (Preserve: the
//     same owner and generations; NewOwner: the same ObjectGeneration, a higher
//     AuthorityOwnerGeneration and another host run), Active→Missing (Delete);
//   * a Reserve's ObjectGeneration is the one its own write issued from the object-generation
//     counter (§3.2);
//   * every stored row decodes.
// per owner lease row, descriptor row and counter: the rules of store_truth_hosts.h (§3.1, §4).
// The protocol's word against the truth:
//   * an authority.* event with outcome applied names a row the store stored (the same state,
//     generations and owner, and the same StoreVersion when the event reports one), or, for an
//     abort or delete, a row of its ObjectGeneration the store removed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/authority_transitions.h"
#include "properties/checkers/store_truth_hosts.h"
#include "properties/common/authority_event.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class StoreTruthChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "store-truth";

  explicit StoreTruthChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

  // One authority row as the store held it.
  struct Row {
    model::AuthorityState state = model::AuthorityState::kMissing;
    std::int64_t version = 0;
    std::int64_t object_gen = 0;
    std::int64_t owner_gen = 0;
    std::string owner;
    std::int64_t lease_gen = 0;
    std::uint64_t event = 0;  // the store.applied that wrote (or removed) it
  };

 private:
  struct Ledger {
    Row current;                   // state kMissing when absent
    std::vector<Row> stored;       // every row the store stored, in order
    std::vector<Row> removed;      // every row the store removed, in order
    std::int64_t highest_object_gen = 0;
  };

  std::optional<std::string> on_lease_claim(const sim::TraceEvent& event);
  std::optional<std::string> on_creation_claim(const sim::TraceEvent& event);
  std::optional<std::string> on_store_applied(const sim::TraceEvent& event);
  std::optional<std::string> on_write(const AppliedWrite& write);
  std::optional<std::string> on_authority_part(const AppliedWrite& write, const AppliedPart& part);
  std::optional<std::string> check_transition(const AppliedWrite& write, const AppliedPart& part,
                                              const Ledger& ledger, const Row& next) const;
  std::optional<std::string> on_claim(const sim::TraceEvent& event, const AuthorityEvent& claim);

  bool _judging = true;  // PropertyOptions::store_ground_truth
  std::map<std::string, Ledger, std::less<>> _rows;  // authority rows, by the store.applied key text
  std::map<std::string, std::int64_t, std::less<>> _versions;  // every key's StoreVersion (absent: 0)
  HostRowsLedger _hosts;
  AppliedWrite _pending;  // the parts of the write being reported
  std::int64_t _pending_parts = 0;
};

}  // namespace spotcheck::properties
