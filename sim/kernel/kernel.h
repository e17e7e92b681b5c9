// The simulator's engine (private to sim/): virtual time, the ready set and event queue, tasks on
// fibers, processes, and the trace. World is its public face; the platform adapters, gates and
// the network call into it. Single-threaded: one kernel per thread at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/platform/event_fields.h"
#include "impl/platform/event_sink.h"
#include "impl/check/check.h"
#include "sim/choice/recording_choice_source.h"
#include "sim/choice/replaying_choice_source.h"
#include "sim/choice/seeded_choice_source.h"
#include "sim/fiber/stack_allocator.h"
#include "sim/kernel/task.h"
#include "sim/kernel/network.h"
#include "sim/kernel/process.h"
#include "sim/random/streams.h"
#include "sim/runtime/realtime/steady_time_source.h"
#include "sim/run_outcome.h"
#include "sim/scheduler/event_queue.h"
#include "sim/scheduler/strategy.h"
#include "sim/trace/observer.h"
#include "sim/trace/trace.h"
#include "sim/world_config.h"

namespace spotcheck::sim {

class Kernel {
 public:
  explicit Kernel(WorldConfig config);
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // --- running -------------------------------------------------------------------------------
  RunOutcome run_until(TimeUs end_us, std::uint64_t max_steps);
  // Real-time mode: the steady clock's current reading (now_us_ catches up at every step).
  TimeUs now_us() const { return real_time_ ? std::max(now_us_, real_time_->elapsed_us()) : now_us_; }
  std::uint64_t steps() const { return steps_; }
  void fail(std::string why);
  bool stopped() const { return stopped_; }

  // --- coverage marks (impl/platform/marks.h): counted, never traced ---------------------------
  void count_mark(platform::Mark mark) { ++marks_[static_cast<std::size_t>(mark)]; }
  const platform::MarkCounts& marks() const { return marks_; }

  // --- trace ---------------------------------------------------------------------------------
  Trace& trace() { return trace_; }
  // Moves the trace out and continues with an empty one (same config and node names).
  Trace take_trace();
  void add_observer(TraceObserver& observer);
  void remove_observer(TraceObserver& observer);
  // Records one event stamped with the current time. Literal kind/keys unless copy_strings.
  void record(std::int32_t node, TaskId task, std::string_view kind, std::span<const platform::Field> fields,
              bool copy_strings = false);
  void record(std::int32_t node, TaskId task, std::string_view kind, std::initializer_list<platform::Field> fields) {
    record(node, task, kind, std::span<const platform::Field>(fields.begin(), fields.size()));
  }
  // A typed event (sim/events/): its fields as its fields() declares them, in a fixed array.
  template <class E>
  void record_event(std::int32_t node, TaskId task, std::string_view kind, const E& event, bool copy_strings = false) {
    platform::FieldWriter<E::kFieldsMax> writer;
    fields(writer, event);
    record(node, task, kind, writer.fields(), copy_strings);
  }
  // An event without fields whose kind was packed at compile time (the same hash and record).
  void record(std::int32_t node, TaskId task, const TraceKind& kind);
  TaskId current_task_id() const { return current_ != nullptr ? current_->id : 0; }
  bool in_task() const { return current_ != nullptr; }

  // --- world actions -------------------------------------------------------------------------
  ActionId at(TimeUs when_us, std::function<void()> action);
  bool cancel(ActionId action);

