#include "properties/checkers/creation_checker.h"

#include "impl/location/events/creation_events.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

using model::AuthorityOp;

namespace {

std::string bounds_text(const ApplyBounds& bounds) {
  if (bounds.lower == bounds.upper) {
    return "store ms " + std::to_string(bounds.upper);
  }
  return "at or before store ms " + std::to_string(bounds.upper);
}

// The operation and outcome of a reply delivered to its caller (creation or close).
struct OpAndOutcome {
  std::string request;   // a creation's request key (request_key), a close's OperationId
  std::string exchange;  // what gets at most one reply: a creation's request within one Manager call
  std::string_view outcome;
};
using OpOutcome = EventRead<OpAndOutcome>;

// `call`: the creation.requested that began the Manager call the reply reached, if known. A
// caller's retry of the same request is another call; within one call the request is never
// submitted again (§7), so it gets at most one command-20 reply.
OpOutcome read_creation_delivered(const sim::TraceEvent& event, std::optional<std::uint64_t> call) {
  EventRead<events::CreationReplyDelivered> read = read_event<events::CreationReplyDelivered>(event);
  std::string request = request_key(read.event.source_gen, read.event.op_id);
  std::string exchange = call.has_value() ? request + " in the call begun at #" + std::to_string(*call) : request;
  return OpOutcome{OpAndOutcome{std::move(request), std::move(exchange), read.event.outcome}, std::move(read.problem)};
}

template <class E>
OpOutcome read_close_outcome(const sim::TraceEvent& event) {
  EventRead<E> read = read_event<E>(event);
  return OpOutcome{OpAndOutcome{std::string(read.event.op_id), std::string(read.event.op_id), read.event.outcome},
                   std::move(read.problem)};
}

// What the Manager must answer its caller for a command-20 close reply (§7.2): closed -> true,
// not_found -> false, stale_generation and moving -> those typed errors, anything else -> unavailable.
std::string_view close_answer_for(std::string_view reply) {
  if (reply == "closed" || reply == "not_found" || reply == "stale_generation" || reply == "moving") {
    return reply;
  }
  return "unavailable";
}

}  // namespace

std::string request_key(std::int64_t source_gen, std::string_view op_id) {
  return std::string(op_id) + " of source host run " + std::to_string(source_gen);
}

CreationChecker::CreationChecker(const PropertyOptions& options) { static_cast<void>(options); }

std::optional<std::string> CreationChecker::on_event(const sim::TraceEvent& event) {
  if (const std::optional<ParsedAuthority> parsed = authority_event_of(event)) {
    if (!parsed->change.has_value()) {
      return parsed->problem;
    }
    return on_authority(event, *parsed->change);
  }
  if (event.kind == kinds::kCreationFactoryRun) {
    return on_factory_run(event);
  }
  if (event.kind == kinds::kCreationResult) {
    return on_result(event);
  }
  if (event.kind == kinds::kCreationReplyDelivered) {
    return on_delivered(event, _replies, true);
  }
  if (event.kind == kinds::kCloseReplyDelivered) {
    return on_delivered(event, _close_replies, false);
  }
  if (event.kind == kinds::kCloseFinished) {
    return on_close_finished(event);
  }
  if (event.kind == kinds::kCreationRequested) {
    _task_calls.insert_or_assign({event.node, event.task}, event.index);
    const auto read = read_event<location::events::CreationRequested>(event);
    if (!read.ok()) {
      return read.problem;
    }
    _task_meshes.insert_or_assign({event.node, event.task}, std::string(read.event.mesh));
  }
  if (event.kind == kinds::kCreationFinished) {
    _task_meshes.erase({event.node, event.task});  // the call ended; the task may place for others
  }
  if (event.kind == kinds::kPlacementChosen) {
    return on_placement(event);
  }
  if (event.kind == kinds::kProcessKill || event.kind == kinds::kProcessExit) {
    _last_death[event.node] = event.index;
  }
  return std::nullopt;
}

std::optional<std::string> CreationChecker::on_placement(const sim::TraceEvent& event) const {
  const auto call = _task_meshes.find({event.node, event.task});
  if (call == _task_meshes.end()) {
    return std::nullopt;  // not a Manager call's placement (a relocation, a test)
  }
  const auto read = read_event<location::events::PlacementChosen>(event);
  if (!read.ok()) {
    return read.problem;
  }
  if (read.event.mesh == call->second) {
    return std::nullopt;
  }
  return where(event) + " placement.chosen: a node of Mesh '" + std::string(read.event.mesh) +
         "' chosen for a creation that asked for Mesh '" + call->second + "' (" +
         cite(_task_calls.at(call->first)) + "): §7 InMesh picks a node from that Mesh";
}

