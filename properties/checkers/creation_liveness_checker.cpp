#include "properties/checkers/creation_liveness_checker.h"

#include <iterator>

#include "impl/location/events/creation_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace {

namespace events = location::events;

// The answers that are about the object: the row's ref, or the factory's own decision (§7).
bool answers_the_object(std::string_view outcome) {
  return outcome == "existing" || outcome == "created" || outcome == "rejected" || outcome == "failed";
}

}  // namespace

CreationLivenessChecker::CreationLivenessChecker(const PropertyOptions& options)
    : _settle_us(options.creation_liveness.settle_us) {}

std::optional<std::string> CreationLivenessChecker::on_event(const sim::TraceEvent& event) {
  if (_settle_us <= 0) {
    return std::nullopt;
  }
  if (event.kind == kinds::kFaultsStopped) {
    _faults_stopped_us = event.time_us;
  } else if (event.kind == kinds::kCreationRequested) {
    const auto read = read_event<events::CreationRequested>(event);
    if (read.ok()) {
      open(event, std::string(read.event.id), std::string(read.event.mode), std::string(read.event.op_id));
    }
  } else if (event.kind == kinds::kCloseRequested) {
    const auto read = read_event<events::CloseRequested>(event);
    if (read.ok()) {
      open(event, std::string(read.event.id), "close", std::string(read.event.op_id));
    }
  } else if (event.kind == kinds::kCreationFinished) {
    const auto read = read_event<events::CreationFinished>(event);
    if (read.ok()) {
      return close(event, read.event.outcome);
    }
  } else if (event.kind == kinds::kCloseFinished) {
    return close(event, "");
  } else if (event.kind == kinds::kProcessKill || event.kind == kinds::kProcessExit) {
    forget_node(event.node);
  }
  return std::nullopt;
}

void CreationLivenessChecker::open(const sim::TraceEvent& event, std::string id, std::string what, std::string op_id) {
  Call call{std::move(id), std::move(what), std::move(op_id), event.index, event.time_us, false};
  for (auto& [task, other] : _open) {
    if (other.id == call.id) {
      other.contended = true;
      call.contended = true;
    }
  }
  _open.insert_or_assign(Task{event.node, event.task}, std::move(call));
}

std::optional<std::string> CreationLivenessChecker::close(const sim::TraceEvent& event, std::string_view outcome) {
  const auto it = _open.find(Task{event.node, event.task});
  if (it == _open.end()) {
    return std::nullopt;
  }
  const Call call = std::move(it->second);
  _open.erase(it);
  if (!judged(call) || answers_the_object(outcome)) {
    return std::nullopt;
  }
  return where(event) + " creation.finished: GetOrCreate of " + call.id + " (operation " + call.op_id + ", " +
         cite(call.start_event) + ") answered '" + std::string(outcome) + "', though it began " +
         std::to_string((call.start_us - *_faults_stopped_us) / 1000) +
         " ms after faults stopped (settled after " + std::to_string(_settle_us / 1000) +
         " ms) and no other call of that ID ran during it: an uncontended GetOrCreate in a healed world gets "
         "the object (§7: existing, created, or the factory's rejected / failed), not a typed error";
}

bool CreationLivenessChecker::judged(const Call& call) const {
  return call.what == "get_or_create" && !call.contended && _faults_stopped_us.has_value() &&
         call.start_us >= *_faults_stopped_us + _settle_us;
}

void CreationLivenessChecker::forget_node(std::int32_t node) {
  for (auto it = _open.begin(); it != _open.end();) {
    it = it->first.first == node ? _open.erase(it) : std::next(it);
  }
}

}  // namespace spotcheck::properties
