#include "properties/checkers/first_message_checker.h"

#include <algorithm>
#include <cstdint>

#include "impl/location/events/instance_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/host_run.h"
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
  if (event.kind == kinds::kInstanceFirstMessageRun || event.kind == kinds::kInstanceMessageRun) {
    return on_message(event, event.kind == kinds::kInstanceFirstMessageRun);
  }
  if (event.kind == kinds::kInstanceReady) {
    const auto read = read_event<events::InstanceReady>(event);
    if (!read.ok()) {
      return read.problem;
    }
    _waiting.try_emplace(incarnation_key(read.event.id, read.event.object_gen), event.index);
    return std::nullopt;
  }
  if (event.kind == kinds::kInstanceRecovered) {
    const auto read = read_event<events::InstanceRecovered>(event);
    if (!read.ok()) {
      return read.problem;
    }
    if (read.event.action == "payload_unreadable" || read.event.action == "factory_rejected" ||
        read.event.action == "data_lost") {
      // Deleted, or DataLost recorded (store-truth holds that claim to the store's account):
      // nothing to restore it from.
      _waiting.erase(incarnation_key(read.event.id, read.event.object_gen));
    }
  }
  return std::nullopt;
}

std::optional<std::string> FirstMessageChecker::finish(const RunEnd& end) {
  static_cast<void>(end);
  if (_waiting.empty()) {
    return std::nullopt;
  }
  // The earliest such Ready (the map's order is not the trace's).
  std::uint64_t earliest = UINT64_MAX;
  for (const auto& [key, ready] : _waiting) {
    earliest = std::min(earliest, ready);
  }
  return "the incarnation made Ready at " + cite(earliest) + " never ran its first message (" +
         std::to_string(_waiting.size()) + " such): after a crash the restarted node restores it from the stored "
         "request and runs the first message before any other (spec §7.1)";
}

std::optional<std::string> FirstMessageChecker::on_message(const sim::TraceEvent& event, bool first) {
  const auto read = read_event<events::InstanceMessageRun>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::InstanceMessageRun& run = read.event;
  if (first) {
    _first_runs.insert(instance_key(run));
    _waiting.erase(incarnation_key(run.id, run.object_gen));
    return std::nullopt;
  }
  if (_first_runs.contains(instance_key(run))) {
    return std::nullopt;
  }
  return where(event) + " " + describe(HostRunRef{run.owner, run.lease_gen}) + " ran message " + std::string(run.op_id) + " on Instance Spot '" + std::string(run.id) + "' (ObjectGeneration " +
         std::to_string(run.object_gen) + ") before that incarnation's first message ran in this host run: the first "
         "message runs before any other, on a restored instance too (spec §7.1)";
}

}  // namespace spotcheck::properties