void CreationChecker::forget_old(std::map<std::int64_t, Creating>& generations) {
  for (std::size_t i = 0; generations.size() > kGenerationsPerIdMax && i < kGenerationsPerIdMax; ++i) {
    generations.erase(generations.begin());
  }
}

// `later` (generation gen) reserved while `earlier` was provably still Creating.
std::optional<std::string> CreationChecker::overlap(const std::string& object, std::int64_t gen, const Creating& later,
                                                    std::int64_t earlier_gen, const Creating& earlier) const {
  static_cast<void>(object);
  if (!earlier.ended.has_value()) {
    return std::nullopt;  // its end is not known (yet): nothing provable
  }
  if (!certainly_after(later.reserved, earlier.reserved) || !certainly_after(*earlier.ended, later.reserved)) {
    return std::nullopt;
  }
  return "two Creating records at once: ObjectGeneration " + std::to_string(gen) + " was reserved (" +
         cite(later.reserve_event) + ", " + bounds_text(later.reserved) + ") while ObjectGeneration " +
         std::to_string(earlier_gen) + " was still Creating (reserved " + cite(earlier.reserve_event) + ", " +
         bounds_text(earlier.reserved) + "; ended " + cite(earlier.end_event) + ", " +
         bounds_text(*earlier.ended) + ")";
}

std::optional<std::string> CreationChecker::on_authority(const sim::TraceEvent& event, const AuthorityEvent& change) {
  if (!change.applied()) {
    return std::nullopt;
  }
  const std::string object = change.object();
  std::map<std::int64_t, Creating>& generations = _creating[object];
  if (change.op == AuthorityOp::kReserve) {
    Creating& created = generations[change.object_gen];
    created.reserved = change.bounds();
    created.reserve_event = event.index;
    created.owner = HostRun(change.owner);
    for (const auto& [gen, other] : generations) {
      if (gen == change.object_gen) {
        continue;
      }
      if (auto found = overlap(object, change.object_gen, created, gen, other)) {
        return where(event) + " " + change.describe_object() + ": " + *found;
      }
    }
    forget_old(generations);
    return std::nullopt;
  }
  const bool ends_creating = change.op == AuthorityOp::kCommit || change.op == AuthorityOp::kAbort ||
                             (change.op == AuthorityOp::kDelete && change.state == "reserved");
  if (!ends_creating) {
    return std::nullopt;
  }
  auto it = generations.find(change.object_gen);
  if (it == generations.end()) {
    return std::nullopt;  // its Reserve was not reported (a killed host run's in-flight write)
  }
  Creating& ended = it->second;
  ended.ended = change.bounds();
  ended.end_event = event.index;
  ended.committed = change.op == AuthorityOp::kCommit;
  for (const auto& [gen, other] : generations) {
    if (gen == change.object_gen) {
      continue;
    }
    if (auto found = overlap(object, gen, other, change.object_gen, ended)) {
      return where(event) + " " + change.describe_object() + ": " + *found;
    }
  }
  return std::nullopt;
}

std::optional<std::string> CreationChecker::on_factory_run(const sim::TraceEvent& event) {
  const auto read = read_event<events::CreationFactoryRun>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const std::string_view kind = read.event.kind;
  const std::string_view id = read.event.id;
  const std::int64_t gen = read.event.object_gen;
  const HostRunRef owner{read.event.owner, read.event.lease_gen};
  const std::string object = object_key(kind, id);
  const std::string subject = where(event) + " " + describe_object(kind, id) + " ObjectGeneration " +
                              std::to_string(gen) + ": factory run on " + describe(owner);
  const auto creating = _creating.find(object);
  const Creating* reserved = nullptr;
  if (creating != _creating.end()) {
    auto it = creating->second.find(gen);
    if (it != creating->second.end()) {
      reserved = &it->second;
    }
  }
  const std::string incarnation = incarnation_key(object, gen);
  auto previous = _factory_runs.find(incarnation);
  if (previous != _factory_runs.end()) {
    // Only a crash retry: the same process, killed (or exited) after the earlier run and started
    // again as a new host run, before any Commit of this generation.
    const FactoryRun& earlier = previous->second;
    const auto death = _last_death.find(earlier.node);
    const bool crashed = earlier.node == event.node && death != _last_death.end() && death->second > earlier.event;
    const bool committed = reserved != nullptr && reserved->committed;
    if (!crashed || earlier.owner.same(owner) || committed) {
      return subject + " again: it already ran at " + cite(earlier.event) + " on " + describe(earlier.owner) +
             (committed ? " and the generation was committed"
                        : (crashed ? " on the same host run" : " and that process did not die since")) +
             " (only a crash retry may run it again)";
    }
  } else if (reserved != nullptr && !reserved->owner.same(owner)) {
    return subject + ", but the Creating row (" + cite(reserved->reserve_event) + ") names " +
           describe(reserved->owner) + " as the target";
  }
  _factory_runs[incarnation] = FactoryRun{event.index, event.node, HostRun(owner)};
  return std::nullopt;
}

