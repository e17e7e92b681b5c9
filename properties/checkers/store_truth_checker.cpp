#include "properties/checkers/store_truth_checker.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/events/lease_events.h"
#include "impl/location/instance/instance_request.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/records/authority_record.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace {

using model::AuthorityOp;
using model::AuthorityState;
using Row = StoreTruthChecker::Row;

constexpr std::string_view kAuthorityPrefix = "authority/";

constexpr std::string_view kObjectGenerationCounter = "counter/object-generation";
// A stored final result (§7), as store.applied prints its key: "creation-result/<sha256>".
constexpr std::string_view kFinalResultPrefix = "creation-result/";
// A creation request stored with its Reserve: "creation-request/<reservationId>".
constexpr std::string_view kCreationRequestPrefix = "creation-request/";


// The row a store.applied put stored, or the reason it does not decode.
struct Decoded {
  std::optional<Row> row;
  std::string problem;
};

Decoded decode_row(std::string_view value, std::int64_t version, std::uint64_t index) {
  const records::RecordResult<records::AuthorityRecord> decoded = records::decode_authority_record(value);
  if (!decoded.ok()) {
    return {std::nullopt, "the stored authority row does not decode"};
  }
  const records::AuthorityRecord& record = decoded.value();
  Row row;
  row.state = record.allocation.state == records::AllocationState::kActive ? AuthorityState::kActive
                                                                             : AuthorityState::kReserved;
  row.version = version;
  row.object_gen = platform::as_i64(record.object_generation);
  row.owner_gen = platform::as_i64(record.authority_owner_generation);
  row.owner = record.owner_id;
  row.lease_gen = platform::as_i64(record.owner_lease_generation);
  const records::Allocation& allocation = record.allocation;
  row.slots.mesh = allocation.descriptor.mesh_name;
  row.slots.rid = allocation.descriptor.routing_id_hex;
  row.slots.actors = allocation.capacity.actors;
  row.slots.spots = allocation.capacity.spots;
  if (allocation.capacity.spot_type.has_value()) {
    row.slots.spot_kind = records::to_string(allocation.capacity.spot_type->object_kind);
    row.slots.stable_type = allocation.capacity.spot_type->stable_type;
    row.slots.spot_type = allocation.capacity.spot_type->count;
  }
  if (record.pending_creation.has_value()) {
    row.reservation_id = record.pending_creation->reservation_id;
  }
  if (const std::optional<location::instance::RecoveryPointer> pointer =
          location::instance::parse_recovery_pointer(record.payload)) {
    row.pointer = pointer->reference;
    row.pointer_sha256 = pointer->sha256;
  }
  row.data_lost = location::instance::is_data_lost(record.payload);
  row.event = index;
  return {row, ""};
}

bool same_owner(const Row& a, const Row& b) { return a.owner == b.owner && a.lease_gen == b.lease_gen; }

// The §6.1 operation a change of an existing or absent row is, or nullopt when it is none.
std::optional<AuthorityOp> operation_of(const Row& before, const Row& after) {
  switch (before.state) {
    case AuthorityState::kMissing:
      return AuthorityOp::kReserve;
    case AuthorityState::kReserved:
      return after.state == AuthorityState::kMissing ? AuthorityOp::kAbort : AuthorityOp::kCommit;
    case AuthorityState::kActive:
      if (after.state == AuthorityState::kMissing) {
        return AuthorityOp::kDelete;
      }
      return same_owner(before, after) ? AuthorityOp::kPreserve : AuthorityOp::kNewOwner;
  }
  return std::nullopt;
}

// What a legal state change still breaks in the generations or owner, or "".
std::string generation_problem(AuthorityOp op, const Row& before, const Row& after, std::int64_t highest_object_gen) {
  const bool same_gens = after.object_gen == before.object_gen && after.owner_gen == before.owner_gen;
  switch (op) {
    case AuthorityOp::kReserve:
      return after.object_gen > highest_object_gen ? ""
                                                   : "a Reserve's ObjectGeneration is not above the ID's earlier ones (" +
                                                         std::to_string(highest_object_gen) + ")";
    case AuthorityOp::kCommit:
      return same_gens && same_owner(before, after) ? "" : "a Commit changed the generations or the owner";
    case AuthorityOp::kPreserve:
      return same_gens ? "" : "a Preserve changed the generations";
    case AuthorityOp::kNewOwner:
      return after.object_gen == before.object_gen && after.owner_gen > before.owner_gen
                 ? ""
                 : "a NewOwner must keep ObjectGeneration and raise AuthorityOwnerGeneration";
    case AuthorityOp::kAbort:
    case AuthorityOp::kDelete:
      return "";
  }
  return "";
}

}  // namespace

