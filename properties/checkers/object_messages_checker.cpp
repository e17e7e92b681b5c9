#include "properties/checkers/object_messages_checker.h"

#include "impl/location/events/object_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

std::string object_stream_key(std::string_view owner, std::int64_t lease_gen, std::int64_t stream,
                              std::string_view kind, std::string_view id) {
  return host_run_object_key(owner, lease_gen, object_key(kind, id)) + '\0' + std::to_string(stream);
}

std::string object_message_key(const std::string& stream, std::int64_t seq) {
  return stream + '\0' + std::to_string(seq);
}

namespace {

std::string sender_text(std::string_view owner, std::int64_t lease_gen, std::int64_t stream) {
  return "host run " + std::string(owner) + "/" + std::to_string(lease_gen) + " (stream " + std::to_string(stream) + ")";
}

}  // namespace

ObjectMessagesChecker::ObjectMessagesChecker(const PropertyOptions& options) { static_cast<void>(options); }

std::optional<std::string> ObjectMessagesChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kObjectTurn) {
    return on_turn(event);
  }
  if (event.kind == kinds::kObjectMessageAnswered) {
    return on_answered(event);
  }
  return on_loss_event(event);
}

std::optional<std::string> ObjectMessagesChecker::on_turn(const sim::TraceEvent& event) {
  const auto read = read_event<events::ObjectTurn>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::ObjectTurn& turn = read.event;
  if (turn.turn != "message") {
    return std::nullopt;
  }
  const std::string object = describe_object(turn.kind, turn.id);
  const std::string sender = sender_text(turn.source_owner, turn.source_lease_gen, turn.stream);
  if (turn.message_gen != turn.object_gen) {
    return where(event) + " object.turn: message " + std::to_string(turn.seq) + " of " + sender + " to " + object +
           " ObjectGeneration " + std::to_string(turn.message_gen) + " ran on the instance of ObjectGeneration " +
           std::to_string(turn.object_gen) + ": a message never runs on an instance of another generation (spec §7.1)";
  }
  const std::string stream = object_stream_key(turn.source_owner, turn.source_lease_gen, turn.stream, turn.kind, turn.id);
  auto [it, first] = _last_run.try_emplace(stream, LastRun{turn.seq, event.index});
  if (!first) {
    const LastRun before = it->second;
    if (turn.seq == before.seq) {
      return where(event) + " object.turn: message " + std::to_string(turn.seq) + " of " + sender + " to " + object +
             " ran again (it ran at " + cite(before.event) + "): a message runs at most once";
    }
    if (turn.seq < before.seq && _unordered.erase(object_message_key(stream, turn.seq)) != 0) {
      _ran.insert(object_message_key(stream, turn.seq));
      return resolve(event, stream, turn.seq, true);  // overtaken after it left the source's order
    }
    if (turn.seq < before.seq) {
      return where(event) + " object.turn: message " + std::to_string(turn.seq) + " of " + sender + " to " + object +
             " ran after message " + std::to_string(before.seq) + " (" + cite(before.event) +
             "), which was sent later: one sender's messages to one object run in the order sent";
    }
    it->second = LastRun{turn.seq, event.index};
  }
  _ran.insert(object_message_key(stream, turn.seq));
  return resolve(event, stream, turn.seq, true);
}

// A sender's `ran` is the owner's word; the owner's own turn event must back it.
std::optional<std::string> ObjectMessagesChecker::on_answered(const sim::TraceEvent& event) {
  const auto read = read_event<events::ObjectMessageAnswered>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::ObjectMessageAnswered& answer = read.event;
  const std::string stream = object_stream_key(answer.owner, answer.lease_gen, answer.stream, answer.kind, answer.id);
  const std::string key = object_message_key(stream, answer.seq);
  if (answer.outcome != "ran") {
    return std::nullopt;
  }
  if (_ran.erase(key) == 0) {
    return where(event) + " object.message_answered: " + sender_text(answer.owner, answer.lease_gen, answer.stream) +
           " was told message " + std::to_string(answer.seq) + " to " + describe_object(answer.kind, answer.id) +
           " ran, but no turn of it ran";
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties
