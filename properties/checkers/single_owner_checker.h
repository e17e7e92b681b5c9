// Property `single-owner` (spec §5, §6.1, design "Properties"): at no instant do two host runs
// both hold Active authority for one object and accept work for it, and a node never acts as an
// object's owner outside its owner lease / local admission deadline.
//
// Judged from:
//   * applied authority.* events: each owner epoch (object, ObjectGeneration,
//     AuthorityOwnerGeneration) has one owner host run; it starts with the Commit or NewOwner that
//     made it Active and ends with the next NewOwner or the row's removal;
//   * owner acts: object.work (the node ran the object's handler), object.turn (the object
//     runtime started a message or timer callback of an instance) and the owner-only writes
//     Commit, Preserve and Delete (performed by the row's owner, spec §6.1);
//   * the acting host run's lease facts (lease.registered/renewed ExpiresAt, lease.lost).
// Factory runs (creation.factory_run, instance.factory_run) and Instance Spot message runs after the
// first (instance.message_run) are owner acts too: judged against the lease and deadline alone.
// A violation: an act by a host run that is not the epoch's owner; an act provably before the
// epoch started or after it ended (store time); a handler run after the host run's lease was lost,
// at or after its lease's latest ExpiresAt, or (when object.work carries them) at a local time
// past its admission deadline; and an admission deadline (adopted with a lease event or reported
// by an act) later than local_before + (ExpiresAt - StoreNow) - fencing margin of the lease
// observations so far (spec §5). And a host run that starts (lease.startup_checked accepted) keeps
// renew interval + renew timeout < owner lease TTL - fencing margin; one refused for its timing
// breaks it (§5: a violation is a startup error).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "properties/common/authority_event.h"
#include "properties/common/epoch_ledger.h"
#include "properties/common/lease_book.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"
#include "sim/events/harness_events.h"

namespace spotcheck::properties {

class SingleOwnerChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "single-owner";

  explicit SingleOwnerChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  std::optional<std::string> on_authority(const sim::TraceEvent& event, const AuthorityEvent& change);
  std::optional<std::string> on_work(const sim::TraceEvent& event);
  std::optional<std::string> on_turn(const sim::TraceEvent& event);
  // An act of a host run as an object's owner: a handler, factory or message run.
  struct OwnerAct {
    HostRunRef actor;
    bool has_clock = false;  // the act reports the node's local clock and deadline
    std::int64_t now_us = 0;
    std::int64_t deadline_us = 0;
  };
  // A handler run (object.work, object.turn): the object's epoch is claimed by the acting host run.
  struct HandlerRun {
    std::string_view kind;
    std::string_view id;
    std::int64_t object_gen = 0;
    std::int64_t owner_gen = 0;
    OwnerAct act;
    std::string_view what;  // "ran the handler of", ...
  };
  std::optional<std::string> on_handler(const sim::TraceEvent& event, const HandlerRun& run);
  template <class ActEvent, class What>
  std::optional<std::string> on_clocked_act(const sim::TraceEvent& event, What&& what) const;
  std::optional<std::string> check_lease_for_act(const sim::TraceEvent& event, const OwnerAct& act,
                                                 const std::function<std::string()>& subject) const;
  std::optional<std::string> check_local_clock(const std::function<std::string()>& subject, const LeaseFacts& lease,
                                               std::int64_t now_us, std::int64_t deadline_us) const;
  std::optional<std::string> check_reported_deadline(const sim::TraceEvent& event) const;
  std::optional<std::string> on_startup_checked(const sim::TraceEvent& event) const;
  std::optional<std::string> check_epoch(const sim::TraceEvent& event, const EpochFacts& epoch,
                                         const std::string& object_text, std::int64_t object_gen,
                                         std::int64_t owner_gen) const;

  LeaseBook _leases;
  EpochLedger _epochs;
};

}  // namespace spotcheck::properties