std::string authority_row_key(std::string_view kind, std::string_view id) {
  return std::string(kAuthorityPrefix) + std::string(kind) + "/" + std::string(id);
}

std::string authority_row_text(const StoreTruthChecker::Row& row) {
  if (row.state == AuthorityState::kMissing) {
    return "Missing";
  }
  return std::string(model::to_string(row.state)) + " (object_gen " + std::to_string(row.object_gen) +
         ", owner_gen " + std::to_string(row.owner_gen) + ", owner " + row.owner + "/" +
         std::to_string(row.lease_gen) + ", StoreVersion " + std::to_string(row.version) + ")";
}

StoreTruthChecker::StoreTruthChecker(const PropertyOptions& options) : _judging(options.store_ground_truth) {}

std::optional<std::string> StoreTruthChecker::on_event(const sim::TraceEvent& event) {
  if (!_judging) {
    return std::nullopt;
  }
  if (event.kind == kinds::kStoreWritesLost) {
    // Out of contract (faults/out_of_contract.h): the store itself broke its word, and the
    // lockstep has nothing true to hold the rest of the run against. The protocol's own
    // properties go on judging what the loss led it to do.
    _judging = false;
    return std::nullopt;
  }
  if (event.kind == kinds::kStoreApplied) {
    return on_store_applied(event);
  }
  if (const std::optional<ParsedAuthority> parsed = authority_event_of(event)) {
    if (!parsed->change.has_value()) {
      return std::nullopt;  // a malformed event is the generations property's to report
    }
    return on_claim(event, *parsed->change);
  }
  if (event.kind == kinds::kLeaseRenewed) {
    return on_lease_claim(event);
  }
  if (event.kind == kinds::kCreationResult) {
    return on_creation_claim(event);
  }
  if (event.kind == kinds::kCreationCommandSent) {
    return on_command_sent(event);
  }
  if (event.kind == kinds::kStorePayloadApplied) {
    return on_payload_applied(event);
  }
  if (event.kind == kinds::kInstancePayloadStored || event.kind == kinds::kInstancePayloadReleased) {
    return on_payload_claim(event);
  }
  if (event.kind == kinds::kStorePayloadDamaged) {
    return on_payload_damaged(event);
  }
  if (event.kind == kinds::kInstanceDataLost) {
    return on_data_lost_claim(event);
  }
  if (event.kind == kinds::kInstanceRecovered) {
    return on_restore_claim(event);
  }
  return on_call_event(event);
}

// lease.renewed: the host adopted a lease record. The renew that stored that ExpiresAt must have
// applied before the ExpiresAt it replaced (§5: a lease is never revived) — judged by the store's
// account, whatever the host's own reply or re-read told it.
std::optional<std::string> StoreTruthChecker::on_lease_claim(const sim::TraceEvent& event) {
  const auto read = read_event<location::events::LeaseAdopted>(event);
  if (!read.ok()) {
    return std::nullopt;  // a malformed event is the lease checkers' to report
  }
  const location::events::LeaseAdopted& adopted = read.event;
  const HostRowsLedger::RenewFact* renew = _hosts.renew_that_wrote(adopted.owner, adopted.expires_ms);
  if (renew == nullptr || renew->applied_ms < renew->previous_expires_ms) {
    return std::nullopt;
  }
  return where(event) + " lease.renewed: host run " + std::string(adopted.owner) + "/" +
         std::to_string(adopted.lease_gen) + " adopted ExpiresAt " + std::to_string(adopted.expires_ms) +
         ", but the store applied that renew (" + cite(renew->event) + ") at StoreNow " +
         std::to_string(renew->applied_ms) + ", at or after the ExpiresAt " + std::to_string(renew->previous_expires_ms) +
         " it replaced: an expired lease was revived (§5)";
}

std::optional<std::string> StoreTruthChecker::on_store_applied(const sim::TraceEvent& event) {
  const std::int64_t part = event.number("part").value_or(0);
  const std::int64_t parts = event.number("mutations").value_or(0);
  if (part == 1) {
    _pending = AppliedWrite{event.number("store_now_ms").value_or(0), {}};
    _pending_parts = parts;
  }
  if (part != static_cast<std::int64_t>(_pending.parts.size()) + 1 || parts != _pending_parts || parts < 1) {
    return "store.applied " + cite(event.index) + " is part " + std::to_string(part) + " of " +
           std::to_string(parts) + ", out of its write's order";
  }
  _pending.parts.push_back(AppliedPart{std::string(event.text("key").value_or("")),
                                       std::string(event.text("mutation").value_or("")),
                                       event.number("old_version").value_or(-1),
                                       event.number("new_version").value_or(0),
                                       std::string(event.text("value").value_or("")),
                                       event.number("delta").value_or(0),
                                       event.number("counter").value_or(0),
                                       event.index});
  if (part < parts) {
    return std::nullopt;
  }
  return on_write(std::exchange(_pending, AppliedWrite{}));
}