  // --- processes -----------------------------------------------------------------------------
  ProcessId add_process(std::string name, RoutingId routing_id, ProcessMain main);
  void start(ProcessId process);
  void kill(ProcessId process);
  // Called from one of the process's own tasks: the process dies right here — nothing it sends
  // from now on leaves, and it is killed (crash {run, point}, then kill) when that task next
  // switches, before any other task runs. Otherwise the same as kill.
  void crash(ProcessId process, std::string_view point);
  void restart(ProcessId process);
  void pause(ProcessId process, TimeUs duration_us);
  void set_clock_drift_ppm(ProcessId process, std::int64_t drift_ppm);
  // Out of contract: the process's local clock steps by `by_us` (back when negative).
  void step_clock(ProcessId process, TimeUs by_us);
  Process& process(ProcessId id) {
    SPOTCHECK_ASSERT_ABORT(id < processes_.size());
    return *processes_[id];
  }
  const Process& process(ProcessId id) const {
    SPOTCHECK_ASSERT_ABORT(id < processes_.size());
    return *processes_[id];
  }
  std::size_t process_count() const { return processes_.size(); }
  Process* process_by_routing_id(RoutingId routing_id);
  TimeUs local_now_us(ProcessId id) const { return process(id).clock.local_from_virtual(now_us()); }
  TimeUs virtual_from_local(ProcessId id, TimeUs local_us) const {
    return process(id).clock.virtual_from_local(local_us);
  }

  // --- tasks and waiting (called from the platform adapters and gates) ------------------------
  TaskId spawn(ProcessId process, std::string name, std::function<void()> body);
  // The running task; asserts that there is one (and that it belongs to `process` if given).
  Task& require_current() {
    SPOTCHECK_ASSERT_ABORT(current_ != nullptr);
    return *current_;
  }
  Task& require_current(ProcessId process_id) {
    SPOTCHECK_ASSERT_ABORT(current_ != nullptr);
    SPOTCHECK_ASSERT_ABORT(current_->process == process_id);
    return *current_;
  }
  // Parks the current task until woken (through `list`, if given) or until its process's local
  // clock reaches deadline_local_us. Returns immediately with `killed` if the process is dying.
  WakeReason wait(Task& task, TimeUs deadline_local_us, WaitList* list);
  void wake(const WaitRef& ref, WakeReason reason);
  void wake_all(WaitList& list, WakeReason reason);
  void sleep_until_local(ProcessId process, TimeUs deadline_local_us);
  void yield(ProcessId process);
  std::optional<platform::Envelope> receive(ProcessId process, TimeUs deadline_local_us);
  void emit(ProcessId process, std::string_view kind, std::span<const platform::Field> fields);

  // --- used by the network -------------------------------------------------------------------
  void schedule(TimeUs at_us, const ReadyEntry& entry) {
    sync_real_time();
    if (at_us <= now_us_) {
      ready_.push_back(entry);
      return;
    }
    if (queue_.size() >= config_.max_pending_events) [[unlikely]] {
      fail_pending_bound();
      return;
    }
    queue_.push(at_us, entry);
  }
  Stream& stream(std::string_view name) { return streams_.get(name); }
  Network& network() { return *network_; }
  // The decision log being recorded (WorldConfig::record_decisions), else null.
  const std::shared_ptr<DecisionLog>& decision_log() const { return recorded_decisions_; }
  // Decisions of the replayed log not read yet (0 when not replaying).
  // A lenient replay may leave decisions unread: an edited log need not fit the run.
  std::size_t unread_decisions() const {
    return replaying_choices_ && !config_.lenient_replay ? replaying_choices_->unread() : 0;
  }
  const WorldConfig& config() const { return config_; }
  // Runs a world-context callback, turning an escaping exception into a run failure.
  void run_guarded(std::string_view what, const std::function<void()>& callback);

  // --- test hooks ----------------------------------------------------------------------------
  std::optional<std::uint64_t> perturbed_event_index() const { return perturbed_event_index_; }
  std::uint32_t live_tasks() const { return live_tasks_; }
  std::size_t pooled_stacks_in_use() const { return stacks_.pooled.stacks_in_use(); }

