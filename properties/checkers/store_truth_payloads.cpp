// The Relocation Store held against the authority rows that point into it (property store-truth;
// see store_truth_checker.h). §10: "Payloads stored in the Relocation Store ... are stored first
// and re-verified. Only afterward does the Location Store CAS to point at that reference ... On
// deletion, the Location Store first records the end of reference use, then the payload is
// deleted" (and §12: the ending of reference use is observed before payload deletion). Both sides
// come from the store host's own accounts: store.applied for the rows, store.payload_applied for
// the payloads.
#include <string>
#include <utility>

#include "impl/location/events/instance_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/checkers/store_truth_checker.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"
#include "sim/events/sim_events.h"

namespace spotcheck::properties {

// A row put that starts pointing at a payload needs the Relocation Store to hold that payload,
// with the bytes the pointer's SHA-256 names, already; a row that stops pointing (end of use, or
// removed) frees the reference.
std::optional<std::string> StoreTruthChecker::note_pointer(const std::string& key, const Row& before, const Row& next) {
  if (!before.pointer.empty() && before.pointer != next.pointer) {
    _pointed_by.erase(before.pointer);
  }
  if (next.pointer.empty() || next.pointer == before.pointer) {
    return std::nullopt;
  }
  _pointed_by.insert_or_assign(next.pointer, key);
  if (_payloads_full) {
    return std::nullopt;
  }
  const auto held = _payloads.find(next.pointer);
  if (held == _payloads.end()) {
    return "store.applied " + cite(next.event) + " made " + key + " point at the payload " + next.pointer +
           ", which the Relocation Store does not hold (§10: a payload is stored and verified before the Location "
           "Store points at it)";
  }
  if (held->second.first != next.pointer_sha256) {
    return "store.applied " + cite(next.event) + " made " + key + " point at the payload " + next.pointer +
           " with SHA-256 " + next.pointer_sha256 + ", but the Relocation Store holds other bytes there (" +
           held->second.first + ", " + cite(held->second.second) + ")";
  }
  return std::nullopt;
}

// store.payload_applied: a put adds the payload; a remove of a payload some row still points at
// deleted it before the end of its use was recorded.
std::optional<std::string> StoreTruthChecker::on_payload_applied(const sim::TraceEvent& event) {
  const auto read = read_event<sim::events::StorePayloadApplied>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const sim::events::StorePayloadApplied& applied = read.event;
  const std::string reference(applied.reference);
  if (applied.op == "put") {
    if (_ever_stored.size() >= kRequestsMax) {  // it holds every payload _payloads holds
      _payloads_full = true;
    } else {
      _payloads.insert_or_assign(reference, std::make_pair(std::string(applied.sha256), event.index));
      _ever_stored.insert_or_assign(reference, std::string(applied.sha256));
    }
    return std::nullopt;
  }
  _payloads.erase(reference);
  if (_ever_removed.size() < kRequestsMax) {
    _ever_removed.insert_or_assign(reference, event.index);
  }
  const auto pointer = _pointed_by.find(reference);
  if (pointer == _pointed_by.end()) {
    return std::nullopt;
  }
  return "store.payload_applied " + cite(event.index) + " removed the payload " + reference + " while " +
         pointer->second + " still points at it (" + authority_row_text(current_row(pointer->second)) +
         "; §10: on deletion the Location Store first records the end of reference use, then the payload is "
         "deleted)";
}

// The Instance Spot target's word on its payloads held against the store's account: a payload it
// reports stored (and verified) is one the store stored, with those bytes; one it reports removed
// (was_present=1) is one the store removed. Judged while the bounded ledgers hold everything.
std::optional<std::string> StoreTruthChecker::on_payload_claim(const sim::TraceEvent& event) {
  if (_payloads_full) {
    return std::nullopt;
  }
  if (event.kind == kinds::kInstancePayloadStored) {
    const auto read = read_event<location::events::InstancePayloadStored>(event);
    if (!read.ok()) {
      return std::nullopt;  // a malformed event is at-most-once's to report
    }
    const auto stored = _ever_stored.find(read.event.reference);
    if (stored != _ever_stored.end() && stored->second == read.event.sha256) {
      return std::nullopt;
    }
    return where(event) + " instance.payload_stored: node " + std::string(read.event.node) +
           " reported the payload " + std::string(read.event.reference) + " stored and verified (SHA-256 " +
           std::string(read.event.sha256) + "), but the Relocation Store " +
           (stored == _ever_stored.end() ? std::string("never stored it") : "stored other bytes there (" + stored->second + ")") +
           " (§10: a payload is pointed at only once stored and re-verified)";
  }
  const auto read = read_event<location::events::InstancePayloadReleased>(event);
  if (!read.ok() || read.event.was_present == 0 || _ever_removed.size() >= kRequestsMax ||
      _ever_removed.contains(read.event.reference)) {
    return std::nullopt;
  }
  return where(event) + " instance.payload_released: node " + std::string(read.event.node) + " reported the payload " +
         std::string(read.event.reference) + " removed (" + std::string(read.event.reason) +
         "), but the Relocation Store never removed it";
}

// store.payload_damaged (store-payload-damage): the store itself lost or changed a payload — not
// a protocol delete, so no row pointing at it is at fault; the account follows the store. An
// invisible spell changes nothing the store holds.
std::optional<std::string> StoreTruthChecker::on_payload_damaged(const sim::TraceEvent& event) {
  const auto read = read_event<sim::events::StorePayloadDamaged>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const std::string reference(read.event.reference);
  if (read.event.how == "lost") {
    _payloads.erase(reference);
  } else if (read.event.how == "corrupted") {
    if (const auto held = _payloads.find(reference); held != _payloads.end()) {
      held->second = std::make_pair(std::string(read.event.sha256), event.index);
    }
  }
  return std::nullopt;
}

// instance.data_lost (recorded or not): §10 DataLost only for a payload permanently missing or
// with other bytes. A payload the store still holds with the bytes the row's pointer names was
// at most temporarily invisible: it is re-read, never declared lost.
std::optional<std::string> StoreTruthChecker::on_data_lost_claim(const sim::TraceEvent& event) {
  const auto read = read_event<location::events::InstanceDataLost>(event);
  if (!read.ok() || read.event.action == "closed") {
    return std::nullopt;
  }
  if (read.event.action == "recorded") {
    // "The runtime records the error in the current location record" (§10): the store holds it.
    const std::string key = authority_row_key("spot", read.event.id);
    const Row& row = current_row(key);
    if (row.state != model::AuthorityState::kActive || row.object_gen != read.event.object_gen || !row.data_lost) {
      return where(event) + " instance.data_lost: node " + std::string(read.event.node) + " reported DataLost of " +
             key + " (ObjectGeneration " + std::to_string(read.event.object_gen) +
             ") recorded in its row, but the store holds " + authority_row_text(row) +
             (row.data_lost ? "" : " without it") + " (§10: the runtime records the error in the current location record)";
    }
  }
  if (_payloads_full) {
    return std::nullopt;
  }
  const auto held = _payloads.find(read.event.reference);
  if (held == _payloads.end() || held->second.first != read.event.sha256) {
    return std::nullopt;
  }
  return where(event) + " instance.data_lost: node " + std::string(read.event.node) + " declared the payload " +
         std::string(read.event.reference) + " of " + std::string(read.event.id) + " DataLost (" +
         std::string(read.event.reason) + "), but the Relocation Store holds it with the bytes the row points at (" +
         cite(held->second.second) +
         ") (§10: a temporarily invisible payload is re-read; DataLost only when it is permanently missing or its "
         "checksum differs)";
}

// instance.recovered first_message_restored: the instance was made again from the stored request
// the row points at, so the store must hold those very bytes (§10: nothing is restored from other
// bytes, no different payload is guessed at).
std::optional<std::string> StoreTruthChecker::on_restore_claim(const sim::TraceEvent& event) {
  const auto read = read_event<location::events::InstanceRecovered>(event);
  if (!read.ok() || read.event.action != "first_message_restored" || _payloads_full) {
    return std::nullopt;
  }
  const std::string key = authority_row_key("spot", read.event.id);
  const Row& row = current_row(key);
  if (row.pointer.empty()) {
    return std::nullopt;  // nothing points anywhere: the lockstep judges the row itself
  }
  const auto held = _payloads.find(row.pointer);
  if (held != _payloads.end() && held->second.first == row.pointer_sha256) {
    return std::nullopt;
  }
  return where(event) + " instance.recovered: node " + std::string(read.event.node) + " restored " + key +
         " (ObjectGeneration " + std::to_string(read.event.object_gen) + ") from the stored request " + row.pointer +
         ", but the Relocation Store " +
         (held == _payloads.end() ? std::string("does not hold it")
                                  : "holds other bytes there (" + held->second.first + ", " + cite(held->second.second) + ")") +
         " (§10: a payload permanently missing or whose checksum differs is DataLost; nothing is restored from it)";
}

}  // namespace spotcheck::properties