std::optional<std::string> StoreTruthChecker::on_write(const AppliedWrite& write) {
  _implied_moves.emplace();
  for (const AppliedPart& part : write.parts) {
    std::int64_t& version = _versions[part.key];
    if (part.old_version != version) {
      return "store.applied " + cite(part.event) + " on " + part.key + " found StoreVersion " +
             std::to_string(part.old_version) + ", but the last write the store applied left " +
             std::to_string(version);
    }
    version = part.new_version;
    if (part.key.starts_with(kCapacityPrefix)) {
      _counter_moved.insert_or_assign(part.key, part.event);
    }
    if (part.key.starts_with(kFinalResultPrefix)) {
      if (std::optional<std::string> problem = note_stored_result(part)) {
        return problem;
      }
    }
    if (part.key.starts_with(kCreationRequestPrefix)) {
      note_creation_request(part);
    }
    if (part.key.starts_with(kAuthorityPrefix)) {
      if (std::optional<std::string> problem = on_authority_part(write, part)) {
        return problem;
      }
    } else if (std::optional<std::string> problem = _hosts.apply(write, part)) {
      return "store.applied " + cite(part.event) + " on " + part.key + ": " + *problem;
    }
  }
  return check_counter_moves(write);
}

std::optional<std::string> StoreTruthChecker::check_counter_moves(const AppliedWrite& write) const {
  if (!_implied_moves.has_value()) {
    return std::nullopt;
  }
  std::vector<model::CounterMove> moved;
  for (const AppliedPart& part : write.parts) {
    if (part.key.starts_with(kCapacityPrefix) && part.mutation == "increment") {
      moved.push_back({part.key, part.delta});
    }
  }
  std::vector<model::CounterMove> implied = *_implied_moves;
  std::sort(moved.begin(), moved.end());
  std::sort(implied.begin(), implied.end());
  if (moved == implied) {
    return std::nullopt;
  }
  auto text = [](const std::vector<model::CounterMove>& moves) {
    std::string out;
    for (const model::CounterMove& move : moves) {
      out += (out.empty() ? "" : ", ") + move.key + (move.delta >= 0 ? " +" : " ") + std::to_string(move.delta);
    }
    return out.empty() ? std::string("none") : out;
  };
  return "store.applied " + cite(write.parts.front().event) + ": the write moved the capacity counters [" +
         text(moved) + "], but its authority changes imply [" + text(implied) +
         "] (§3.3, §4: one counter per node and category, model/capacity_counters.h)";
}

std::optional<std::string> StoreTruthChecker::on_authority_part(const AppliedWrite& write, const AppliedPart& part) {
  auto it = _rows.find(part.key);
  if (it == _rows.end()) {
    it = _rows.emplace(part.key, Ledger{}).first;
  }
  Ledger& ledger = it->second;
  Row next;
  next.event = part.event;
  if (part.mutation == "put") {
    Decoded decoded = decode_row(part.value, part.new_version, part.event);
    if (!decoded.row.has_value()) {
      return "store.applied " + cite(part.event) + " on " + part.key + ": " + decoded.problem;
    }
    next = std::move(*decoded.row);
  } else if (part.mutation == "increment") {
    return "store.applied " + cite(part.event) + " incremented the authority row " + part.key;
  } else if (ledger.current.state == AuthorityState::kMissing) {
    return std::nullopt;  // deleting an absent row changes nothing
  }
  const std::optional<AuthorityOp> op = operation_of(ledger.current, next);
  if (std::optional<std::string> problem = check_transition(write, part, ledger, next, op)) {
    return problem;
  }
  SPOTCHECK_ASSERT_ABORT(op.has_value());  // check_transition passed: a legal operation of §6.1
  if (std::optional<std::string> problem = check_owner_lease(write, part, *op, next)) {
    return problem;
  }
  note_implied_moves(ledger.current, next, *op);
  if (std::optional<std::string> problem = note_pointer(part.key, ledger.current, next)) {
    return problem;
  }
  if (next.state == AuthorityState::kMissing) {
    Row gone = ledger.current;
    gone.event = part.event;
    ledger.removed.push_back(std::move(gone));
  } else {
    ledger.highest_object_gen = std::max(ledger.highest_object_gen, next.object_gen);
    ledger.stored.push_back(next);
  }
  ledger.current = std::move(next);
  return std::nullopt;
}

