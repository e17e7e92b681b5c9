#include "properties/checkers/liveness_checker.h"

#include <algorithm>

#include "properties/common/describe.h"
#include "properties/common/read_event.h"
#include "sim/events/harness_events.h"
#include "impl/platform/event_kinds.h"
#include "sim/world.h"

namespace spotcheck::properties {

namespace {

std::string request_key(std::int32_t node, std::string_view owner, std::int64_t request) {
  std::string key = std::to_string(node);
  key += '\0';
  key += owner;
  key += '\0';
  key += std::to_string(request);
  return key;
}

std::string seconds(TimeUs us) {
  return std::to_string(us / platform::kMicrosPerMilli) + "ms";
}

}  // namespace

LivenessChecker::LivenessChecker(const PropertyOptions& options) : _options(options.liveness) {}

void LivenessChecker::on_attach(sim::World& world) {
  sim::World* attached = &world;
  _local_clock = [attached](std::int32_t node) -> std::optional<TimeUs> {
    if (node < 0 || static_cast<std::size_t>(node) >= attached->process_count()) {
      return std::nullopt;
    }
    return attached->local_now_us(static_cast<sim::ProcessId>(node));
  };
}

bool LivenessChecker::judged(const OpenRequest& request) const {
  if (!_faults_stopped) {
    return false;
  }
  // Started after faults.stopped: by event order, not time — a request that started at the very
  // instant faults stopped, but before the stop, may already have met a fault (seed 1190 of
  // default: frozen by node-freeze-drop at t=60 s, the stop a few events later).
  return request.start_event > _faults_stopped_event || _options.judge_requests_open_at_stop;
}

std::string LivenessChecker::describe(const OpenRequest& request) const {
  return "request " + std::to_string(request.request) + " of host run " + request.owner + " on node " +
         std::to_string(request.node) + " (started " + cite(request.start_event) + " at t=" +
         seconds(request.start_us) + ", local deadline " + std::to_string(request.local_deadline_us) + "us)";
}

std::optional<std::string> LivenessChecker::on_event(const sim::TraceEvent& event) {
  const std::string_view kind = event.kind;
  if (kind == kinds::kRequestEnd) {
    // Judged as an end (late or not) before looking for other overdue requests.
    if (auto problem = on_end(event)) {
      return problem;
    }
    return overdue_before(event.time_us, [&] { return where(event); });
  }
  if (auto problem = overdue_before(event.time_us, [&] { return where(event); })) {
    return problem;
  }
  if (kind == kinds::kRequestStart) {
    return on_start(event);
  }
  if (kind == kinds::kFaultsStopped) {
    if (!_faults_stopped) {
      _faults_stopped = true;
      _faults_stopped_event = event.index;
    }
    return std::nullopt;
  }
  if (kind == kinds::kProcessKill || kind == kinds::kProcessExit) {
    forget_node(event.node);
  }
  return std::nullopt;
}

std::optional<std::string> LivenessChecker::on_start(const sim::TraceEvent& event) {
  const auto read = read_event<sim::events::RequestStart>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const std::int64_t request = read.event.request;
  const TimeUs local_deadline_us = read.event.deadline_us;
  const std::string_view owner = read.event.owner;
  std::string key = request_key(event.node, owner, request);
  if (_open.contains(key) || _ended.contains(key)) {
    return where(event) + " request.start: request " + std::to_string(request) + " of host run " + std::string(owner) +
           " started twice";
  }
  OpenRequest open{event.node, std::string(owner), request, event.index, event.time_us, local_deadline_us,
                   kNoDeadline};
  std::optional<TimeUs> local_now;
  if (read.event.has_now) {
    local_now = read.event.now_us;
  } else if (_local_clock) {
    local_now = _local_clock(event.node);
  }
  std::optional<TimeUs> left_us;
  if (local_now.has_value()) {
    left_us = std::max<TimeUs>(0, local_deadline_us - *local_now);
  } else if (_options.default_timeout_us > 0) {
    left_us = _options.default_timeout_us;
  }
  if (left_us.has_value()) {
    // A local duration d lasts at most d * (1 + drift/1e6) of virtual time.
    const std::int64_t ppm = std::max<std::int64_t>(0, _options.clock_drift_ppm_max);
    const TimeUs stretch_us = *left_us / 1'000'000 * ppm + (*left_us % 1'000'000 * ppm + 999'999) / 1'000'000;
    open.deadline_us = event.time_us + *left_us + stretch_us + _options.slack_us;
    _due.emplace(open.deadline_us, key);
  }
  _keys_by_node[event.node].push_back(key);
  _open.emplace(std::move(key), std::move(open));
  return std::nullopt;
}

std::optional<std::string> LivenessChecker::on_end(const sim::TraceEvent& event) {
  const auto read = read_event<sim::events::RequestEnd>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const sim::events::RequestEnd& end = read.event;
  const std::int64_t request = end.request;
  const std::string_view outcome = end.outcome;
  const std::string_view owner = end.owner;
  const std::string key = request_key(event.node, owner, request);
  const auto found = _open.find(key);
  if (found == _open.end()) {
    return where(event) + " request.end: request " + std::to_string(request) + " of host run " + std::string(owner) +
           (_ended.contains(key) ? " ended twice" : " ended without a request.start on this node");
  }
  const OpenRequest open = found->second;
  _open.erase(found);
  _ended.insert(key);
  if (outcome.empty()) {
    return where(event) + " request.end: " + describe(open) + " ended without a typed outcome";
  }
  if (!judged(open)) {
    return std::nullopt;
  }
  auto subject = [&] {
    return where(event) + " request.end (" + std::string(outcome) + "): " + describe(open) +
           " ended after its deadline although faults stopped at " + cite(_faults_stopped_event);
  };
  if (end.has_late && end.late != 0) {
    return subject() + " (the node saw its clock past the deadline)";
  }
  if (end.has_now && end.now_us > open.local_deadline_us) {
    return subject() + " (local time " + std::to_string(end.now_us) + "us)";
  }
  if (open.deadline_us != kNoDeadline && event.time_us > open.deadline_us) {
    return subject() + " (virtual deadline t=" + seconds(open.deadline_us) + ")";
  }
  return std::nullopt;
}

void LivenessChecker::forget_node(std::int32_t node) {
  const auto keys = _keys_by_node.find(node);
  if (keys == _keys_by_node.end()) {
    return;
  }
  for (const std::string& key : keys->second) {
    _open.erase(key);
  }
  _keys_by_node.erase(keys);
}

std::optional<std::string> LivenessChecker::overdue_before(TimeUs now_us, const std::function<std::string()>& when) {
  // Runs on every event: text is built only for a violation.
  while (!_due.empty() && _due.top().first < now_us) {
    const Due due = _due.top();
    _due.pop();
    const auto found = _open.find(due.second);
    if (found == _open.end() || !judged(found->second)) {
      continue;
    }
    return when() + ": " + describe(found->second) + " has not ended by its deadline (virtual t=" + seconds(due.first) +
           ") although faults stopped at " + cite(_faults_stopped_event);
  }
  return std::nullopt;
}

std::optional<std::string> LivenessChecker::finish(const RunEnd& end) {
  return overdue_before(end.time_us, [&] { return "at the end of the run (t=" + seconds(end.time_us) + ")"; });
}

}  // namespace spotcheck::properties
