// Property `generations` (spec §3.1, §3.2, design "Properties"):
//   * ObjectGeneration comes from one store-wide sequence and is never reused: each Reserve
//     issues a value no earlier Reserve had, to one object only, in store-time order;
//   * relocation (NewOwner) keeps it, and AuthorityOwnerGeneration goes up by exactly one on
//     each owner change of one object incarnation, naming exactly one owner host run per value;
//   * LeaseGeneration is never 0 and never reused (one host run per value, one value per host run);
//   * every issued generation lies in 1..2^63-2, exhaustion is reported only at the top of the
//     range, and once the ObjectGeneration counter was found exhausted no later Reserve applies;
//   * each applied authority change is a legal transition of model/authority_transitions.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "properties/common/authority_event.h"
#include "properties/common/epoch_ledger.h"
#include "properties/common/store_clock.h"
#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class GenerationsChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "generations";

  explicit GenerationsChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  struct LeaseBinding {
    std::int64_t lease_gen = 0;
    std::uint64_t event = 0;
  };
  struct OwnerBinding {
    std::string owner;
    std::uint64_t event = 0;
  };
  struct IssuedObjectGen {
    std::string object;     // map key of the object it belongs to
    std::string described;  // "actor 'x'"
    std::uint64_t event = 0;
    bool reserved = false;  // an applied Reserve issued it (else only seen on later rows)
    std::uint64_t reserve_event = 0;
  };
  struct ReserveApply {
    std::int64_t apply_ms = 0;
    std::uint64_t event = 0;
  };

  std::optional<std::string> bind(const sim::TraceEvent& event, const HostRunRef& run, std::string_view role);
  // Binds the host run named by an event of struct E (its owner and lease_gen).
  template <class E>
  std::optional<std::string> bind_owner(const sim::TraceEvent& event);
  std::optional<std::string> on_lease_adopted(const sim::TraceEvent& event);
  std::optional<std::string> on_exhausted(const sim::TraceEvent& event);
  std::optional<std::string> on_authority(const sim::TraceEvent& event, const AuthorityEvent& change);
  std::optional<std::string> check_transition(const sim::TraceEvent& event, const AuthorityEvent& change) const;
  std::optional<std::string> check_object_gen(const sim::TraceEvent& event, const AuthorityEvent& change);
  std::optional<std::string> check_sequence_order(const sim::TraceEvent& event, const AuthorityEvent& change);
  std::optional<std::string> claim_epoch_owner(const sim::TraceEvent& event, const AuthorityEvent& change,
                                               std::int64_t owner_gen, const HostRunRef& owner);

  StoreClock _clock;
  StringMap<LeaseBinding> _lease_gen_of_owner;
  std::unordered_map<std::int64_t, OwnerBinding> _owner_of_lease_gen;
  std::unordered_map<std::int64_t, IssuedObjectGen> _object_gens;
  std::map<std::int64_t, ReserveApply> _reserve_order;  // resolved=0 Reserves by ObjectGeneration
  EpochLedger _epochs;
  std::optional<ReserveApply> _object_counter_exhausted;  // first exhaustion: store ms, event
};

}  // namespace spotcheck::properties
