// Everything that parameterizes a world. Together with the build, (config, seed) fixes the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "impl/platform/random.h"
#include "sim/choice/decision_log.h"
#include "sim/fiber/stack_size.h"
#include "sim/ids.h"
#include "sim/network_config.h"
#include "sim/scheduler/strategy.h"
#include "sim/trace/trace.h"

namespace spotcheck::sim {

struct WorldConfig {
  std::uint64_t seed = 0;
  NetworkConfig network;
  TraceConfig trace;

  // Fiber stacks: pooled (fast) or mmap'd with a guard page (catches stack overflow; ~100x slower to create).
  bool guard_page_stacks = false;
  std::size_t stack_size_bytes = kDefaultStackSizeBytes;

  // Clocks: each process's local clock starts at an offset drawn from the "clock" stream in
  // [0, clock_offset_max_us] and runs at (1 + drift_ppm / 1e6) of virtual speed, with
  // |drift_ppm| <= clock_drift_ppm_max (set_clock_drift_ppm asserts it).
  TimeUs clock_offset_max_us = 10 * platform::kMicrosPerSecond;
  std::int64_t clock_drift_ppm_max = 1'000;
  bool draw_clock_drift = false;  // initial drift of every process drawn from the "clock" stream

  // Bounds (exceeding one fails the run).
  std::uint32_t max_live_tasks = 100'000;
  std::size_t max_pending_events = 50'000'000;
  std::size_t max_inbox_messages = 100'000;  // per process; beyond it arrivals are dropped

  // Scheduling strategy for equal-time ties; null = UniformRandomStrategy on the "scheduler" stream.
  // It is given the seeded sequence of that stream; its picks reach the kernel through the run's
  // choice source (sim/choice/).
  std::function<std::unique_ptr<SchedulingStrategy>(platform::Random& scheduler_stream)> make_strategy;

  // Decision logs (sim/choice/, docs/replay.md): record every choice of the run (each stream's
  // draws and the scheduler's picks) into World::decision_log(), or replay the run from a log
  // recorded on this build. Not both, unless the replay is lenient. A log holds at most
  // max_decisions (beyond: the run fails).
  bool record_decisions = false;
  std::shared_ptr<const DecisionLog> replay_decisions;
  // Replay an edited log (shrinking, replay/shrink/log_shrink.h): a decision that does not fit the
  // run is answered as well as it can be instead of refusing it (ReplayingChoiceSource, kLenient),
  // and a log may be recorded at the same time: the decisions the run really took.
  bool lenient_replay = false;
  std::size_t max_decisions = DecisionLog::kDefaultMaxDecisions;

  // Real-time mode, for integration runs against real services (docs/integration.md): time is
  // std::chrono::steady_clock elapsed since the world was made, and when nothing is runnable the
  // scheduler sleeps the thread until the next entry is due. Such a run is NOT reproducible.
  // false (the default): virtual time, bit-for-bit deterministic.
  bool real_time = false;

  // Test-only nondeterminism: at the first tie-break at or after this step (with two live,
  // distinguishable candidates) pick a different candidate than the strategy chose. Used to prove
  // that the determinism check detects and localizes a divergence.
  std::optional<std::uint64_t> test_only_perturb_tie_break_at_step;
};

}  // namespace spotcheck::sim