 private:
  static void task_entry(void* argument);
  WakeReason park(Task& task, TimeUs deadline_local_us, WaitList* list);  // wait(), inlined in waiting.cpp
  void run_task_body(Task& task);
  TaskId spawn_task(ProcessId process, std::string name, std::function<void()> body, bool is_main);
  void make_choice_source();
  // Drops the dead entries of the ready set (keeping the order of the live ones) and returns the
  // index of the one to run next, or nothing if none is live.
  std::optional<RunStatus> turn(TimeUs end_us, std::uint64_t step_limit);
  std::optional<RunStatus> wait_real_time(TimeUs end_us);
  std::optional<RunStatus> advance_virtual_time(TimeUs end_us);
  void run_one_ready();
  std::optional<std::size_t> pick_ready();
  void drop_dead_ready();
  ReadyCandidate candidate(const ReadyEntry& entry) const;
  std::size_t perturbed_pick(std::size_t chosen);
  bool entry_is_live(const ReadyEntry& entry) const;
  bool execute(const ReadyEntry& entry);
  bool run_task_entry(const ReadyEntry& entry);
  bool run_action(ActionId action);
  bool end_pause(ProcessId process, std::uint64_t generation);
  void finish_task(Task& task);
  void remove_task(Task& task);
  void terminate_process(Process& process);
  Task* task_at(std::uint32_t slot) const;
  std::int32_t node_of_current() const;
  // Kills a process whose task called crash() and has just switched away (kernel context).
  void end_crash(Process& target);
  void notify_observers(const TraceEvent& event);
  void fail_pending_bound();
  void stop(RunStatus status, std::string problem, std::optional<std::uint64_t> event);
  // World API calls made from inside a task are deferred to a world action at the current instant.
  bool defer_if_in_task(std::function<void()> action);
  // After a process's local clock changed rate or stepped (set_clock_drift_ppm, step_clock).
  void reschedule_local_timers(const Process& target);
  // Real-time mode only: moves now_us_ to the steady clock's reading.
  void sync_real_time() {
    if (real_time_) {
      now_us_ = std::max(now_us_, real_time_->elapsed_us());
    }
  }
  // Real-time mode only: moves every queued entry due by now to the ready set.
  void pop_due_real_time();

  WorldConfig config_;
  StreamRegistry streams_;
  Stream* scheduler_stream_ = nullptr;
  std::unique_ptr<SchedulingStrategy> strategy_;
  // The run's choice source: seeded, or a recording / replaying decorator over it.
  std::unique_ptr<SeededChoiceSource> seeded_choices_;
  std::shared_ptr<DecisionLog> recorded_decisions_;
  std::unique_ptr<RecordingChoiceSource> recording_choices_;
  std::unique_ptr<ReplayingChoiceSource> replaying_choices_;
  ChoiceSource* choices_ = nullptr;
  std::vector<ReadyCandidate> candidates_;  // reused by pick_ready
  StackSource stacks_;
  Trace trace_;
  platform::MarkCounts marks_{};
  std::vector<TraceObserver*> observers_;
  std::optional<SteadyTimeSource> real_time_;  // set iff config_.real_time

  TimeUs now_us_ = 0;
  std::uint64_t steps_ = 0;
  EventQueue queue_;
  std::vector<ReadyEntry> ready_;
  std::uint64_t next_token_ = 1;

  std::vector<std::unique_ptr<Task>> tasks_;  // by slot
  std::vector<std::uint32_t> free_slots_;
  std::uint32_t live_tasks_ = 0;
  TaskId next_task_id_ = 1;
  Task* current_ = nullptr;

  std::vector<std::unique_ptr<Process>> processes_;
  std::map<RoutingId, ProcessId> by_routing_id_;

  std::map<ActionId, std::function<void()>> actions_;
  ActionId next_action_id_ = 1;

  std::unique_ptr<Network> network_;

  bool running_ = false;
  bool recording_ = true;  // off while the kernel is torn down
  bool stopped_ = false;
  RunStatus stop_status_ = RunStatus::quiescent;
  std::string problem_;
  std::optional<std::uint64_t> problem_event_;
  bool perturbed_ = false;
  std::optional<std::uint64_t> perturbed_event_index_;
};

}  // namespace spotcheck::sim
