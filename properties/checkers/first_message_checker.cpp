#include "properties/checkers/first_message_checker.h"

#include "impl/location/events/instance_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

namespace {

// (running host run, SpotId, ObjectGeneration); none holds \0.
std::string instance_key(const events::InstanceMessageRun& run) {
  std::string key(run.owner);
  key.push_back('\0');
  key.append(std::to_string(run.lease_gen)).push_back('\0');
  key.append(incarnation_key(run.id, run.object_gen));
  return key;
}

}  // namespace

FirstMessageChecker::FirstMessageChecker(const PropertyOptions& options) { static_cast<void>(options); }

std::optional<std::string> FirstMessageChecker::on_event(const sim::TraceEvent& event) {
  const bool first = event.kind == kinds::kInstanceFirstMessageRun;
  if (!first && event.kind != kinds::kInstanceMessageRun) {
    return std::nullopt;
  }
  const auto read = read_event<events::InstanceMessageRun>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::InstanceMessageRun& run = read.event;
  if (first) {
    _first_runs.insert(instance_key(run));
    return std::nullopt;
  }
  if (_first_runs.contains(instance_key(run))) {
    return std::nullopt;
  }
  return where(event) + " host run " + std::string(run.owner) + "/" + std::to_string(run.lease_gen) +
         " ran message " + std::string(run.op_id) + " on Instance Spot '" + std::string(run.id) + "' (ObjectGeneration " +
         std::to_string(run.object_gen) + ") before that incarnation's first message ran in this host run: the first "
         "message runs before any other, on a restored instance too (spec §7.1)";
}

}  // namespace spotcheck::properties
