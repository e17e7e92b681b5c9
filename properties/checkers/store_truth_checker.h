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
//   * the write moved exactly the capacity counters its authority changes imply, named by
//     model/capacity_counters.h (Reserve secures the allocation's slots, Abort and Delete return
//     them, Commit and Preserve move none; NewOwner is not judged here), and no write without an
//     authority change moves one (§3.3, §4, §6.1);
//   * every stored row decodes.
//   * fencing from the store's side (store_truth_fencing.cpp, §5, §6.1): a row stored naming a
//     host run (OwnerId, LeaseGeneration) was stored while the store held that OwnerId's owner lease
//     row at that LeaseGeneration — every Reserve, NewOwner, Commit and Preserve is conditioned on
//     the named owner's lease row as its writer read it — and a write of the row's own owner (Commit,
//     Preserve: only the owner writes them) applied before that lease row's ExpiresAt;
// per owner lease row, descriptor row and counter: the rules of store_truth_hosts.h (§3.1, §4).
// The protocol's word against the truth:
//   * an authority.* event with outcome applied names a row the store stored (the same state,
//     generations and owner, and the same StoreVersion when the event reports one), or, for an
//     abort or delete, a row of its ObjectGeneration the store removed;
//   * a call's answer is held against what the store held during the call (store_truth_claims.cpp):
//     a creation that answers created/existing with a ref, the store held that ObjectGeneration
//     Active; one answered from the store read its own request's stored final result (the store
//     stored one for that source host run and OperationId, with that outcome and ref); one
//     answered already_exists, the store held a row of the ID; a Close/Destroy answered closed (by the owner, close.result, or to the caller,
//     close.finished), the store removed a row of the ref's ObjectGeneration; not_found, the row
//     was absent; stale_generation, the store held another generation of the ID; an Instance Spot
//     request answered created, delivered or route, the store held that generation Active
//     while the node handled it (§7, §7.1, §7.2, §10);
//   * a creation's Reserve refused because a node's capacity counter was full (capacity.refused)
//     went to a node whose counter some write moved since the call began: placement reads the
//     counters during the call and chooses only nodes with room (§4), so a counter full and
//     unmoved all along was never a candidate;
//   * a create command goes only for the Creating row its own request reserved, and a final
//     result is never stored over another request's (store_truth_requests.cpp, §7).
// The Relocation Store (store.payload_applied) against the rows that point into it
// (store_truth_payloads.cpp, §7.1, §10): a row starts pointing at a payload only once the store
// holds those bytes, and no payload is removed while a row still points at it; the target's
// instance.payload_stored / payload_released name a payload the store stored / removed; a
// restore runs only from the bytes the row's pointer names, and DataLost (instance.data_lost) is
// claimed only for a payload the store lost or changed (store.payload_damaged), never for one it
// holds as pointed at (a temporarily invisible payload is re-read).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/location/events/creation_events.h"
#include "model/authority_transitions.h"
#include "model/capacity_counters.h"
#include "properties/checkers/store_truth_hosts.h"
#include "properties/common/authority_event.h"
#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

