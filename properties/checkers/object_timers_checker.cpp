#include "properties/checkers/object_timers_checker.h"

#include <cstdio>

#include "impl/location/events/object_events.h"
#include "impl/location/events/relocation_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

namespace {

// One timer: (object, ObjectGeneration, starting host run, timer stream, number).
std::string timer_key(std::string_view object, std::int64_t object_gen, std::string_view owner, std::int64_t lease_gen,
                      std::int64_t stream, std::int64_t seq) {
  return std::string(object) + "#" + std::to_string(object_gen) + "|" + std::string(owner) + "/" + std::to_string(lease_gen) + "/" +
         std::to_string(stream) + "/" + std::to_string(seq);
}

std::string timer_text(std::string_view kind, std::string_view id, std::string_view owner, std::int64_t lease_gen,
                       std::int64_t stream, std::int64_t seq) {
  return "timer " + std::to_string(seq) + " of host run " + std::string(owner) + "/" + std::to_string(lease_gen) +
         " (stream " + std::to_string(stream) + ") of " + describe_object(kind, id);
}

// "12.345678s"
std::string seconds_text(TimeUs time_us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6fs", static_cast<double>(time_us) / 1e6);
  return text;
}

}  // namespace

ObjectTimersChecker::ObjectTimersChecker(const PropertyOptions& options) { static_cast<void>(options); }

std::optional<std::string> ObjectTimersChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kObjectTimerStarted) {
    return on_started(event);
  }
  if (event.kind == kinds::kObjectTurn) {
    return on_turn(event);
  }
  if (event.kind == kinds::kObjectTurnRefused) {
    on_refused(event);
    return std::nullopt;
  }
  if (event.kind == kinds::kObjectActivated || event.kind == kinds::kObjectDeactivated) {
    const auto read = read_event<events::ObjectHosted>(event);
    if (!read.ok()) {
      return read.problem;
    }
    const std::string object = object_key(read.event.kind, read.event.id);
    touch(event.node, object);
    if (event.kind == kinds::kObjectDeactivated && read.event.reason != "moved") {
      excuse_object(object);  // removed (or replaced): its timers went with it
    }
    return std::nullopt;
  }
  if (event.kind == kinds::kRelocationStarted || event.kind == kinds::kRelocationRelayReady ||
      event.kind == kinds::kRelocationReady || event.kind == kinds::kRelocationFailed ||
      event.kind == kinds::kRelocationHandedOver || event.kind == kinds::kRelocationCancelled) {
    const auto read = read_event<events::RelocationProgress>(event);
    if (!read.ok()) {
      return read.problem;
    }
    const std::string object = object_key(read.event.kind, read.event.id);
    touch(event.node, object);
    const bool unsettled = event.kind == kinds::kRelocationHandedOver && read.event.why == "unsettled";
    if (event.kind == kinds::kRelocationFailed || unsettled) {
      excuse_object(object);  // the target dropped the payload, or the source never knew where it went
    }
    return std::nullopt;
  }
  if (event.kind == kinds::kProcessKill || event.kind == kinds::kProcessExit) {
    auto held = _node_objects.find(event.node);
    if (held != _node_objects.end()) {
      for (const std::string& object : held->second) {
        excuse_object(object);
      }
      _node_objects.erase(held);
    }
  }
  return std::nullopt;
}

void ObjectTimersChecker::touch(std::int32_t node, const std::string& object) { _node_objects[node].insert(object); }

std::optional<std::string> ObjectTimersChecker::on_started(const sim::TraceEvent& event) {
  const auto read = read_event<events::ObjectTimerStarted>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::ObjectTimerStarted& t = read.event;
  const std::string object = object_key(t.kind, t.id);
  const std::string key = timer_key(object, t.object_gen, t.source_owner, t.source_lease_gen, t.stream, t.seq);
  const std::string text = timer_text(t.kind, t.id, t.source_owner, t.source_lease_gen, t.stream, t.seq);
  if (!_started.insert(key).second) {
    return where(event) + " object.timer_started: " + text + " was started twice: a timer's identity is unique";
  }
  touch(event.node, object);
  _pending.emplace(key, Pending{event.index, event.time_us + t.after_us, object, text});
  _object_timers[object].insert(key);
  return std::nullopt;
}

std::optional<std::string> ObjectTimersChecker::on_turn(const sim::TraceEvent& event) {
  const auto read = read_event<events::ObjectTurn>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::ObjectTurn& turn = read.event;
  if (turn.turn != "timer") {
    return std::nullopt;
  }
  const std::string object = object_key(turn.kind, turn.id);
  const std::string key =
      timer_key(object, turn.object_gen, turn.source_owner, turn.source_lease_gen, turn.stream, turn.seq);
  const std::string text =
      timer_text(turn.kind, turn.id, turn.source_owner, turn.source_lease_gen, turn.stream, turn.seq);
  touch(event.node, object);
  if (!_started.contains(key)) {
    return where(event) + " object.turn: " + text + " ran, but no instance of the object ever started it";
  }
  if (!_ran.insert(key).second) {
    return where(event) + " object.turn: " + text + " ran twice: a timer callback runs at most once, wherever " +
           "its object moved (spec §1.3, §9.2)";
  }
  excuse(key);
  return std::nullopt;
}

void ObjectTimersChecker::on_refused(const sim::TraceEvent& event) {
  const auto read = read_event<events::ObjectRefused>(event);
  if (!read.ok() || read.event.turn != "timer") {
    return;
  }
  const events::ObjectRefused& r = read.event;
  excuse(timer_key(object_key(r.kind, r.id), r.object_gen, r.source_owner, r.source_lease_gen, r.stream, r.seq));
}

void ObjectTimersChecker::excuse_object(const std::string& object) {
  auto timers = _object_timers.find(object);
  if (timers == _object_timers.end()) {
    return;
  }
  for (const std::string& key : timers->second) {
    _pending.erase(key);
  }
  _object_timers.erase(timers);
}

void ObjectTimersChecker::excuse(const std::string& timer) {
  auto pending = _pending.find(timer);
  if (pending == _pending.end()) {
    return;
  }
  auto timers = _object_timers.find(pending->second.object);
  if (timers != _object_timers.end()) {
    timers->second.erase(timer);
  }
  _pending.erase(pending);
}

std::optional<std::string> ObjectTimersChecker::finish(const RunEnd& end) {
  for (const auto& [key, pending] : _pending) {
    if (pending.due_us + kDueGraceUs <= end.time_us) {
      return pending.text + " (started " + cite(pending.started_event) + ", due at t=" +
             seconds_text(pending.due_us) + ") neither ran nor was refused, and nothing that held it went: " +
             "a timer callback was lost (a relocation moves the not-yet-executed timers, spec §1.3)";
    }
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties
