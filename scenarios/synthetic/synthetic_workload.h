// Installing the synthetic workload into a world, and running one seed of it.
#pragma once

#include <cstdint>
#include <vector>

#include "scenarios/synthetic/fifo_checker.h"
#include "scenarios/synthetic/synthetic_config.h"
#include "sim/run_outcome.h"
#include "sim/trace/trace.h"
#include "sim/world.h"

namespace spotcheck::scenarios::synthetic {

// Adds config.node_count processes (routing ids 1..n), starts them, schedules the seeded fault
// plan (stream "faults") and subscribes the FIFO checker. Must outlive the world's runs.
class SyntheticWorkload {
 public:
  SyntheticWorkload(sim::World& world, const SyntheticConfig& config);
  ~SyntheticWorkload();
  SyntheticWorkload(const SyntheticWorkload&) = delete;
  SyntheticWorkload& operator=(const SyntheticWorkload&) = delete;

  const FifoChecker& checker() const { return checker_; }
  std::uint32_t faults_scheduled() const { return faults_scheduled_; }

 private:
  void schedule_faults();

  sim::World& world_;
  SyntheticConfig config_;
  std::vector<sim::ProcessId> nodes_;
  std::vector<std::vector<platform::RoutingId>> peers_;  // per node: every other node
  FifoChecker checker_;
  std::uint32_t faults_scheduled_ = 0;
};

struct SyntheticOutcome {
  std::uint64_t seed = 0;
  sim::RunOutcome run;  // status, problem text, end time, steps, events, trace hash
  sim::Trace trace;     // for first_divergence and rendering
  std::uint64_t fifo_checks = 0;
  std::shared_ptr<const sim::DecisionLog> decision_log;  // when recorded
  std::size_t unread_decisions = 0;                       // when replayed

  // A time-limited run that met no failure and no violation.
  bool ok() const { return run.ok(); }
};

// The world configuration the synthetic workload uses for `seed`.
sim::WorldConfig synthetic_world_config(std::uint64_t seed, const SyntheticConfig& config);

// Builds a world for `seed`, installs the workload, runs it for config.duration_us.
SyntheticOutcome run_synthetic_seed(std::uint64_t seed, const SyntheticConfig& config);

}  // namespace spotcheck::scenarios::synthetic
