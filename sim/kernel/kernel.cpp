// The scheduler loop: pop the next instant, let the strategy pick among the entries runnable at
// that instant, run one, repeat.
#include "sim/kernel/kernel.h"

#include <algorithm>
#include <exception>
#include <utility>

#include <boost/context/fiber.hpp>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/sim_events.h"

namespace spotcheck::sim {
namespace {

constexpr TraceKind kTaskStart(kinds::kTaskStart);
constexpr TraceKind kWakeTimer(kinds::kWakeTimer);
constexpr TraceKind kWakeGate(kinds::kWakeGate);
constexpr TraceKind kWakeGateGone(kinds::kWakeGateGone);
constexpr TraceKind kWakeMessage(kinds::kWakeMessage);
constexpr TraceKind kWakeYield(kinds::kWakeYield);
constexpr TraceKind kWakeKilled(kinds::kWakeKilled);
constexpr TraceKind kWakeUnknown(kinds::kWakeUnknown);

const TraceKind& wake_kind(WakeReason reason) {
  switch (reason) {
    case WakeReason::start:
      return kTaskStart;
    case WakeReason::timer:
      return kWakeTimer;
    case WakeReason::gate:
      return kWakeGate;
    case WakeReason::gate_gone:
      return kWakeGateGone;
    case WakeReason::message:
      return kWakeMessage;
    case WakeReason::yield:
      return kWakeYield;
    case WakeReason::killed:
      return kWakeKilled;
  }
  return kWakeUnknown;
}

}  // namespace

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::quiescent:
      return "quiescent";
    case RunStatus::time_limit:
      return "time_limit";
    case RunStatus::step_limit:
      return "step_limit";
    case RunStatus::failure:
      return "failure";
    case RunStatus::violation:
      return "violation";
  }
  return "unknown";
}

Kernel::Kernel(WorldConfig config)
    : config_(std::move(config)),
      streams_(config_.seed),
      stacks_(config_.stack_size_bytes, config_.guard_page_stacks),
      trace_(config_.trace) {
  SPOTCHECK_ASSERT_ABORT(config_.stack_size_bytes >= 16 * 1024);
  SPOTCHECK_ASSERT_ABORT(config_.clock_drift_ppm_max >= 0);
  SPOTCHECK_ASSERT_ABORT(config_.clock_drift_ppm_max <= kDriftPpmLimit);
  SPOTCHECK_ASSERT_ABORT(config_.clock_offset_max_us >= 0);
  make_choice_source();
  network_ = std::make_unique<Network>(*this, config_.network);
  if (config_.real_time) {
    real_time_.emplace();
  }
}

void Kernel::make_choice_source() {
  SPOTCHECK_ASSERT_ABORT(!(config_.record_decisions && config_.replay_decisions) || config_.lenient_replay);
  SPOTCHECK_ASSERT_ABORT(!config_.lenient_replay || config_.replay_decisions);
  scheduler_stream_ = &streams_.get("scheduler");
  SeededRandom& seeded = scheduler_stream_->seeded();
  strategy_ = config_.make_strategy ? config_.make_strategy(seeded) : std::make_unique<UniformRandomStrategy>(seeded);
  SPOTCHECK_ASSERT_ABORT(strategy_ != nullptr);
  seeded_choices_ = std::make_unique<SeededChoiceSource>(*strategy_);
  choices_ = seeded_choices_.get();
  auto refuse = [this](std::string why) { fail(std::move(why)); };
  if (config_.replay_decisions) {
    const auto mode = config_.lenient_replay ? ReplayMode::kLenient : ReplayMode::kStrict;
    replaying_choices_ =
        std::make_unique<ReplayingChoiceSource>(config_.replay_decisions, *seeded_choices_, refuse, mode);
    choices_ = replaying_choices_.get();
  }
  if (config_.record_decisions) {
    // Over a lenient replay: the decisions the run really took.
    recorded_decisions_ = std::make_shared<DecisionLog>(config_.max_decisions);
    recording_choices_ = std::make_unique<RecordingChoiceSource>(*choices_, *recorded_decisions_, refuse);
    choices_ = recording_choices_.get();
  }
  streams_.set_draw_source(*choices_);
}

Kernel::~Kernel() {
  SPOTCHECK_ASSERT_ABORT(current_ == nullptr);
  // Unwind every fiber while the rest of the world still exists; record nothing more.
  stopped_ = true;
  recording_ = false;
  observers_.clear();
  for (auto& process : processes_) {
    if (process->state == ProcessState::running || process->state == ProcessState::paused) {
      terminate_process(*process);
    }
  }
  SPOTCHECK_ASSERT_ABORT(live_tasks_ == 0);
  network_.reset();
  actions_.clear();
}

