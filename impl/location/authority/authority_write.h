// One all-or-nothing authority write and its resolution (spec §6.1, §10).
//
// An authority operation plans one store::WriteRequest whose conditions and mutations each carry
// a role, so a Conflict can be told apart (the row moved, the sequence counter moved, the target
// changed, a lease changed, a bound was hit). A write whose outcome is unknown (Indeterminate)
// is never guessed: the authority key is re-read and compared with what was written —
//   Put:    the stored bytes equal ours        -> applied
//           the row is still as first read     -> not applied (safe to try again)
//   Delete: the row is gone, or holds another ObjectGeneration -> applied
//           the row is still as first read     -> not applied
//   anything else                               -> Conflict (someone else changed it)
// Bytes written by an earlier attempt of the same operation count as ours too, so a write that
// applied late is recognised instead of being reported as a conflict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/location/authority/capacity.h"
#include "impl/location/config/location_config.h"
#include "impl/platform/clock.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

// kPreviousOwnerLease: a recovery write's condition that the row's earlier owner lease has ended.
enum class ConditionRole { kAuthority, kCounter, kTargetDescriptor, kTargetLease, kOwnLease, kPreviousOwnerLease };
// kAttached: a Put/Delete a caller attached to the same request (e.g. a creation's stored request
// or final result, spec §7); never an Increment.
enum class MutationRole { kAuthority, kCounter, kCapacity, kAttached };

struct PlannedWrite {
  store::Key authority_key;
  std::optional<store::StoreVersion> authority_version_before;  // nullopt: expected absent
  std::uint64_t object_generation_before = 0;                   // 0 when expected absent
  std::optional<store::Bytes> authority_bytes_after;            // nullopt: the row is deleted
  store::WriteRequest request;
  std::vector<ConditionRole> condition_roles;  // one per request.conditions entry
  std::vector<MutationRole> mutation_roles;    // one per request.mutations entry
  std::vector<CapacityChange> capacity;        // the kCapacity mutations, in order

  void add_condition(store::Condition condition, ConditionRole role);
  void add_mutation(store::Mutation mutation, MutationRole role);
  void add_capacity(std::vector<CapacityChange> changes);
};

struct WriteOutcome {
  enum class Kind {
    kApplied,          // Applied reply
    kResolvedApplied,  // Indeterminate or Conflict, and the re-read shows our write applied
    kNotApplied,       // Indeterminate, and the re-read shows the row as first read
    kConflict,         // a condition failed; nothing changed
    kBoundExceeded,    // an Increment would leave its bounds; nothing changed
    kStoreError,       // refused; nothing changed
    kUnresolved,       // Indeterminate and the re-reads did not settle it
  };
  Kind kind = Kind::kStoreError;
  ConditionRole condition_role = ConditionRole::kAuthority;  // for kConflict
  MutationRole mutation_role = MutationRole::kAuthority;     // for kBoundExceeded
  std::size_t bound_mutation = 0;                            // for kBoundExceeded: its index in the request
  std::vector<store::MutationOutcome> outcomes;              // for kApplied
  store::StoreVersion authority_version_after;               // kApplied/kResolvedApplied with Put
  store::Bytes authority_bytes_after;                        // the bytes that are stored then
  store::StoreNowMs now_ms = 0;
  platform::TimeUs sent_us = 0;  // local time the write was sent (§5: before the admission deadline)
  std::string message;
  // kResolvedApplied on a Conflict: an earlier attempt, given up on, had applied late (§10).
  bool earlier_attempt_applied_late = false;
  // kConflict from the re-read of an indeterminate write: another writer's change superseded the
  // row first read (§10), so ours is not there; planned again like any conflict.
  bool superseded = false;

  bool applied() const { return kind == Kind::kApplied || kind == Kind::kResolvedApplied; }
};

// Sends the planned write and resolves an unknown outcome by re-reading (at most
// config.indeterminate_rereads_max reads). `earlier_bytes` are the authority bytes earlier
// attempts of the same operation wrote.
WriteOutcome execute_authority_write(store::LocationStore& store, platform::Clock& clock,
                                     const LocationConfig& config, const PlannedWrite& planned,
                                     const std::vector<store::Bytes>& earlier_bytes);

}  // namespace spotcheck::location