// The printable key of an authority row, as store.applied names it: "authority/<kind>/<id>".
std::string authority_row_key(std::string_view kind, std::string_view id);

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
    model::AllocationSlots slots;  // the capacity its allocation holds
    std::string reservation_id;    // pendingCreation's, while Reserved by a creation
    std::string pointer;           // the Relocation Store reference its payload points at (§7.1), or empty
    std::string pointer_sha256;
    bool data_lost = false;        // its payload records §10 DataLost
  };

 private:
  struct Ledger {
    Row current;                   // state kMissing when absent
    std::vector<Row> stored;       // every row the store stored, in order
    std::vector<Row> removed;      // every row the store removed, in order
    std::int64_t highest_object_gen = 0;
  };

  // One Manager call in progress: its authority row and the row the store held when it began.
  struct Call {
    std::string key;
    std::int64_t object_gen = 0;  // the ref's (Close/Destroy); 0 for a creation
    Row at_start;
    std::uint64_t start_event = 0;
    bool answered_by_owner = false;  // a Close that got its owner's command-20 reply
  };

  std::optional<std::string> on_lease_claim(const sim::TraceEvent& event);
  std::optional<std::string> on_creation_claim(const sim::TraceEvent& event);
  // store_truth_claims.cpp: Manager calls' answers against the store.
  std::optional<std::string> on_call_event(const sim::TraceEvent& event);
  void begin_call(std::string_view op_id, std::string key, std::int64_t object_gen, std::uint64_t event);
  std::optional<std::string> on_creation_finished(const sim::TraceEvent& event);
  // store_truth_requests.cpp: request identity (§7) from the store's own records.
  std::optional<std::string> note_stored_result(const AppliedPart& part);
  void note_creation_request(const AppliedPart& part);
  std::optional<std::string> stored_answer_problem(const location::events::CreationFinished& finished) const;
  std::optional<std::string> on_command_sent(const sim::TraceEvent& event);
  // store_truth_payloads.cpp: the Relocation Store against the rows that point into it (§10).
  std::optional<std::string> on_payload_applied(const sim::TraceEvent& event);
  std::optional<std::string> note_pointer(const std::string& key, const Row& before, const Row& next);
  std::optional<std::string> on_payload_claim(const sim::TraceEvent& event);
  std::optional<std::string> on_payload_damaged(const sim::TraceEvent& event);
  std::optional<std::string> on_data_lost_claim(const sim::TraceEvent& event);
  std::optional<std::string> on_restore_claim(const sim::TraceEvent& event);
  std::optional<std::string> on_instance_outcome(const sim::TraceEvent& event);
  std::optional<std::string> on_capacity_refused(const sim::TraceEvent& event);
  std::optional<std::string> on_close_answer(const sim::TraceEvent& event, std::string_view op_id,
                                             std::string_view outcome, bool finished);
  template <class Holds>
  bool held_during(const Call& call, Holds holds) const;
  const Row& current_row(const std::string& key) const;
  bool removed_during(const Call& call, std::int64_t object_gen) const;
  std::optional<std::string> closed_problem(std::int32_t node, const Call& call, bool finished) const;
  std::optional<std::string> on_store_applied(const sim::TraceEvent& event);
  std::optional<std::string> on_write(const AppliedWrite& write);
  std::optional<std::string> on_authority_part(const AppliedWrite& write, const AppliedPart& part);
  // store_truth_fencing.cpp: a stored row's owner against the owner lease the store held (§5, §6.1).
  // `op` is the legal operation check_transition found the change to be.
  std::optional<std::string> check_owner_lease(const AppliedWrite& write, const AppliedPart& part, model::AuthorityOp op,
                                               const Row& next) const;
  // `op`: the operation the change before -> next is, if any (operation_of).
  std::optional<std::string> check_transition(const AppliedWrite& write, const AppliedPart& part,
                                              const Ledger& ledger, const Row& next,
                                              std::optional<model::AuthorityOp> op) const;
  std::optional<std::string> on_claim(const sim::TraceEvent& event, const AuthorityEvent& claim);
  std::optional<std::string> check_counter_moves(const AppliedWrite& write) const;
  void note_implied_moves(const Row& before, const Row& next, model::AuthorityOp op);

  bool _judging = true;  // PropertyOptions::store_ground_truth
  std::map<std::string, Ledger, std::less<>> _rows;  // authority rows, by the store.applied key text
  std::map<std::string, std::int64_t, std::less<>> _versions;  // every key's StoreVersion (absent: 0)
  HostRowsLedger _hosts;
  // Applied Deletes each node claimed, per authority row (the newest kDeletesKept): (ObjectGeneration, event).
  static constexpr std::size_t kDeletesKept = 16;
  std::map<std::pair<std::int32_t, std::string>, std::vector<std::pair<std::int64_t, std::uint64_t>>> _node_deletes;
  StringMap<Call> _calls;
  // Every final result the store stored (§7), by its request (request_key): bounded; once full,
  // answers from the store go unjudged.
  struct StoredResult {
    std::string outcome;
    std::int64_t object_gen = 0;  // the ref's, for created
    std::uint64_t event = 0;      // the store.applied that stored it
  };
  static constexpr std::size_t kRequestsMax = 1 << 16;
  std::map<std::string, StoredResult, std::less<>> _stored_results;
  // Each creation-result key the store holds: the request whose result it is, and the put's event.
  std::map<std::string, std::pair<std::string, std::uint64_t>, std::less<>> _result_key_requests;
  bool _stored_results_full = false;
  // Each reservationId the store stored a creation request under: its request (request_key).
  std::map<std::string, std::string, std::less<>> _reservation_requests;
  bool _reservation_requests_full = false;
  // The payloads the Relocation Store holds (store.payload_applied), by reference: the bytes'
  // SHA-256 and the event that stored them; and which authority row points at each reference.
  std::map<std::string, std::pair<std::string, std::uint64_t>, std::less<>> _payloads;
  bool _payloads_full = false;
  std::map<std::string, std::string, std::less<>> _pointed_by;  // reference -> authority row key
  // Every payload the store ever stored (reference -> its bytes' SHA-256) and every reference it
  // ever removed: what the Instance Spot target's payload events may claim.
  std::map<std::string, std::string, std::less<>> _ever_stored;
  std::map<std::string, std::uint64_t, std::less<>> _ever_removed;  // reference -> the remove's event
  // The creation call each (node, task) runs: the index of its creation.requested.
  std::map<std::pair<std::int32_t, std::uint64_t>, std::uint64_t> _task_calls;
  // Each capacity counter's last applied move (store.applied index).
  StringMap<std::uint64_t> _counter_moved;  // op_id -> the Manager call in progress (creation.requested, close.requested)
  AppliedWrite _pending;  // the parts of the write being reported
  // The capacity moves the authority changes of the write being judged imply (model/), or nullopt
  // when one of them (NewOwner) is not judged.
  std::optional<std::vector<model::CounterMove>> _implied_moves;
  std::int64_t _pending_parts = 0;
};

// One authority row as a sentence: "Active (object_gen 3, owner_gen 1, owner n1/2, StoreVersion 7)".
std::string authority_row_text(const StoreTruthChecker::Row& row);

}  // namespace spotcheck::properties