std::optional<std::string> CreationChecker::on_result(const sim::TraceEvent& event) {
  const auto read = read_event<events::CreationResult>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const std::string op = request_key(read.event.source_gen, read.event.op_id);
  const std::string_view outcome = read.event.outcome;
  auto [it, inserted] = _results.try_emplace(op, Delivery{event.index, std::string(outcome)});
  if (!inserted) {
    return where(event) + " operation " + op + ": a second final result '" + std::string(outcome) +
           "' was recorded (the first, '" + it->second.outcome + "', at " + cite(it->second.event) + ")";
  }
  const auto reply = _told.find(op);
  if (reply != _told.end() && reply->second.outcome != outcome) {
    return where(event) + " operation " + op + ": the stored final result is '" + std::string(outcome) +
           "' but the caller was told '" + reply->second.outcome + "' at " + cite(reply->second.event);
  }
  return std::nullopt;
}

std::optional<std::string> CreationChecker::on_delivered(const sim::TraceEvent& event, StringMap<Delivery>& deliveries,
                                                         bool creation) {
  const auto call = _task_calls.find({event.node, event.task});
  const OpOutcome read =
      creation ? read_creation_delivered(event, call != _task_calls.end() ? std::optional(call->second) : std::nullopt)
               : read_close_outcome<events::CloseReplyDelivered>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const std::string& op = read.event.request;
  const std::string_view outcome = read.event.outcome;
  const std::string what = creation ? "command-20 creation reply" : "command-20 close reply";
  auto [it, inserted] = deliveries.try_emplace(read.event.exchange, Delivery{event.index, std::string(outcome)});
  if (!inserted) {
    return where(event) + " operation " + read.event.exchange + ": a " + what + " '" + std::string(outcome) +
           "' was delivered twice (first '" + it->second.outcome + "' at " + cite(it->second.event) + ")";
  }
  if (!creation) {
    return std::nullopt;
  }
  // A reply that is not a final result (cancelled, ...) stores nothing: a later call of the same
  // request may still create (§7: the stored result is checked first; there is none).
  const bool stored_kind = outcome == "created" || outcome == "rejected" || outcome == "failed";
  if (!stored_kind) {
    return std::nullopt;
  }
  _told.insert_or_assign(op, Delivery{event.index, std::string(outcome)});
  const auto stored = _results.find(op);
  if (stored != _results.end() && stored->second.outcome != outcome) {
    return where(event) + " operation " + op + ": the caller was told '" + std::string(outcome) +
           "' but the stored final result (" + cite(stored->second.event) + ") is '" + stored->second.outcome +
           "'";
  }
  return std::nullopt;
}

// close.finished: a Close/Destroy that got its owner's command-20 reply answers its caller what that
// reply said (§7.2: a generation that doesn't exist is false, another generation of the ID is the
// stale-generation error; the two are never confused).
std::optional<std::string> CreationChecker::on_close_finished(const sim::TraceEvent& event) {
  const OpOutcome read = read_close_outcome<events::CloseFinished>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const auto reply = _close_replies.find(read.event.request);
  if (reply == _close_replies.end()) {
    return std::nullopt;  // answered without a command-20 exchange (or before any reply)
  }
  const std::string_view expected = close_answer_for(reply->second.outcome);
  if (read.event.outcome == expected) {
    return std::nullopt;
  }
  return where(event) + " operation " + read.event.request + ": the owner replied '" +
         reply->second.outcome + "' (" + cite(reply->second.event) + ") but the caller was answered '" +
         std::string(read.event.outcome) + "' instead of '" + std::string(expected) + "' (§7.2)";
}

}  // namespace spotcheck::properties