// --- running --------------------------------------------------------------------------------

RunOutcome Kernel::run_until(TimeUs end_us, std::uint64_t max_steps) {
  SPOTCHECK_ASSERT_ABORT(current_ == nullptr);
  SPOTCHECK_ASSERT_ABORT(!running_);
  running_ = true;
  const std::uint64_t step_limit = steps_ + max_steps;
  RunStatus status = RunStatus::quiescent;
  for (;;) {
    if (const std::optional<RunStatus> stop = turn(end_us, step_limit)) {
      status = *stop;
      break;
    }
  }
  running_ = false;
  SPOTCHECK_ASSERT_ABORT(current_ == nullptr);
  RunOutcome outcome;
  outcome.status = status;
  outcome.problem = problem_;
  outcome.problem_event = problem_event_;
  outcome.end_time_us = now_us_;
  outcome.steps = steps_;
  outcome.events = trace_.size();
  outcome.trace_hash = trace_.hash();
  return outcome;
}

// One turn of the run loop: runs one ready entry or moves time on, or says why the run ends.
std::optional<RunStatus> Kernel::turn(TimeUs end_us, std::uint64_t step_limit) {
  if (stopped_) {
    return stop_status_;
  }
  if (real_time_) {
    // Real-time mode: time is the steady clock. Entries due by now join the ready set at every
    // step (so a busy ready set cannot starve timers).
    sync_real_time();
    pop_due_real_time();
    if (ready_.empty()) {
      return wait_real_time(end_us);
    }
    if (now_us_ > end_us) {
      return RunStatus::time_limit;
    }
  }
  if (ready_.empty()) {
    return advance_virtual_time(end_us);
  }
  if (steps_ >= step_limit) {
    return RunStatus::step_limit;
  }
  run_one_ready();
  return std::nullopt;
}

// Real time with nothing runnable: the thread sleeps until the next entry is due or end_us passes.
std::optional<RunStatus> Kernel::wait_real_time(TimeUs end_us) {
  SPOTCHECK_ASSERT_ABORT(ready_.empty());
  if (queue_.empty()) {
    return RunStatus::quiescent;
  }
  if (now_us_ >= end_us) {
    return RunStatus::time_limit;
  }
  real_time_->sleep_until(std::min(queue_.next_time_us(), end_us));
  return std::nullopt;
}

// Virtual time with nothing runnable: jump to the next due entry, unless it lies past end_us.
std::optional<RunStatus> Kernel::advance_virtual_time(TimeUs end_us) {
  SPOTCHECK_ASSERT_ABORT(ready_.empty());
  if (queue_.empty()) {
    return RunStatus::quiescent;
  }
  const TimeUs next_us = queue_.next_time_us();
  SPOTCHECK_ASSERT_ABORT(next_us >= now_us_);
  if (next_us > end_us) {
    now_us_ = std::max(now_us_, end_us);
    return RunStatus::time_limit;
  }
  now_us_ = next_us;
  queue_.pop_due(now_us_, ready_);
  SPOTCHECK_ASSERT_ABORT(!ready_.empty());
  return std::nullopt;
}

void Kernel::run_one_ready() {
  const std::optional<std::size_t> chosen = pick_ready();
  if (!chosen) {
    SPOTCHECK_ASSERT_ABORT(ready_.empty());
    return;  // every entry was dead
  }
  const ReadyEntry entry = ready_[*chosen];
  ready_[*chosen] = ready_.back();
  ready_.pop_back();
  const bool executed = execute(entry);
  SPOTCHECK_ASSERT_ABORT(executed);  // only live entries are picked
  ++steps_;
}

std::optional<std::size_t> Kernel::pick_ready() {
  drop_dead_ready();
  const std::size_t count = ready_.size();
  if (count <= 1) {
    return count == 1 ? std::optional<std::size_t>(0) : std::nullopt;
  }
  candidates_.clear();
  for (const ReadyEntry& entry : ready_) {
    candidates_.push_back(candidate(entry));
  }
  std::size_t chosen = choices_->pick(*scheduler_stream_, std::span<const ReadyCandidate>(candidates_));
  SPOTCHECK_ASSERT_ABORT(chosen < count);
  if (config_.test_only_perturb_tie_break_at_step && !perturbed_ && steps_ >= *config_.test_only_perturb_tie_break_at_step) {
    chosen = perturbed_pick(chosen);
  }
  return chosen;
}

