// The target side of an Instance Spot request: cold activation (spec §7.1, §1.2, §10).
//
// handle(request) runs on the caller's task (it blocks on store calls) and, reading the
// Location Store row of the SpotId together with the in-process instance list:
//   Ready here, same generation, instance present -> runs the message on it (kDelivered);
//   Ready elsewhere                                 -> kRoute with the owner's RID;
//   Ready here without an instance of that generation -> never runs it on another generation;
//   Creating (Reserved)                            -> waits (bounded by the deadline) for that
//                                                     same creation's result, then re-reads;
//   a User Spot or another stable type             -> kTypeMismatch;
//   no record, and an incarnation of the Spot still closing in this host run (its Close's
//   Delete applied, the Close not ended: e.g. the Delete's reply outstanding) -> waits (bounded
//   by the deadline) for that local Close to end, then re-reads: a Spot has at most one
//   incarnation in the in-process list, and a new one is never exposed while an earlier one
//   is still closing here;
//   no record, an in-process instance without a Close running -> that instance is of an
//   earlier generation: dropped (it never receives the message), then cold activation;
//   no record -> cold activation:
//     1. put-once the encoded request under `instance:<spotId>:<opId>` in the Relocation Store
//        and re-verify it by get (instance.payload_stored);
//     2. Reserve a Creating row with this host run as owner; pendingCreation = {reservation id,
//        reference, SHA-256, size}; row payload = recovery pointer (instance_request.h). Only the
//        Reserve that succeeds runs the factory; a loser (AlreadyExists) releases its own
//        unreferenced payload and follows the winner's row. Right before the Reserve the
//        in-process list is checked again (the read that chose cold activation may be seconds
//        old: the payload write can stall): if an incarnation made meanwhile is closing here,
//        the request first waits for that local Close to end. If one was made and closed here
//        while the Reserve itself was in flight, the winner waits, holding its Creating row,
//        for that Close to end before it runs the factory; an instance left in the list after
//        a Reserve applied has no row: an earlier generation, dropped;
//     3. run the factory (instance.factory_run); a rejection/throw aborts the row (space
//        returned) and releases the payload;
//     4. Commit: Ready + capacity in use (pendingCreation cleared by Commit; the row payload still
//        points at the stored request);
//     5. restore the first message at the head of the new instance's queue and run the handler
//        before any other message (instance.first_message_run);
//     6. Preserve with an empty payload: the end of use recorded in the Location Store
//        (instance.end_of_use_recorded);
//     7. only then delete the payload from the Relocation Store (instance.payload_released).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/config/location_config.h"
#include "impl/location/instance/outcome.h"
#include "impl/location/instance/instance_registry.h"
#include "impl/location/instance/instance_request.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"
#include "impl/store/spi/relocation_store.h"

namespace spotcheck::location::instance {

struct InstanceTargetConfig {
  // Retention of a stored request no row points at (§10): deleted by the store after this.
  std::int64_t payload_retention_ms = 10 * 60 * 1000;
  platform::TimeUs wait_interval_us = platform::millis(20);  // re-read while another Creating runs
  platform::TimeUs store_retry_backoff_us = platform::millis(50);
  int attempts_max = 64;  // bound of every retry loop of one request
  // §10: a stored request a row points at that reads Missing is re-read this many times, this far
  // apart (the row re-checked after each), before it is DataLost: a temporarily invisible payload
  // is found again, a permanently missing one is not guessed at.
  int payload_rereads_max = 8;
  platform::TimeUs payload_reread_backoff_us = platform::millis(100);
};

struct InstanceTargetContext {
  const LocationConfig& config;
  platform::Platform& platform;
  store::LocationStore& store;
  store::RelocationStore& relocation;
  OwnerLease& lease;
  AuthorityOps& authority;
  std::string mesh_name;
  std::string rid_hex;
};

class InstanceTarget {
 public:
  InstanceTarget(InstanceTargetContext context, const InstanceRegistry& registry, InstanceTargetConfig config = {});
  InstanceTarget(const InstanceTarget&) = delete;
  InstanceTarget& operator=(const InstanceTarget&) = delete;

