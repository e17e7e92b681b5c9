#include "properties/checkers/at_most_once_checker.h"

#include "impl/location/events/instance_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;


namespace {

// (source RID, source OwnerId, source LeaseGeneration, OperationId); none holds \0.
std::string operation_key(std::string_view source, std::string_view owner, std::int64_t lease_gen, std::string_view op) {
  std::string key;
  key.reserve(source.size() + owner.size() + op.size() + 24);
  key.append(source).push_back('\0');
  key.append(owner).push_back('\0');
  key.append(std::to_string(lease_gen)).push_back('\0');
  key.append(op);
  return key;
}

std::string describe_operation(std::string_view op, std::string_view source, std::string_view owner,
                               std::int64_t lease_gen) {
  return "operation " + std::string(op) + " of source " + std::string(source) + " (host run " + std::string(owner) +
         "/" + std::to_string(lease_gen) + ")";
}

}  // namespace

AtMostOnceChecker::AtMostOnceChecker(const PropertyOptions& options) { static_cast<void>(options); }

std::optional<std::string> AtMostOnceChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kInstanceFirstMessageRun) {
    return on_run(event, true);
  }
  if (event.kind == kinds::kInstanceMessageRun) {
    return on_run(event, false);
  }
  if (event.kind == kinds::kInstanceReplyDelivered) {
    return on_reply(event);
  }
  if (event.kind == kinds::kInstanceEndOfUseRecorded) {
    const auto read = read_event<events::InstanceEndOfUseRecorded>(event);
    if (!read.ok()) {
      return read.problem;
    }
    _completed.insert(incarnation_key(read.event.id, read.event.object_gen));
    return std::nullopt;
  }
  if (event.kind == kinds::kProcessKill || event.kind == kinds::kProcessExit) {
    ++_deaths[event.node];
  }
  return std::nullopt;
}

std::optional<std::string> AtMostOnceChecker::on_run(const sim::TraceEvent& event, bool first) {
  const auto read = read_event<events::InstanceMessageRun>(event);
  if (!read.ok()) {
    return read.problem;
  }
  // The run and its operation, named as the checks below use them.
  const events::InstanceMessageRun& run = read.event;
  const std::string_view id = run.id;
  const std::string_view op = run.op_id;
  const std::int64_t gen = run.object_gen;
  if (op.empty()) {
    return where(event) + " " + std::string(event.kind) + " names no OperationId";
  }
  auto deaths = _deaths.find(event.node);
  Run now{event.index, event.node, deaths == _deaths.end() ? 0 : deaths->second, std::string(run.node), std::string(id), gen,
          first};
  const std::string key = operation_key(run.source, run.source_owner, run.source_lease_gen, op);
  auto [it, inserted] = _runs.try_emplace(key, now);
  if (inserted) {
    return std::nullopt;
  }
  const Run& earlier = it->second;
  const auto earlier_deaths = _deaths.find(earlier.process);
  const bool died_since = earlier_deaths != _deaths.end() && earlier_deaths->second > earlier.deaths;
  const bool restored_first_message = earlier.first && first && earlier.spot_id == id && earlier.object_gen == gen &&
                                      died_since && _completed.count(incarnation_key(id, gen)) == 0;
  if (restored_first_message) {
    it->second = now;  // spec §7.1: restored from the stored data after the process died
    return std::nullopt;
  }
  return where(event) + " " + std::string(event.kind) + ": " +
         describe_operation(op, run.source, run.source_owner, run.source_lease_gen) + " ran again on node " + std::string(run.node) + ", Spot '" + std::string(id) + "' ObjectGeneration " +
         std::to_string(gen) + "; it already ran at " + cite(earlier.event) + " on node " + earlier.node_rid +
         ", Spot '" + earlier.spot_id + "' ObjectGeneration " + std::to_string(earlier.object_gen) +
         (earlier.first ? " (as the first message)" : "") +
         ": an accepted OperationId runs at most once (a request that may have been admitted was resubmitted)";
}

std::optional<std::string> AtMostOnceChecker::on_reply(const sim::TraceEvent& event) {
  const auto read = read_event<events::InstanceReplyDelivered>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const std::string_view op = read.event.op_id;
  const std::string_view source = read.event.source;
  const std::string_view owner = read.event.source_owner;
  const std::int64_t lease_gen = read.event.source_lease_gen;
  auto [it, inserted] = _replies.try_emplace(operation_key(source, owner, lease_gen, op), event.index);
  if (inserted) {
    return std::nullopt;
  }
  return where(event) + " instance.reply_delivered: the reply of " + describe_operation(op, source, owner, lease_gen) +
         " was already delivered at " + cite(it->second) + ": a reply is delivered at most once";
}

}  // namespace spotcheck::properties
