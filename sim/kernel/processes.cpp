// Process lifecycle: start, kill (unwind every fiber), restart (a new host run), pause, drift.
#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/sim_events.h"
#include "sim/kernel/kernel.h"

namespace spotcheck::sim {

std::string_view to_string(ProcessState state) {
  switch (state) {
    case ProcessState::stopped:
      return "stopped";
    case ProcessState::running:
      return "running";
    case ProcessState::paused:
      return "paused";
    case ProcessState::dead:
      return "dead";
  }
  return "unknown";
}

Process* Kernel::process_by_routing_id(RoutingId routing_id) {
  auto found = by_routing_id_.find(routing_id);
  if (found == by_routing_id_.end()) {
    return nullptr;
  }
  return processes_[found->second].get();
}

ProcessId Kernel::add_process(std::string name, RoutingId routing_id, ProcessMain main) {
  SPOTCHECK_ASSERT_ABORT(current_ == nullptr);
  SPOTCHECK_ASSERT_ABORT(main != nullptr);
  SPOTCHECK_ASSERT_ABORT(!name.empty());
  SPOTCHECK_ASSERT_ABORT(!by_routing_id_.contains(routing_id));
  const auto id = static_cast<ProcessId>(processes_.size());
  auto created = std::make_unique<Process>();
  created->id = id;
  created->name = std::move(name);
  created->routing_id = routing_id;
  created->main = std::move(main);
  Stream& clock_stream = streams_.get("clock");
  created->clock = LocalClock(clock_stream.between(0, config_.clock_offset_max_us));
  if (config_.draw_clock_drift) {
    created->clock.set_drift_ppm(now_us_, clock_stream.between(-config_.clock_drift_ppm_max, config_.clock_drift_ppm_max));
  } else {
    created->clock.set_drift_ppm(now_us_, 0);
  }
  created->platform = std::make_unique<ProcessPlatform>(*this, id, routing_id);
  trace_.set_node_name(static_cast<std::int32_t>(id), created->name);
  record_event(static_cast<std::int32_t>(id), 0, kinds::kProcessAdd,
               events::ProcessAdd{.routing_id = static_cast<std::int64_t>(routing_id),
                                  .drift_ppm = created->clock.drift_ppm()});
  by_routing_id_.emplace(routing_id, id);
  processes_.push_back(std::move(created));
  return id;
}

void Kernel::start(ProcessId id) {
  if (defer_if_in_task([this, id] { start(id); })) {
    return;
  }
  Process& target = process(id);
  const auto node = static_cast<std::int32_t>(id);
  if (target.state == ProcessState::running || target.state == ProcessState::paused) {
    record(node, 0, kinds::kProcessStartIgnored, {});
    return;
  }
  SPOTCHECK_ASSERT_ABORT(target.task_slots.empty());
  SPOTCHECK_ASSERT_ABORT(target.inbox.empty());
  ++target.run;
  target.state = ProcessState::running;
  target.paused_until_us = 0;
  target.platform->random.bind(streams_.get("node/" + target.name + "/run/" + std::to_string(target.run)));
  record_event(node, 0, kinds::kProcessStart, events::ProcessRun{.run = target.run});
  spawn_task(id, "main", [this, id] {
    Process& self = process(id);
    self.main(self.platform->platform);
  }, true);
}

void Kernel::kill(ProcessId id) {
  if (defer_if_in_task([this, id] { kill(id); })) {
    return;
  }
  Process& target = process(id);
  const auto node = static_cast<std::int32_t>(id);
  if (target.state != ProcessState::running && target.state != ProcessState::paused) {
    record(node, 0, kinds::kProcessKillIgnored, {});
    return;
  }
  record_event(node, 0, kinds::kProcessKill, events::ProcessRun{.run = target.run});
  terminate_process(target);
}

void Kernel::crash(ProcessId id, std::string_view point) {
  Process& target = process(id);
  if (current_ == nullptr || current_->process != id) {
    kill(id);
    return;
  }
  SPOTCHECK_ASSERT_ABORT(target.state == ProcessState::running);
  if (!target.crashing) {
    target.crashing = true;
    target.crash_point = std::string(point);
  }
}

void Kernel::end_crash(Process& target) {
  SPOTCHECK_ASSERT_ABORT(target.crashing && current_ == nullptr);
  if (target.state != ProcessState::running && target.state != ProcessState::paused) {
    target.crashing = false;  // its main returned meanwhile: nothing left to kill
    target.crash_point.clear();
    return;
  }
  record_event(static_cast<std::int32_t>(target.id), 0, kinds::kProcessCrash,
               events::ProcessCrash{.run = target.run, .point = target.crash_point}, true);
  kill(target.id);  // kill {run}, every fiber unwound (kernel context: not deferred)
}

void Kernel::restart(ProcessId id) {
  if (defer_if_in_task([this, id] { restart(id); })) {
    return;
  }
  Process& target = process(id);
  if (target.state == ProcessState::running || target.state == ProcessState::paused) {
    kill(id);
  }
  start(id);
}

void Kernel::terminate_process(Process& target) {
  SPOTCHECK_ASSERT_ABORT(target.state == ProcessState::running || target.state == ProcessState::paused);
  target.state = ProcessState::dead;
  target.crashing = false;
  target.crash_point.clear();
  ++target.pause_generation;  // cancels a pending unpause
  // Unwind newest task first (deterministic, and like a stack: tasks a task spawned usually use
  // its state, so they go before it; main goes last). A destructor may still send (dropped), open
  // gates (stale wakes) or spawn (refused), but cannot park.
  std::vector<std::uint32_t> slots = target.task_slots;
  std::sort(slots.begin(), slots.end(),
            [this](std::uint32_t a, std::uint32_t b) { return tasks_[a]->id > tasks_[b]->id; });
  for (const std::uint32_t slot : slots) {
    Task* task = task_at(slot);
    SPOTCHECK_ASSERT_ABORT(task != nullptr);
    SPOTCHECK_ASSERT_ABORT(task->process == target.id);
    task->wait_token = 0;
    task->claimed_token = 0;
    remove_task(*task);
  }
  SPOTCHECK_ASSERT_ABORT(target.task_slots.empty());
  target.inbox.clear();
  target.inbox_waiters.clear();
  target.frozen.clear();
  target.deferred_arrivals.clear();
}

void Kernel::pause(ProcessId id, TimeUs duration_us) {
  if (defer_if_in_task([this, id, duration_us] { pause(id, duration_us); })) {
    return;
  }
  SPOTCHECK_ASSERT_ABORT(duration_us >= 0);
  Process& target = process(id);
  const auto node = static_cast<std::int32_t>(id);
  if (target.state != ProcessState::running && target.state != ProcessState::paused) {
    record(node, 0, kinds::kProcessPauseIgnored, {});
    return;
  }
  sync_real_time();
  target.state = ProcessState::paused;
  target.paused_until_us = std::max(target.paused_until_us, now_us_ + duration_us);
  const std::uint64_t generation = ++target.pause_generation;
  record_event(node, 0, kinds::kProcessPause,
               events::ProcessPause{.duration_us = duration_us, .until_us = target.paused_until_us});
  schedule(target.paused_until_us, ReadyEntry{generation, id, EntryKind::unpause, WakeReason::start});
}

bool Kernel::end_pause(ProcessId id, std::uint64_t generation) {
  Process& target = process(id);
  if (target.state != ProcessState::paused || target.pause_generation != generation) {
    return false;
  }
  target.state = ProcessState::running;
  const auto node = static_cast<std::int32_t>(id);
  record_event(node, 0, kinds::kProcessUnpause,
               events::ProcessUnpause{.frozen = static_cast<std::int64_t>(target.frozen.size())});
  for (const ReadyEntry& entry : target.frozen) {
    ready_.push_back(entry);
  }
  target.frozen.clear();
  // Typed arrivals held back by the pause run now, in arrival order.
  std::vector<DeferredArrival> deferred = std::move(target.deferred_arrivals);
  target.deferred_arrivals.clear();
  for (DeferredArrival& arrival : deferred) {
    if (target.state != ProcessState::running || stopped_) {
      record_event(node, 0, kinds::kNetDrop,
                   events::NetDrop{.from = static_cast<std::int64_t>(arrival.from),
                                   .to = static_cast<std::int64_t>(target.routing_id),
                                   .message = static_cast<std::int64_t>(arrival.message),
                                   .why = "peer_down"});
      continue;
    }
    record_event(node, 0, kinds::kNetDeliver,
                 events::NetDeliver{.from = static_cast<std::int64_t>(arrival.from),
                                    .message = static_cast<std::int64_t>(arrival.message)});
    run_guarded("typed delivery", arrival.on_arrival);
  }
  return true;
}

void Kernel::set_clock_drift_ppm(ProcessId id, std::int64_t drift_ppm) {
  if (defer_if_in_task([this, id, drift_ppm] { set_clock_drift_ppm(id, drift_ppm); })) {
    return;
  }
  SPOTCHECK_ASSERT_ABORT(drift_ppm >= -config_.clock_drift_ppm_max);
  SPOTCHECK_ASSERT_ABORT(drift_ppm <= config_.clock_drift_ppm_max);
  Process& target = process(id);
  sync_real_time();
  target.clock.set_drift_ppm(now_us_, drift_ppm);
  record_event(static_cast<std::int32_t>(id), 0, kinds::kClockDrift, events::ClockDrift{.drift_ppm = drift_ppm});
  reschedule_local_timers(target);
}

void Kernel::step_clock(ProcessId id, TimeUs by_us) {
  if (defer_if_in_task([this, id, by_us] { step_clock(id, by_us); })) {
    return;
  }
  Process& target = process(id);
  sync_real_time();
  const TimeUs taken_us = target.clock.step(now_us_, by_us);
  record_event(static_cast<std::int32_t>(id), 0, kinds::kClockStepped, events::ClockStepped{.by_us = taken_us});
  reschedule_local_timers(target);
}

// Timers of waiting tasks were computed on the clock before it changed: add one on the clock as it
// is now (the earlier of the two wakes the task, which re-checks its local deadline).
void Kernel::reschedule_local_timers(const Process& target) {
  for (const std::uint32_t slot : target.task_slots) {
    const Task& task = *tasks_[slot];
    if (task.wait_token != 0 && task.deadline_local_us != platform::kNever) {
      schedule(target.clock.virtual_from_local(task.deadline_local_us),
               ReadyEntry{task.wait_token, slot, EntryKind::task_timer, WakeReason::timer});
    }
  }
}

}  // namespace spotcheck::sim