void Kernel::drop_dead_ready() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < ready_.size(); ++i) {
    if (entry_is_live(ready_[i])) {
      ready_[kept++] = ready_[i];
    }
  }
  ready_.resize(kept);
}

ReadyCandidate Kernel::candidate(const ReadyEntry& entry) const {
  ReadyCandidate result;
  result.kind = entry.kind;
  result.reason = entry.reason;
  switch (entry.kind) {
    case EntryKind::task_timer:
    case EntryKind::task: {
      const Task* task = task_at(entry.index);
      SPOTCHECK_ASSERT_ABORT(task != nullptr);
      result.task = task->id;
      result.process = task->process;
      break;
    }
    case EntryKind::action:
      result.action = entry.token;
      break;
    case EntryKind::arrival:
      result.link = entry.index;
      break;
    case EntryKind::unpause:
      result.process = entry.index;
      break;
  }
  return result;
}

// Test-only: another live, distinguishable candidate than the one chosen (all are live here).
std::size_t Kernel::perturbed_pick(std::size_t chosen) {
  for (std::size_t other = 0; other < ready_.size(); ++other) {
    const ReadyEntry& candidate = ready_[other];
    const bool distinguishable = candidate.kind != ready_[chosen].kind || candidate.index != ready_[chosen].index;
    if (other != chosen && distinguishable) {
      perturbed_ = true;
      perturbed_event_index_ = trace_.size();
      return other;
    }
  }
  return chosen;
}

bool Kernel::entry_is_live(const ReadyEntry& entry) const {
  switch (entry.kind) {
    case EntryKind::task_timer: {
      const Task* task = task_at(entry.index);
      return task != nullptr && task->wait_token == entry.token;
    }
    case EntryKind::task: {
      const Task* task = task_at(entry.index);
      return task != nullptr && task->claimed_token == entry.token;
    }
    case EntryKind::action:
      return actions_.contains(entry.token);
    case EntryKind::arrival:
      return true;
    case EntryKind::unpause: {
      const Process& target = process(entry.index);
      return target.state == ProcessState::paused && target.pause_generation == entry.token;
    }
  }
  return false;
}

bool Kernel::execute(const ReadyEntry& entry) {
  switch (entry.kind) {
    case EntryKind::task_timer:
    case EntryKind::task:
      return run_task_entry(entry);
    case EntryKind::action:
      return run_action(entry.token);
    case EntryKind::arrival:
      network_->arrive(entry.index);
      return true;
    case EntryKind::unpause:
      return end_pause(entry.index, entry.token);
  }
  return false;
}

bool Kernel::run_task_entry(const ReadyEntry& entry) {
  Task* task = task_at(entry.index);
  if (task == nullptr) {
    return false;
  }
  if (entry.kind == EntryKind::task_timer) {
    if (task->wait_token != entry.token) {
      return false;  // woken otherwise, or the wait ended: the timer is cancelled
    }
    task->wait_token = 0;
    task->claimed_token = entry.token;
    task->wake_reason = WakeReason::timer;
  } else if (task->claimed_token != entry.token) {
    return false;
  }
  Process& owner = process(task->process);
  SPOTCHECK_ASSERT_ABORT(owner.state == ProcessState::running || owner.state == ProcessState::paused);
  const auto node = static_cast<std::int32_t>(owner.id);
  if (owner.state == ProcessState::paused) {
    ReadyEntry frozen = entry;
    frozen.kind = EntryKind::task;
    frozen.reason = task->wake_reason;
    owner.frozen.push_back(frozen);
    record(node, task->id, kinds::kTaskFrozen, {});
    return true;
  }
  task->claimed_token = 0;
  record(node, task->id, wake_kind(task->wake_reason));
  current_ = task;
  task->fiber.resume();
  current_ = nullptr;
  if (task->fiber.finished()) {
    finish_task(*task);
  }
  if (owner.crashing) {
    end_crash(owner);  // died at its crash point: before any other task of it runs
  }
  return true;
}

bool Kernel::run_action(ActionId action) {
  auto found = actions_.find(action);
  if (found == actions_.end()) {
    return false;  // cancelled
  }
  std::function<void()> callback = std::move(found->second);
  actions_.erase(found);
  record_event(kWorldNode, 0, kinds::kAction, events::Action{.action = static_cast<std::int64_t>(action)});
  run_guarded("world action", callback);
  return true;
}

