// A deterministic simulated world: processes made of fibers, virtual time, a network with faults,
// named random streams from one seed, and a hashed trace of every observable action.
//
//   sim::World world(sim::WorldConfig{.seed = 42});
//   auto n1 = world.add_process("n1", /*routing id*/ 1, [](platform::Platform& p) { ... });
//   world.start(n1);
//   world.at(platform::seconds(1), [&] { world.kill(n1); });
//   sim::RunOutcome outcome = world.run_until(platform::seconds(10), /*max_steps*/ 1'000'000);
//
// Single-threaded; run several worlds in parallel on different threads if needed. See
// docs/simulator.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "impl/platform/event_fields.h"
#include "impl/platform/platform.h"
#include "sim/ids.h"
#include "sim/kernel/network.h"
#include "sim/kernel/process_state.h"
#include "sim/run_outcome.h"
#include "sim/trace/divergence.h"
#include "sim/trace/observer.h"
#include "sim/trace/trace.h"
#include "sim/world_config.h"

namespace spotcheck::sim {

class Kernel;

class World {
 public:
  explicit World(WorldConfig config);
  ~World();  // unwinds every remaining fiber
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // --- processes -----------------------------------------------------------------------------
  // Adds a stopped process. `main` runs in a fresh task named "main" at every (re)start.
  ProcessId add_process(std::string name, RoutingId routing_id, ProcessMain main);
  // The calls below take effect immediately from the world context; called from inside a task
  // they are deferred to a world action at the current instant.
  void start(ProcessId process);
  // All fibers of the process are unwound (destructors run), its inbox and timers are gone.
  void kill(ProcessId process);
  // Called from one of the process's tasks (a fault observing its events): the process dies right
  // there — nothing it sends afterwards leaves, and it is killed (crash {run, point}, kill) as that
  // task next switches, before any other task of it runs. From the world context: kill.
  void crash(ProcessId process, std::string_view point);
  // Counts a coverage mark (a fault's own marks, e.g. the crash points it reached).
  void count_mark(platform::Mark mark);
  // kill (if up) + start: a new host run; main runs again from scratch.
  void restart(ProcessId process);
  // Freezes the process's fibers for `duration_us` of virtual time: timers fire late, messages
  // queue. Pausing a paused process extends the pause.
  void pause(ProcessId process, TimeUs duration_us);
  // |drift_ppm| <= WorldConfig::clock_drift_ppm_max. Changes the rate of the process's local clock.
  void set_clock_drift_ppm(ProcessId process, std::int64_t drift_ppm);
  // Out of contract (faults/out_of_contract.h): the process's local clock steps by `by_us`, back
  // when negative (never below 0). Records clock.stepped.
  void step_clock(ProcessId process, TimeUs by_us);
  // Starts a task in `process` (also for world-context code such as typed delivery callbacks).
  TaskId spawn(ProcessId process, std::string name, std::function<void()> body);

  ProcessState process_state(ProcessId process) const;
  std::uint32_t process_run(ProcessId process) const;  // host run number (0 before the first start)
  const std::string& process_name(ProcessId process) const;
  RoutingId process_routing_id(ProcessId process) const;
  std::optional<ProcessId> process_by_routing_id(RoutingId routing_id) const;
  std::size_t process_count() const;
  TimeUs local_now_us(ProcessId process) const;  // the process's drifted clock
  // The earliest virtual time at which the process's clock reads `local_us` (at its current drift).
  TimeUs virtual_from_local(ProcessId process, TimeUs local_us) const;
  // The process's platform seams; valid for the world's lifetime. Blocking calls only from its tasks.
  platform::Platform& platform(ProcessId process);

  // --- world ---------------------------------------------------------------------------------
  Network& network();
  // The named stream of this run (created on first use; independent of every other stream).
  platform::Random& stream(std::string_view name);
  // The decision log being recorded (WorldConfig::record_decisions; it grows as the run goes), or
  // null. Replaying it (WorldConfig::replay_decisions) on this build gives the same run.
  std::shared_ptr<const DecisionLog> decision_log() const;
  // When replaying: the decisions of the log not read yet (0 after a faithful replay).
  std::size_t unread_decisions() const;
  // Runs `action` on the world context at virtual time `when_us` (now if in the past). It may not
  // block. Returns a handle for cancel().
  ActionId at(TimeUs when_us, std::function<void()> action);
  bool cancel(ActionId action);  // true if it had not run yet

  // Runs until virtual time passes end_us, max_steps scheduler steps ran, nothing is left to run,
  // or a failure/violation stops the world. May be called again to continue.
  RunOutcome run_until(TimeUs end_us, std::uint64_t max_steps);
  TimeUs now_us() const;
  std::uint64_t steps() const;

  // How often each coverage mark fired in this run (impl/platform/marks.h; not in the trace).
  const platform::MarkCounts& marks() const;

  // --- trace and checking --------------------------------------------------------------------
  const Trace& trace() const;
  // Moves the trace out (after the last run_until; the world records nothing useful afterwards).
  Trace take_trace();
  // Records a world-level event (fault injectors, workloads). Kind and keys are copied.
  void record(std::string_view kind, std::initializer_list<platform::Field> fields);
  void record(std::string_view kind, std::span<const platform::Field> fields);
  // The same for a typed event (sim/events/): its fields as its fields() declares them.
  template <class E>
  void record_event(std::string_view kind, const E& event) {
    platform::FieldWriter<E::kFieldsMax> writer;
    fields(writer, event);
    record(kind, writer.fields());
  }
  // The observer must outlive the world or be removed.
  void add_observer(TraceObserver& observer);
  void remove_observer(TraceObserver& observer);
  // Stops the run with a failure (recorded as a "failure" event).
  void fail(std::string why);

  // Trace index of the event right after the test-only tie-break perturbation, if it happened.
  std::optional<std::uint64_t> test_only_perturbed_event_index() const;
  std::uint32_t live_tasks() const;
  // Fiber stacks taken from the pool and not yet returned (0 with guard_page_stacks).
  std::size_t pooled_stacks_in_use() const;

 private:
  std::unique_ptr<Kernel> kernel_;
};

}  // namespace spotcheck::sim