  InstanceOutcome handle(const InstanceRequest& request);
  // Close without Reincarnate (spec §7.2; framework 0.27): ends this host run's incarnation of
  // `spot_id`. The instance first refuses every new request with kSpotMoving (the owner fence,
  // before admission), then the Ready row is deleted (capacity released) and the instance
  // dropped. A later request finds no record and activates a new incarnation. Blocking.
  // Until close() returns, no new incarnation of `spot_id` starts in this host run (a request
  // that finds the row gone waits for it). kDelivered = closed; kNotFound = no Ready instance of
  // this host run (or its Close already began); kStoreError = the Delete kept failing (the
  // instance stays closing: it admits nothing more, and a request that finds no row drops it).
  InstanceOutcome close(const std::string& spot_id);
  // Close with Reincarnate (framework 0.27, instance_reincarnate.cpp): close() of this host run's
  // incarnation of `spot_id`, then at once the Spot's next incarnation here — a cold activation
  // this node requests of itself with a fresh OperationId and `initialize` as its first message
  // (run before any other), so a new ObjectGeneration from the store-wide sequence. Between the
  // Delete and the new Reserve the ID has no row: a request elsewhere may activate it first, and
  // then that incarnation stands (kRoute) — nothing is overwritten. kCreated = the new
  // incarnation is Ready here; close()'s outcome when the Close did not end this incarnation;
  // otherwise the activation's outcome. Blocking; `deadline_us` (local) bounds the activation.
  InstanceOutcome reincarnate(const std::string& spot_id, std::string initialize, platform::TimeUs deadline_us);
  // Close of an incarnation whose restore recorded DataLost in its row (it has no in-process
  // instance): the row (the error with it) is deleted, so a later request activates a new
  // incarnation. kDelivered = deleted; kNotFound = no DataLost row of this host run.

  // Crash recovery at startup (§7.1, instance_recovery.cpp): lists the authority rows once and
  // recovers every Instance Spot row an earlier host run of this node left — a Creating row is
  // cancelled (Abort, payload released); a Ready row whose first message completion was not
  // recorded is taken over (NewOwner) and its instance restored from the stored request, the first
  // message run before any new one; a Ready row whose first message completed is removed (its
  // instance died with that run). Each waits until the earlier run's owner lease has ended.
  // Blocking; ends by `until_us` (local time). A request meeting such a row recovers it the same way.
  void recover_earlier_runs(platform::TimeUs until_us);

  // In-process instance list (tests and diagnostics).
  bool has_instance(const std::string& spot_id) const { return _instances.count(spot_id) != 0; }
  std::uint64_t instance_generation(const std::string& spot_id) const;
  std::size_t messages_run(const std::string& spot_id) const;

 private:
  struct LocalInstance {
    std::string stable_type;
    std::uint64_t object_generation = 0;
    bool accepting = false;  // false until the first message ran
    bool closing = false;    // Close began: every new request is refused (kSpotMoving)
    bool close_running = false;  // close() is between its instance.closing and its end
    std::deque<InstanceMessage> queue;
    std::set<messaging::OperationId> ran;  // operations whose message already ran here
  };
  struct Stored {
    std::string reference;
    std::string sha256;
    std::uint64_t size_bytes = 0;
  };

  InstanceOutcome on_ready(const InstanceRequest& request, const AuthoritySnapshot& row);
  // What the Reserve step of a cold activation gave: the Creating row; or `failure` (the outcome
  // to answer); or neither: another target's Reserve won (the row exists now), follow it.
  struct ReserveStep {
    std::optional<AuthoritySnapshot> row;
    std::optional<InstanceOutcome> failure;
  };

  // nullopt: the Reserve lost (the row exists now): re-read and follow it.
  std::optional<InstanceOutcome> activate(const InstanceRequest& request, platform::TimeUs deadline_us);
  // Steps 1 and 2: the payload put-once and verified (an error's message says why not) ...
  Result<Stored> store_payload(const InstanceRequest& request);
  // ... and the Reserve pointing at it, after any local Close of the Spot ended.
  ReserveStep reserve_row(const InstanceRequest& request, const Stored& stored, platform::TimeUs deadline_us);
  // Step 3: the factory under admission; empty when it approved, else why not.
  std::string run_factory(const InstanceRequest& request, const InstanceType& type, std::uint64_t generation);
  // Step 5: the new instance with the first message at the head of its queue, run.
  void start_instance(const InstanceRequest& request, const InstanceType& type, std::uint64_t generation);
  // The first message at the head of `instance`'s empty queue; the task yields once (restoring it
  // is a queue turn of its own), then runs it before any other message.
  void run_first_message(LocalInstance& instance, const InstanceRequest& request, const InstanceType& type);

