// The synthetic workload: the campaign's first target until the real protocol lands. A few nodes
// exchange requests and replies over simulated links, tick on timers and spawn short workers,
// while seeded faults kill, restart, pause, partition, disconnect and drift them. A trivial
// invariant (per-connection FIFO: the sequence numbers one host run sends to one peer arrive in
// increasing order) gives a campaign something to check.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "impl/platform/time.h"
#include "sim/choice/decision_log.h"
#include "sim/network_config.h"

namespace spotcheck::scenarios::synthetic {

using platform::TimeUs;

// Fault kinds, as bits of SyntheticConfig::fault_kinds.
enum FaultKind : std::uint32_t {
  kKillRestart = 1U << 0,   // kill, start again after a while
  kRestart = 1U << 1,       // immediate restart
  kPause = 1U << 2,
  kPartition = 1U << 3,     // symmetric, healed after a while
  kOneWay = 1U << 4,        // one-way partition, healed after a while
  kDisconnect = 1U << 5,    // connection broken, reconnected after a while
  kClockDrift = 1U << 6,
  kAllFaults = (1U << 7) - 1,
};

struct SyntheticConfig {
  std::uint32_t node_count = 5;
  TimeUs duration_us = platform::seconds(2);
  TimeUs request_gap_max_us = platform::millis(20);
  TimeUs reply_timeout_us = platform::millis(30);
  TimeUs tick_period_us = platform::millis(10);
  TimeUs worker_delay_max_us = platform::millis(2);

  std::uint32_t fault_count = 8;
  std::uint32_t fault_kinds = kAllFaults;
  TimeUs fault_duration_max_us = platform::millis(300);
  std::int64_t clock_drift_ppm_max = 500;

  sim::NetworkConfig network{sim::LinkConfig{200, 3'000, 0.01}};
  std::uint64_t max_steps = 20'000'000;
  bool guard_page_stacks = false;
  bool keep_trace_events = true;
  // Decision logs (WorldConfig::record_decisions / replay_decisions).
  bool record_decisions = false;
  std::shared_ptr<const sim::DecisionLog> replay_decisions;
  bool lenient_replay = false;

  // Test hooks: a sender that swaps two consecutive sequence numbers (the FIFO checker must
  // notice), and the world's tie-break perturbation (the determinism check must notice).
  bool test_only_break_fifo = false;
  std::optional<std::uint64_t> test_only_perturb_tie_break_at_step;
};

}  // namespace spotcheck::scenarios::synthetic
