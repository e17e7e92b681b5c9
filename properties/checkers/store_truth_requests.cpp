// The request identity of creation (§7) judged from the store: a request is (source host run,
// OperationId), and the store's own records say which request secured a Creating row (the
// creation-request stored with its Reserve) and which request a final result belongs to (property
// store-truth; see store_truth_checker.h).
#include <string>
#include <utility>

#include "impl/location/creation/stored_records.h"
#include "impl/location/events/creation_events.h"
#include "impl/location/messaging/commands.h"
#include "impl/platform/event_kinds.h"
#include "properties/checkers/creation_checker.h"
#include "properties/checkers/store_truth_checker.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace {

namespace events = location::events;
using model::AuthorityState;

// The authority row kind a create command names: 49 creates an Actor, 47 a User Spot (§7).
std::string_view row_kind_of_command(std::int64_t cmd) {
  return cmd == static_cast<std::int64_t>(location::messaging::CommandCode::kActorCreate) ? "actor" : "spot";
}

// The request a stored record names (its operation: source host run and OperationId).
std::string request_of(const location::creation::OperationKey& operation) {
  return request_key(platform::as_i64(operation.source_lease_generation), operation.op_id.hex());
}

}  // namespace

// An applied put or delete of a stored final result (§7): a put is remembered under its own
// request identifier. A key holds one request's result: a put over another request's result (not
// deleted first) means two requests share a key, and the earlier one's result is lost.
std::optional<std::string> StoreTruthChecker::note_stored_result(const AppliedPart& part) {
  if (part.mutation != "put") {
    _result_key_requests.erase(part.key);
    return std::nullopt;
  }
  const std::optional<location::creation::FinalResultRecord> record = location::creation::decode_final_result(part.value);
  if (!record.has_value()) {
    return std::nullopt;  // not a final result this build can read: nothing to hold answers against
  }
  if (_stored_results.size() >= kRequestsMax || _result_key_requests.size() >= kRequestsMax) {
    _stored_results_full = true;
    return std::nullopt;
  }
  const std::int64_t object_gen = record->ref.has_value() ? platform::as_i64(record->ref->object_generation) : 0;
  const std::string request = request_of(record->operation);
  _stored_results.insert_or_assign(
      request, StoredResult{std::string(location::messaging::to_string(record->outcome)), object_gen, part.event});
  const auto [held, fresh] = _result_key_requests.try_emplace(part.key, request, part.event);
  if (fresh || held->second.first == request) {
    return std::nullopt;
  }
  std::string problem = "store.applied " + cite(part.event) + " stored the final result of operation " + request +
                        " at " + part.key + ", over the result of another request (" + held->second.first + ", " +
                        cite(held->second.second) + ") that was never deleted (§7: the key is drawn from the " +
                        "whole request identifier — source RID, host run generation, OperationId)";
  held->second = {request, part.event};
  return problem;
}

// A creation answered from the store (from_store) must have read its own request's final result:
// the store stored one for (source host run, OperationId), with the outcome and ref answered. An
// OperationId reused by a later host run is another request, whose answer is never the earlier
// run's stored result (§7: the request identifier holds the source host run generation).
std::optional<std::string> StoreTruthChecker::stored_answer_problem(const location::events::CreationFinished& finished) const {
  const std::string request = request_key(finished.source_gen, finished.op_id);
  const auto found = _stored_results.find(request);
  if (found == _stored_results.end()) {
    if (_stored_results_full) {
      return std::nullopt;
    }
    std::string other;
    for (const auto& [key, stored] : _stored_results) {
      if (key.starts_with(std::string(finished.op_id) + " ")) {
        other = "; the store holds a result of the same OperationId for another request (" + key + ", " +
                cite(stored.event) + ")";
        break;
      }
    }
    return "operation " + request + " answered '" + std::string(finished.outcome) +
           "' from the store, but the store never stored a final result of this request" + other +
           " (§7: only the same request's result can be read)";
  }
  const StoredResult& stored = found->second;
  if (stored.outcome == finished.outcome && (stored.object_gen == 0 || stored.object_gen == finished.object_gen)) {
    return std::nullopt;
  }
  return "operation " + request + " answered '" + std::string(finished.outcome) + "' (ObjectGeneration " +
         std::to_string(finished.object_gen) + ") from the store, but its stored final result (" + cite(stored.event) +
         ") is '" + stored.outcome + "' (ObjectGeneration " + std::to_string(stored.object_gen) + ")";
}

// An applied put of a creation request (written with its Reserve): which request its
// reservationId stands for.
void StoreTruthChecker::note_creation_request(const AppliedPart& part) {
  if (part.mutation != "put") {
    return;
  }
  const std::optional<location::creation::CreationRequestRecord> request =
      location::creation::decode_creation_request(part.value);
  if (!request.has_value()) {
    return;
  }
  if (_reservation_requests.size() >= kRequestsMax) {
    _reservation_requests_full = true;
    return;
  }
  _reservation_requests.insert_or_assign(request->reservation_id, request_of(request->operation));
}

// creation.command_sent: a source sends the create command only for the Creating row its own
// request secured (§7: "request creation, specifying the secured record"). The row the store
// reserved at that ObjectGeneration names a reservationId; the creation request stored with it
// names the request. Another request's row (e.g. the same OperationId's row from an earlier host
// run) is not this request's to drive or to cancel.
std::optional<std::string> StoreTruthChecker::on_command_sent(const sim::TraceEvent& event) {
  const auto read = read_event<events::CreationCommandSent>(event);
  if (!read.ok() || _reservation_requests_full) {
    return std::nullopt;  // a malformed event is exactly-one-creation's to report
  }
  const events::CreationCommandSent& sent = read.event;
  const auto ledger = _rows.find(authority_row_key(row_kind_of_command(sent.cmd), sent.id));
  if (ledger == _rows.end()) {
    return std::nullopt;
  }
  const std::string request = request_key(sent.source_gen, sent.op_id);
  for (const Row& row : ledger->second.stored) {
    if (row.object_gen != sent.object_gen || row.state != AuthorityState::kReserved) {
      continue;
    }
    const auto owner = _reservation_requests.find(row.reservation_id);
    if (owner == _reservation_requests.end() || owner->second == request) {
      return std::nullopt;
    }
    return where(event) + " creation.command_sent: operation " + request + " sent command " +
           std::to_string(sent.cmd) + " for " + std::string(sent.id) + " at ObjectGeneration " +
           std::to_string(sent.object_gen) + ", but the store reserved that Creating row (" + cite(row.event) +
           ") for another request (" + owner->second + ", reservationId " + row.reservation_id +
           ") (§7: a source drives only the record its own request secured)";
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties
