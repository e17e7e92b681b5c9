// The Manager calls' answers held against what the store held during the call (property
// store-truth; see store_truth_checker.h). A call's window runs from its *.requested event to the
// event that reports its answer; "the store held X during the call" means X was the row when the
// call began or some row the store applied after it.
#include <algorithm>
#include <utility>
#include <vector>

#include "impl/location/events/authority_events.h"
#include "impl/location/events/creation_events.h"
#include "impl/location/events/instance_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/checkers/creation_checker.h"
#include "properties/checkers/store_truth_checker.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace {

namespace events = location::events;
using model::AuthorityState;
using Row = StoreTruthChecker::Row;

// Calls remembered at once (a call whose answer never comes — its node died — is forgotten last).
constexpr std::size_t kCallsMax = 1 << 16;

bool is_absent(const Row& row) { return row.state == AuthorityState::kMissing; }

// An Instance Spot request's handling on one node (a request may be routed on to another).
std::string instance_call(std::string_view op_id, std::string_view node) {
  return std::string(op_id) + "@" + std::string(node);
}

}  // namespace

// creation.result: the target recorded a final result. 'created' means the same write made the row
// Active at that ObjectGeneration (§7: Ready and the final result in one step): the store must
// have stored that row, under this host run, before the result was reported.
std::optional<std::string> StoreTruthChecker::on_creation_claim(const sim::TraceEvent& event) {
  const auto read = read_event<location::events::CreationResult>(event);
  if (!read.ok() || read.event.outcome != "created") {
    return std::nullopt;  // a malformed event is exactly-one-creation's to report
  }
  const location::events::CreationResult& result = read.event;
  const std::string key = authority_row_key(result.kind, result.id);
  if (const auto it = _rows.find(key); it != _rows.end()) {
    for (const Row& row : it->second.stored) {
      if (row.state == AuthorityState::kActive && row.object_gen == result.object_gen && row.owner == result.owner &&
          row.lease_gen == result.lease_gen) {
        return std::nullopt;
      }
    }
  }
  return where(event) + " creation.result: operation " + std::string(result.op_id) + " reports " + key +
         " created at ObjectGeneration " + std::to_string(result.object_gen) + " by host run " +
         std::string(result.owner) + "/" + std::to_string(result.lease_gen) +
         ", but the store never made that row Active (§7, §10: an unknown Commit is never taken as applied)";
}

std::optional<std::string> StoreTruthChecker::on_call_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kCapacityRefused) {
    return on_capacity_refused(event);
  }
  if (event.kind == kinds::kCreationRequested) {
    _task_calls.insert_or_assign({event.node, event.task}, event.index);
    const auto read = read_event<events::CreationRequested>(event);
    if (read.ok()) {
      begin_call(request_key(read.event.source_gen, read.event.op_id), authority_row_key(read.event.kind, read.event.id),
                 0, event.index);
    }
    return std::nullopt;
  }
  if (event.kind == kinds::kCreationFinished) {
    _task_calls.erase({event.node, event.task});
    return on_creation_finished(event);
  }
  if (event.kind == kinds::kCloseRequested) {
    const auto read = read_event<events::CloseRequested>(event);
    if (read.ok()) {
      begin_call(read.event.op_id, authority_row_key(read.event.kind, read.event.id), read.event.object_gen,
                 event.index);
    }
    return std::nullopt;
  }
  if (event.kind == kinds::kInstanceRequestReceived) {
    const auto read = read_event<events::InstanceRequestReceived>(event);
    if (read.ok()) {
      begin_call(instance_call(read.event.op_id, read.event.node), authority_row_key("spot", read.event.id), 0,
                 event.index);
    }
    return std::nullopt;
  }
  if (event.kind == kinds::kInstanceOutcome) {
    return on_instance_outcome(event);
  }
  if (event.kind == kinds::kCloseReplyDelivered) {
    const auto read = read_event<events::CloseReplyDelivered>(event);
    if (const auto found = read.ok() ? _calls.find(read.event.op_id) : _calls.end(); found != _calls.end()) {
      found->second.answered_by_owner = true;
    }
    return std::nullopt;
  }
  if (event.kind == kinds::kCloseResult) {
    const auto read = read_event<events::CloseResult>(event);
    return read.ok() ? on_close_answer(event, read.event.op_id, read.event.outcome, false) : std::nullopt;
  }
  if (event.kind == kinds::kCloseFinished) {
    const auto read = read_event<events::CloseFinished>(event);
    return read.ok() ? on_close_answer(event, read.event.op_id, read.event.outcome, true) : std::nullopt;
  }
  return std::nullopt;
}

void StoreTruthChecker::begin_call(std::string_view op_id, std::string key, std::int64_t object_gen,
                                   std::uint64_t event) {
  if (_calls.size() >= kCallsMax) {
    return;  // too many calls in flight: the newest go unjudged
  }
  if (_calls.contains(op_id)) {
    return;  // a resend of a call in progress: its window began at the first
  }
  Row at_start = current_row(key);
  _calls.emplace(std::string(op_id), Call{std::move(key), object_gen, std::move(at_start), event});
}

const Row& StoreTruthChecker::current_row(const std::string& key) const {
  static const Row kAbsent{};
  const auto it = _rows.find(key);
  return it == _rows.end() ? kAbsent : it->second.current;
}

// Whether the call's row satisfied `holds` at some moment of the call: when it began, or in a row
// the store applied since (an applied removal leaves the row absent).
template <class Holds>
bool StoreTruthChecker::held_during(const Call& call, Holds holds) const {
  if (holds(call.at_start)) {
    return true;
  }
  const auto it = _rows.find(call.key);
  if (it == _rows.end()) {
    return false;
  }
  for (auto row = it->second.stored.rbegin(); row != it->second.stored.rend() && row->event > call.start_event; ++row) {
    if (holds(*row)) {
      return true;
    }
  }
  for (auto row = it->second.removed.rbegin(); row != it->second.removed.rend() && row->event > call.start_event;
       ++row) {
    if (holds(Row{})) {
      return true;
    }
  }
  return false;
}

// creation.finished: a ref handed out (created, existing) names a row the store held Active at that
// ObjectGeneration during the call (§7: GetOrCreate waits on Creating; a ref is a Ready object);
// an answer from the store is the request's own stored result (stored_answer_problem); an
// already_exists needs a row of the ID (Ready or Creating) the store held during the call.
std::optional<std::string> StoreTruthChecker::on_creation_finished(const sim::TraceEvent& event) {
  const auto read = read_event<events::CreationFinished>(event);
  if (!read.ok()) {
    return std::nullopt;
  }
  const events::CreationFinished& finished = read.event;
  const std::string request = request_key(finished.source_gen, finished.op_id);
  const auto found = _calls.find(request);
  if (found == _calls.end()) {
    return std::nullopt;
  }
  const Call call = std::move(found->second);
  _calls.erase(found);
  if (finished.from_store != 0) {
    // The same request's stored result answers again, with the ref it recorded then — which may
    // name a generation gone since (§7 "Re-response").
    std::optional<std::string> problem = stored_answer_problem(finished);
    return problem.has_value() ? std::optional<std::string>(where(event) + " creation.finished: " + *problem)
                               : std::nullopt;
  }
  if (finished.outcome == "already_exists") {
    if (held_during(call, [](const Row& row) { return !is_absent(row); })) {
      return std::nullopt;
    }
    return where(event) + " creation.finished: operation " + request +
           " answered 'already_exists' for " + call.key + ", but during the call (since " + cite(call.start_event) +
           ") the store never held a row of that ID (§7: AlreadyExists is a Ready or Creating record)";
  }
  if (finished.outcome != "created" && finished.outcome != "existing") {
    return std::nullopt;
  }
  const std::int64_t gen = finished.object_gen;
  if (held_during(call, [gen](const Row& row) { return row.state == AuthorityState::kActive && row.object_gen == gen; })) {
    return std::nullopt;
  }
  return where(event) + " creation.finished: operation " + std::string(finished.op_id) + " answered '" +
         std::string(finished.outcome) + "' with a ref to " + call.key + " at ObjectGeneration " +
         std::to_string(gen) + ", but during the call (since " + cite(call.start_event) +
         ") the store never held that generation Active; it holds " + authority_row_text(current_row(call.key)) +
         " (§7: a ref names a Ready object; Creating is waited on)";
}

bool StoreTruthChecker::removed_during(const Call& call, std::int64_t object_gen) const {
  const auto it = _rows.find(call.key);
  if (it == _rows.end()) {
    return false;
  }
  for (auto row = it->second.removed.rbegin(); row != it->second.removed.rend() && row->event > call.start_event;
       ++row) {
    if (row->object_gen == object_gen) {
      return true;
    }
  }
  return false;
}

// Why a 'closed' answered on `node` is not borne out, or nullopt. A caller answered by the owner's
// reply needs the store to have removed the ref's ObjectGeneration during the call; otherwise the
// node that answered (the owner, or a caller that closed its own row) must have applied a Delete of
// that generation during the call — one of another generation, or none at all, is a false 'closed'.
std::optional<std::string> StoreTruthChecker::closed_problem(std::int32_t node, const Call& call,
                                                             bool finished) const {
  if (finished && call.answered_by_owner) {
    // The owner's answer (its close.result was judged by its own Deletes): the store removed that
    // generation during the call.
    return removed_during(call, call.object_gen)
               ? std::nullopt
               : std::optional<std::string>("the store never removed that generation during the call; it holds " +
                                            authority_row_text(current_row(call.key)));
  }
  std::vector<std::int64_t> own;
  if (const auto it = _node_deletes.find({node, call.key}); it != _node_deletes.end()) {
    for (const auto& [gen, event] : it->second) {
      if (event > call.start_event) {
        own.push_back(gen);
      }
    }
  }
  if (std::find(own.begin(), own.end(), call.object_gen) != own.end()) {
    return std::nullopt;
  }
  if (!own.empty()) {
    return "the Deletes this node applied during the call removed ObjectGeneration " + std::to_string(own.back()) +
           ", another generation";
  }
  return finished ? "the caller applied no Delete of that row and had no owner's reply"
                  : "the owner applied no Delete of that row during the call";
}

// close.result (the owner's answer) and close.finished (the caller's): closed means the store removed
// the ref's ObjectGeneration during the call; not_found, the row was absent; stale_generation, the
// store held another generation of the ID (§7.2, §10: an unknown Delete is never taken as applied).
std::optional<std::string> StoreTruthChecker::on_close_answer(const sim::TraceEvent& event, std::string_view op_id,
                                                              std::string_view outcome, bool finished) {
  const auto found = _calls.find(op_id);
  if (found == _calls.end()) {
    return std::nullopt;  // the caller's call is not known (or already answered)
  }
  const Call call = finished ? std::move(found->second) : found->second;
  if (finished) {
    _calls.erase(found);
  }
  const std::int64_t gen = call.object_gen;
  bool held = true;
  std::string meaning;
  if (outcome == "closed") {
    if (std::optional<std::string> problem = closed_problem(event.node, call, finished)) {
      return where(event) + (finished ? " close.finished" : " close.result") + ": operation " + std::string(op_id) +
             " answered 'closed' for " + call.key + " at ObjectGeneration " + std::to_string(gen) + ", but " +
             *problem + " (§7.2: only the ref's generation is closed; §10: an unknown Delete is never taken as applied)";
    }
  } else if (outcome == "not_found") {
    held = held_during(call, is_absent);
    meaning = "held no row";
  } else if (outcome == "stale_generation") {
    held = held_during(call, [gen](const Row& row) { return !is_absent(row) && row.object_gen != gen; });
    meaning = "held another generation than " + std::to_string(gen);
  }
  if (held) {
    return std::nullopt;
  }
  return where(event) + (finished ? " close.finished" : " close.result") + ": operation " + std::string(op_id) +
         " answered '" + std::string(outcome) + "' for " + call.key + " at ObjectGeneration " + std::to_string(gen) +
         ", but the store never " + meaning + " during the call (since " + cite(call.start_event) + "); it holds " +
         authority_row_text(current_row(call.key)) + " (§7.2, §10)";
}

// instance.outcome: an Instance Spot request answered created (this node activated it), delivered
// (it ran here) or route (the Ready owner is elsewhere) names an ObjectGeneration the store held
// Active while the node handled the request (§7.1: a Creating row is waited on, never routed to).
std::optional<std::string> StoreTruthChecker::on_instance_outcome(const sim::TraceEvent& event) {
  const auto read = read_event<events::InstanceOutcome>(event);
  if (!read.ok()) {
    return std::nullopt;
  }
  const events::InstanceOutcome& answer = read.event;
  const auto found = _calls.find(instance_call(answer.op_id, answer.node));
  if (found == _calls.end()) {
    return std::nullopt;
  }
  const Call call = std::move(found->second);
  _calls.erase(found);
  if (answer.outcome != "created" && answer.outcome != "delivered" && answer.outcome != "route") {
    return std::nullopt;
  }
  const std::int64_t gen = answer.object_gen;
  if (held_during(call, [gen](const Row& row) { return row.state == AuthorityState::kActive && row.object_gen == gen; })) {
    return std::nullopt;
  }
  return where(event) + " instance.outcome: request " + std::string(answer.op_id) + " answered '" +
         std::string(answer.outcome) + "' for " + call.key + " at ObjectGeneration " + std::to_string(gen) +
         ", but while node " + std::string(answer.node) + " handled it (since " + cite(call.start_event) +
         ") the store never held that generation Active; it holds " + authority_row_text(current_row(call.key)) +
         " (§7.1: a Creating row is waited on; a route names the Ready owner)";
}

// capacity.refused during a creation call: the refused counter must have moved since the call
// began (§4: placement reads the counters during the call and chooses only a node with room; a
// Reserve refused on a counter no write moved since was sent to a node that was already full).
std::optional<std::string> StoreTruthChecker::on_capacity_refused(const sim::TraceEvent& event) {
  const auto read = read_event<events::CapacityRefused>(event);
  if (!read.ok()) {
    return std::nullopt;
  }
  const auto call = _task_calls.find({event.node, event.task});
  if (call == _task_calls.end()) {
    return std::nullopt;  // not a creation call (an authority workload reserving on itself)
  }
  const events::CapacityRefused& refused = read.event;
  std::string key;
  if (refused.counter == "actors") {
    key = model::actors_counter(refused.mesh, refused.rid);
  } else if (refused.counter == "spots") {
    key = model::spots_counter(refused.mesh, refused.rid);
  } else {
    key = model::spot_type_counter(refused.mesh, refused.rid, refused.spot_kind, refused.stable_type);
  }
  const auto moved = _counter_moved.find(key);
  if (moved != _counter_moved.end() && moved->second > call->second) {
    return std::nullopt;
  }
  return where(event) + " capacity.refused: a Reserve was sent to node " + std::string(refused.mesh) + "/" +
         std::string(refused.rid) + " whose counter " + key + " was full, and no write moved it since the call began (" +
         cite(call->second) + (moved != _counter_moved.end() ? "; last moved " + cite(moved->second) : "") +
         "): placement chose a node without room (§4)";
}

}  // namespace spotcheck::properties
