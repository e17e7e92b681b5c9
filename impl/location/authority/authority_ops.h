// Authority operations (spec §6.1): Reserve, Commit, Abort, Preserve, NewOwner, Delete — the
// Framework's internal names for the changes of a current location record. Each is ONE
// all-or-nothing store request conditioned on the first-read StoreVersion of the row (ExpectAbsent
// for Reserve) and on the caller's own owner lease record (the fencing of §5), plus, where a
// target node is involved, on the target's MeshNode descriptor and owner lease records as read.
//
//   Reserve   Missing -> Reserved. Issues ObjectGeneration from the store-wide sequence in the
//             same request, AuthorityOwnerGeneration 1, the target's host run as owner, and
//             secures the target's capacity (bounded counters).
//   Commit    Reserved -> Active, by the owner (the target). Clears pendingCreation.
//   Abort     Reserved -> Missing; releases the capacity in the same request.
//   Preserve  Active -> Active by the owner; only the payload (framework-internal data) and the
//             StoreVersion change.
//   NewOwner  Active -> Active under the target's host run: ObjectGeneration kept,
//             AuthorityOwnerGeneration + 1, capacity moved from the old node to the target.
//   Delete    Active -> Missing by the owner; releases the capacity in the same request.
//
// A Conflict changes nothing. Preconditions that can be checked locally (wrong state, not the
// owner, invalid target) fail before the store is called; the store conditions would refuse the
// same change anyway. Every blocked operation first passes OwnerLease::admit() (§5).
//
// In this slice NewOwner secures the target's capacity itself, in the same request that moves
// the row; the relocation slice will pass in capacity secured earlier instead (§8).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "impl/location/authority/authority_snapshot.h"
#include "impl/location/authority/authority_write.h"
#include "impl/location/config/location_config.h"
#include "impl/location/descriptor/node_view.h"
#include "impl/location/errors.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

struct ReserveRequest {
  AuthorityKey key;
  records::ObjectKind object_kind = records::ObjectKind::kActor;  // must match key.kind
  std::string stable_type;
  std::string payload;
  std::optional<records::PendingCreation> pending_creation;
};

// Puts/Deletes of other keys written in the SAME all-or-nothing request as an authority change
// (spec §7: Reserve records the creation request with the Creating row; Commit/Abort record the
// final result with Ready/deletion). Never an Increment, never the authority key itself.
using Attached = std::vector<store::Mutation>;

class AuthorityOps {
 public:
  AuthorityOps(const LocationConfig& config, platform::Platform& platform,
               store::LocationStore& store, OwnerLease& lease);

  // Missing(StoreNow) or Found(record, StoreVersion, StoreNow). Never creates a generation.
  Result<AuthorityRead> read(const AuthorityKey& key);
  // The same, with the store request's deadline (local) given by the caller.
  Result<AuthorityRead> read(const AuthorityKey& key, TimeUs deadline_us);

  Result<AuthoritySnapshot> reserve(const ReserveRequest& request, const NodeView& target,
                                    const Attached& attached = {});
  Result<AuthoritySnapshot> commit(const AuthoritySnapshot& reserved, const Attached& attached = {});
  Result<Done> abort(const AuthoritySnapshot& reserved, const Attached& attached = {});
  Result<AuthoritySnapshot> preserve(const AuthoritySnapshot& active, std::string payload);
  Result<AuthoritySnapshot> new_owner(const AuthoritySnapshot& active, const NodeView& target);
  Result<Done> remove(const AuthoritySnapshot& active);  // Delete
  // The owner sweep's Delete (§11): a Reserved or Active row of this host run.
  Result<Done> sweep_remove(const AuthoritySnapshot& own);

  // Recovery of a row an earlier host run left (§3.3: only a Framework task responsible for
  // recovery replaces the owner or deletes the record; §7.1 for Instance Spots). `ended` is the
  // condition that the earlier owner lease has ended — its key absent, or its expired record at
  // the version read — so that host run cannot come back between the read and the write.
  // recover_new_owner: NewOwner of an Active row to `target`. recover_remove: Abort of a
  // Reserved row (capacity released in the same request). An Active row is deleted by taking it
  // over first, then remove() as its owner: Delete verifies the current owner lease (§6.1).
  Result<AuthoritySnapshot> recover_new_owner(const AuthoritySnapshot& active, const NodeView& target,
                                              const store::Condition& ended);
  Result<Done> recover_remove(const AuthoritySnapshot& row, const store::Condition& ended);

 private:
  struct Plan {
    PlannedWrite write;
    records::AuthorityRecord record;  // the row after the write (before it, for a removal)
  };
  enum class Op { kReserve, kCommit, kAbort, kPreserve, kNewOwner, kDelete, kSweepDelete };
  struct Executed {
    WriteOutcome outcome;
    records::AuthorityRecord record;
  };
  template <class PlanFn>
  Result<Executed> run(Op op, const AuthorityKey& key, const records::AuthorityRecord& intended,
                       const records::AuthorityRecord* previous, PlanFn&& plan);
  // What one attempt's write outcome means: the operation applied (`executed`, its events
  // emitted), failed (`error`, to report with the outcome), or met contention: neither, try again.
  struct AttemptEnd {
    std::optional<Executed> executed;
    std::optional<Error> error;
  };
  AttemptEnd judge_outcome(Op op, const AuthorityKey& key, const records::AuthorityRecord* previous, Plan& current,
                           const WriteOutcome& outcome);
  // The error a failed condition of the write means, or nullopt when the attempt may be retried
  // (the sequence counter or this host run's own lease record moved under it).
  std::optional<Error> conflict_error(const WriteOutcome& outcome, const PlannedWrite& write);
  // The row a kResolvedApplied write left: the stored bytes decoded (an earlier attempt's may
  // differ from `planned`), or `planned` for a removal.
  static records::AuthorityRecord stored_record(const records::AuthorityRecord& planned,
                                                const WriteOutcome& outcome);
  Result<Done> check_target(const NodeView& target, records::ObjectKind kind,
                            const std::string& stable_type) const;
  void add_target_conditions(PlannedWrite& write, const NodeView& target) const;
  void add_own_lease_condition(PlannedWrite& write) const;
  Result<Done> require_owner(const AuthoritySnapshot& snapshot, Op op);
  // The counter changes that secure `capacity` on `target` (capacity.h), bounded by its limits.
  std::vector<CapacityChange> secure(const records::AllocationCapacity& capacity,
                                     const records::MeshNodeDescriptorRecord& target) const;
  Result<Plan> plan_rewrite(const AuthoritySnapshot& current, const records::AuthorityRecord& after);
  Result<Plan> plan_removal(const AuthoritySnapshot& snapshot);
  static void add_attached(PlannedWrite& write, const Attached& attached);
  Result<store::Bytes> encode_record(const records::AuthorityRecord& record) const;
  void emit(Op op, const AuthorityKey& key, const records::AuthorityRecord& record,
            const records::AuthorityRecord* previous, std::string_view outcome,
            std::string_view cause, const WriteOutcome* write);
  void emit_indeterminate(std::string_view op, std::string_view id, std::string_view resolution);
  Result<Plan> plan_reserve(const AuthorityKey& key, const records::AuthorityRecord& intended,
                            const NodeView& target, const Attached& attached);
  static AuthoritySnapshot reserved_snapshot(const AuthorityKey& key, Executed& done);
  Result<AuthoritySnapshot> new_owner_under(const AuthoritySnapshot& active, const NodeView& target,
                                            const store::Condition* ended);
  Result<Plan> plan_new_owner(const AuthoritySnapshot& active, const records::AuthorityRecord& after,
                              const NodeView& target);
  AuthoritySnapshot new_owner_snapshot(const AuthoritySnapshot& active, Executed& done);
  void emit_capacity_refused(const PlannedWrite& write, const WriteOutcome& outcome);
  void emit_capacity(const PlannedWrite& write, const WriteOutcome& outcome);

  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;
  OwnerLease& _lease;
};

}  // namespace spotcheck::location