  // Recovery (instance_recovery.cpp). What recover() did with a row: kRecovered (re-read it),
  // kWait (the earlier run's lease is still valid, or another task is restoring it), kFailed.
  enum class Recovery { kRecovered, kWait, kFailed };
  bool left_by_earlier_run(const records::AuthorityRecord& record) const;
  bool recovering_here(const std::string& spot_id) const;
  Recovery recover(const AuthoritySnapshot& row);
  Recovery cancel_creating(const AuthoritySnapshot& row, const store::Condition& ended);
  Recovery restore(const AuthoritySnapshot& row, const store::Condition& ended, const RecoveryPointer& pointer);
  Recovery remove_completed(const AuthoritySnapshot& row, const store::Condition& ended);
  Recovery give_up_restore(const AuthoritySnapshot& row, const AuthoritySnapshot& owned,
                           const std::optional<InstanceRequest>& stored, const std::string& reference);
  // What reading the stored request of a row being restored gave (§10).
  struct PayloadRead {
    enum class Kind { kFound, kDataLost, kUnreadable };
    Kind kind = Kind::kUnreadable;
    std::optional<InstanceRequest> request;  // kFound
    std::string reason;  // kDataLost: missing | checksum | undecodable; kUnreadable: why
  };
  // The stored request `pointer` names, verified by size and SHA-256. Missing is re-read
  // (payload_rereads_max), the row `owned` re-checked after each miss; other bytes, or still
  // missing after the re-reads while the row still points at it, is DataLost.
  PayloadRead read_stored_request(const AuthoritySnapshot& owned, const RecoveryPointer& pointer);
  // The current row is still `owned`'s incarnation, this host run's, pointing at `reference`
  // (true when the read fails: nothing tells otherwise).
  bool still_points_at(const AuthoritySnapshot& owned, const std::string& reference);
  // DataLost: the error recorded in the row (Preserve), nothing restored, the application told.
  Recovery record_data_lost(const AuthoritySnapshot& row, const AuthoritySnapshot& owned,
                            const RecoveryPointer& pointer, const std::string& reason, const InstanceType& type);
  InstanceOutcome close_data_lost(const std::string& spot_id);
  // Deletes the Spot's row while `still_ours` holds for the row a read finds (a re-read before
  // each attempt, bounded): kDeleted; kNotOurs (gone, or not the row the caller meant: an earlier
  // attempt may have applied); kFailed (admission closed, or the attempts ran out).
  enum class OwnRowDelete { kDeleted, kNotOurs, kFailed };
  OwnRowDelete delete_own_row(const std::string& spot_id,
                              const std::function<bool(const records::AuthorityRecord&)>& still_ours);
  void emit_recovered(const AuthoritySnapshot& row, std::string_view action);
  // Delete of a row this run took over (bounded retries; false on a Conflict or after them).
  bool remove_taken_over(const AuthoritySnapshot& owned);
  // One startup pass over the rows `keys` names; true when none is left to recover.
  bool recover_rows(const std::vector<AuthorityKey>& keys);
  // Step 6: Preserve with an empty payload (bounded retries, re-reading after a failure); false
  // when the end of use could not be recorded (the payload is then kept).
  bool record_end_of_use(AuthoritySnapshot current, const std::string& reference);
  // Preserve of `current` (a row pointing at `reference`) with `payload` instead, bounded retries
  // re-reading after a failure; true once applied (or an earlier attempt applied).
  bool replace_row_payload(AuthoritySnapshot current, const std::string& reference, const std::string& payload);
  void release_payload(const InstanceRequest& request, const std::string& reference, std::string_view reason);
  void release_payload(std::string_view spot_id, std::string_view op_hex, const std::string& reference,
                       std::string_view reason);
  std::optional<NodeView> self_view();
  // The in-process incarnation of the Spot whose Close is still running here, or null.
  const LocalInstance* closing_here(const std::string& spot_id) const;
  // Whether the incarnation (spot_id, object_generation) of this host run is closing or gone.
  bool closed_since(const std::string& spot_id, std::uint64_t object_generation) const;
  // Waits (bounded by `deadline_us`) until no Close of the Spot runs here; false if the
  // deadline passed first. Emits instance.close_awaited when it has to wait.
  bool await_local_close(const InstanceRequest& request, platform::TimeUs deadline_us, std::string_view where);
  // Runs the queued messages in order; false when admission refused one (dropped unrun; the
  // rest stay queued).
  bool drain(LocalInstance& instance, const InstanceType& type, const std::string& spot_id);
  InstanceOutcome finish(const InstanceRequest& request, InstanceOutcome outcome);
  platform::TimeUs local_deadline_us(std::int64_t deadline_store_ms) const;
  platform::TimeUs store_deadline_us() const;

  InstanceTargetContext _context;
  const InstanceRegistry& _registry;
  InstanceTargetConfig _config;
  std::map<std::string, LocalInstance> _instances;  // by SpotId; ordered
  std::set<std::string> _recovering;  // SpotIds a task of this host run is recovering (recover())
};

}  // namespace spotcheck::location::instance