void Kernel::run_guarded(std::string_view what, const std::function<void()>& callback) {
  SPOTCHECK_ASSERT_ABORT(current_ == nullptr);
  try {
    callback();
  } catch (const std::exception& error) {
    fail(std::string(what) + " threw: " + error.what());
  } catch (...) {
    fail(std::string(what) + " threw a non-standard exception");
  }
}

// --- tasks ----------------------------------------------------------------------------------

void Kernel::task_entry(void* argument) {
  Task& task = *static_cast<Task*>(argument);
  task.kernel->run_task_body(task);
}

void Kernel::run_task_body(Task& task) {
  try {
    task.body();
  } catch (const boost::context::detail::forced_unwind&) {
    throw;  // the process is being killed: let Boost finish unwinding this fiber
  } catch (const std::exception& error) {
    fail("task '" + task.name + "' of " + process(task.process).name + " threw: " + error.what());
  } catch (...) {
    fail("task '" + task.name + "' of " + process(task.process).name + " threw a non-standard exception");
  }
}

TaskId Kernel::spawn(ProcessId process_id, std::string name, std::function<void()> body) {
  return spawn_task(process_id, std::move(name), std::move(body), false);
}

TaskId Kernel::spawn_task(ProcessId process_id, std::string name, std::function<void()> body, bool is_main) {
  SPOTCHECK_ASSERT_ABORT(body != nullptr);
  Process& owner = process(process_id);
  const auto node = static_cast<std::int32_t>(owner.id);
  if (owner.state != ProcessState::running && owner.state != ProcessState::paused) {
    record_event(node, current_task_id(), kinds::kSpawnRefused, events::SpawnRefused{.name = name});
    return 0;
  }
  if (live_tasks_ >= config_.max_live_tasks) {
    fail("live task bound exceeded (" + std::to_string(config_.max_live_tasks) + ") in " + owner.name);
    return 0;
  }
  std::uint32_t slot = 0;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(tasks_.size());
    tasks_.emplace_back();
  }
  SPOTCHECK_ASSERT_ABORT(tasks_[slot] == nullptr);
  auto task = std::make_unique<Task>(*this, stacks_, &Kernel::task_entry);
  task->id = next_task_id_++;
  task->slot = slot;
  task->process = process_id;
  task->is_main = is_main;
  task->name = std::move(name);
  task->body = std::move(body);
  task->index_in_process = static_cast<std::uint32_t>(owner.task_slots.size());
  task->deadline_local_us = platform::kNever;
  const std::uint64_t token = next_token_++;
  task->claimed_token = token;
  task->wake_reason = WakeReason::start;
  const TaskId id = task->id;
  record_event(node, current_task_id(), kinds::kSpawn,
               events::Spawn{.new_task = static_cast<std::int64_t>(id), .name = task->name});
  owner.task_slots.push_back(slot);
  tasks_[slot] = std::move(task);
  ++live_tasks_;
  ready_.push_back(ReadyEntry{token, slot, EntryKind::task, WakeReason::start});
  return id;
}

void Kernel::finish_task(Task& task) {
  SPOTCHECK_ASSERT_ABORT(task.fiber.finished());
  Process& owner = process(task.process);
  const bool was_main = task.is_main;
  record(static_cast<std::int32_t>(owner.id), task.id, kinds::kTaskEnd, {});
  remove_task(task);
  if (was_main && owner.state == ProcessState::running) {
    // Like a real process: returning from main ends the host run.
    record_event(static_cast<std::int32_t>(owner.id), 0, kinds::kProcessExit, events::ProcessRun{.run = owner.run});
    terminate_process(owner);
  }
}

void Kernel::remove_task(Task& task) {
  Process& owner = process(task.process);
  SPOTCHECK_ASSERT_ABORT(task.index_in_process < owner.task_slots.size());
  SPOTCHECK_ASSERT_ABORT(owner.task_slots[task.index_in_process] == task.slot);
  const std::uint32_t moved_slot = owner.task_slots.back();
  owner.task_slots[task.index_in_process] = moved_slot;
  tasks_[moved_slot]->index_in_process = task.index_in_process;
  owner.task_slots.pop_back();
  const std::uint32_t slot = task.slot;
  SPOTCHECK_ASSERT_ABORT(live_tasks_ > 0);
  --live_tasks_;
  // Destroying the task destroys its fiber: a suspended fiber is unwound here (forced_unwind).
  std::unique_ptr<Task> doomed = std::move(tasks_[slot]);
  Task* const saved_current = current_;
  current_ = doomed.get();
  doomed.reset();
  current_ = saved_current;
  free_slots_.push_back(slot);
}