// Adds the capacity moves the change before -> next implies to the write's (§6.1).
void StoreTruthChecker::note_implied_moves(const Row& before, const Row& next, AuthorityOp op) {
  if (!_implied_moves.has_value()) {
    return;
  }
  std::vector<model::CounterMove> moves;
  switch (op) {
    case AuthorityOp::kReserve:
      moves = model::capacity_moves(next.slots, +1);
      break;
    case AuthorityOp::kAbort:
    case AuthorityOp::kDelete:
      moves = model::capacity_moves(before.slots, -1);
      break;
    case AuthorityOp::kCommit:
    case AuthorityOp::kPreserve:
      break;
    case AuthorityOp::kNewOwner:
      _implied_moves.reset();  // moves between nodes: not judged here (the capacity property's)
      return;
  }
  _implied_moves->insert(_implied_moves->end(), moves.begin(), moves.end());
}

std::optional<std::string> StoreTruthChecker::check_transition(const AppliedWrite& write, const AppliedPart& part,
                                                               const Ledger& ledger, const Row& next,
                                                               std::optional<AuthorityOp> op) const {
  const Row& before = ledger.current;
  const std::string change = part.key + " went " + authority_row_text(before) + " -> " + authority_row_text(next);
  if (!op.has_value() || !model::legal(before.state, next.state, *op)) {
    return "store.applied " + cite(part.event) + ": " + change +
           ", which is no operation of §6.1 (model/authority_transitions.h)";
  }
  std::string problem = generation_problem(*op, before, next, ledger.highest_object_gen);
  if (problem.empty() && *op == AuthorityOp::kReserve) {
    const std::optional<std::int64_t> issued = write.counter_after(kObjectGenerationCounter);
    if (issued != next.object_gen) {
      problem = "its write issued " + (issued.has_value() ? "ObjectGeneration " + std::to_string(*issued)
                                                          : "no ObjectGeneration from " +
                                                                std::string(kObjectGenerationCounter)) +
                " (§3.2)";
    }
  }
  if (!problem.empty()) {
    return "store.applied " + cite(part.event) + ": " + change + " as a " + model::to_string(*op) + ": " + problem;
  }
  return std::nullopt;
}

std::optional<std::string> StoreTruthChecker::on_claim(const sim::TraceEvent& event, const AuthorityEvent& claim) {
  if (!claim.applied()) {
    return std::nullopt;
  }
  const std::string key = authority_row_key(claim.kind, claim.id);
  const auto it = _rows.find(key);
  const std::string what = describe_write(claim, event.index);
  if (it == _rows.end()) {
    cite(event.index);
    return what + " claims applied, but the store applied no write to " + key;
  }
  const Ledger& ledger = it->second;
  if (claim.op == AuthorityOp::kDelete) {
    auto& deletes = _node_deletes[{event.node, key}];
    deletes.emplace_back(claim.object_gen, event.index);
    if (deletes.size() > kDeletesKept) {
      deletes.erase(deletes.begin());
    }
  }
  if (claim.removes_row()) {
    for (auto row = ledger.removed.rbegin(); row != ledger.removed.rend(); ++row) {
      if (row->object_gen == claim.object_gen) {
        return std::nullopt;
      }
    }
    cite(event.index);
    return what + " claims applied, but the store never removed a row of object_gen " +
           std::to_string(claim.object_gen) + " of " + key;
  }
  const std::optional<AuthorityState> state = claim.row_state();
  for (auto row = ledger.stored.rbegin(); row != ledger.stored.rend(); ++row) {
    if (state == row->state && row->object_gen == claim.object_gen && row->owner_gen == claim.owner_gen &&
        row->owner == claim.owner.owner && row->lease_gen == claim.owner.lease_gen &&
        (claim.version == 0 || row->version == claim.version)) {
      return std::nullopt;
    }
  }
  cite(event.index);
  return what + " claims applied (StoreVersion " + std::to_string(claim.version) +
         "), but the store never stored that row of " + key + "; it holds " + authority_row_text(ledger.current) +
         (ledger.current.state != AuthorityState::kMissing || !ledger.removed.empty()
              ? " since " + cite(ledger.current.event)
              : "");
}

}  // namespace spotcheck::properties