Task* Kernel::task_at(std::uint32_t slot) const {
  if (slot >= tasks_.size()) {
    return nullptr;
  }
  return tasks_[slot].get();
}

// --- trace and stopping ---------------------------------------------------------------------

void Kernel::record(std::int32_t node, TaskId task, std::string_view kind, std::span<const platform::Field> fields,
                    bool copy_strings) {
  if (!recording_) {
    return;
  }
  sync_real_time();
  const TraceEvent event = trace_.append(now_us_, node, task, kind, fields, copy_strings);
  if (!stopped_ && !observers_.empty()) {
    notify_observers(event);
  }
}

void Kernel::record(std::int32_t node, TaskId task, const TraceKind& kind) {
  if (!recording_) {
    return;
  }
  sync_real_time();
  const std::uint64_t index = trace_.append(now_us_, node, task, kind);
  if (!stopped_ && !observers_.empty()) {
    notify_observers(trace_.view(index, now_us_, node, task, kind));
  }
}

void Kernel::notify_observers(const TraceEvent& event) {
  for (TraceObserver* observer : observers_) {
    std::optional<std::string> violation = observer->on_event(event);
    if (violation) {
      const std::uint64_t broken = event.index;
      const events::Violation objection{.what = *violation, .event = static_cast<std::int64_t>(broken)};
      platform::FieldWriter<events::Violation::kFieldsMax> details;
      fields(details, objection);
      trace_.append(now_us_, event.node, event.task, kinds::kViolation, details.fields(), true);
      stop(RunStatus::violation, std::move(*violation), broken);
      return;
    }
  }
}

Trace Kernel::take_trace() {
  Trace taken = std::move(trace_);
  trace_ = Trace(config_.trace);
  for (const auto& each : processes_) {
    trace_.set_node_name(static_cast<std::int32_t>(each->id), each->name);
  }
  return taken;
}

void Kernel::add_observer(TraceObserver& observer) {
  SPOTCHECK_ASSERT_ABORT(std::find(observers_.begin(), observers_.end(), &observer) == observers_.end());
  observers_.push_back(&observer);
}

void Kernel::remove_observer(TraceObserver& observer) {
  std::erase(observers_, &observer);
}

std::int32_t Kernel::node_of_current() const {
  return current_ != nullptr ? static_cast<std::int32_t>(current_->process) : kWorldNode;
}

void Kernel::fail(std::string why) {
  if (!recording_) {
    return;
  }
  const events::Failure failure{.why = why};
  platform::FieldWriter<events::Failure::kFieldsMax> details;
  fields(details, failure);
  const TraceEvent event =
      trace_.append(now_us_, node_of_current(), current_task_id(), kinds::kFailure, details.fields(), true);
  stop(RunStatus::failure, std::move(why), event.index);
}

void Kernel::stop(RunStatus status, std::string problem, std::optional<std::uint64_t> event) {
  if (stopped_) {
    return;  // the first problem wins
  }
  stopped_ = true;
  stop_status_ = status;
  problem_ = std::move(problem);
  problem_event_ = event;
}

// --- scheduling -----------------------------------------------------------------------------

void Kernel::fail_pending_bound() {
  fail("pending event bound exceeded (" + std::to_string(config_.max_pending_events) + ")");
}

void Kernel::pop_due_real_time() {
  SPOTCHECK_ASSERT_ABORT(real_time_);
  // Bounded by the queue's size: every round moves at least one entry.
  while (!queue_.empty()) {
    const TimeUs next_us = queue_.next_time_us();
    if (next_us > now_us_) {
      break;
    }
    queue_.pop_due(next_us, ready_);
  }
}

ActionId Kernel::at(TimeUs when_us, std::function<void()> action) {
  SPOTCHECK_ASSERT_ABORT(action != nullptr);
  const ActionId id = next_action_id_++;
  actions_.emplace(id, std::move(action));
  schedule(when_us, ReadyEntry{id, 0, EntryKind::action, WakeReason::start});
  return id;
}

bool Kernel::cancel(ActionId action) {
  return actions_.erase(action) == 1;
}

bool Kernel::defer_if_in_task(std::function<void()> action) {
  if (current_ == nullptr) {
    return false;
  }
  at(now_us_, std::move(action));
  return true;
}

}  // namespace spotcheck::sim
