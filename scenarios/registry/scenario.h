// A scenario: a workload plus its faults and properties, runnable for one seed.
// The campaign runner, replay and reports see scenarios only through this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "impl/platform/marks.h"
#include "properties/violation_subjects.h"

namespace spotcheck::sim {
class DecisionLog;  // sim/choice/decision_log.h
}

namespace spotcheck::scenarios {

struct SeedRequest {
  std::uint64_t seed = 0;
  bool swarm = false;       // draw which fault kinds are on, and how hard, from the seed
  bool keep_trace = false;  // keep per-event hashes and rendered events (replay, determinism)
  // Record the run's decision log into SeedOutcome::decision_log, or replay the run from a log
  // recorded on this build for the same scenario, seed and swarm flag (docs/replay.md).
  bool record_decisions = false;
  std::shared_ptr<const sim::DecisionLog> replay_decisions = nullptr;
  // Replay an edited log (shrinking): decisions that do not fit the run are answered as well as
  // they can be, never refused; may be combined with record_decisions (sim::WorldConfig).
  bool lenient_replay = false;
  // The out-of-contract fault kinds to turn on (faults::OutOfContractSet, faults/out_of_contract.h;
  // 0: none, the default). Scenarios that do not run the protocol (synthetic) ignore it.
  std::uint32_t out_of_contract = 0;
};

// A property checker found a state the protocol must never reach.
struct Violation {
  std::string property;
  std::string message;
  std::int64_t time_us = 0;
  std::uint64_t event_index = 0;
  // The objects, host runs and cited events (properties/violation_subjects.h); empty for a
  // violation no property checker found (the synthetic FIFO check, the end-of-run store audit).
  properties::ViolationSubjects subjects{};
};

struct SeedOutcome {
  std::uint64_t seed = 0;
  std::uint64_t trace_hash = 0;
  std::uint64_t events = 0;
  std::int64_t simulated_us = 0;
  std::optional<Violation> violation;
  // The run itself broke (an exception escaped a task, an event budget ran out, ...).
  std::optional<std::string> failure;
  // Filled only when SeedRequest::keep_trace is set; same length.
  std::vector<std::uint64_t> event_hashes;
  std::vector<std::string> event_lines;
  // Filled only when SeedRequest::keep_trace is set: the fault plan the seed ran (FaultPlan::describe).
  std::string fault_plan;
  // Filled only when SeedRequest::record_decisions is set.
  std::shared_ptr<const sim::DecisionLog> decision_log = nullptr;
  // How often each coverage mark fired (impl/platform/marks.h).
  platform::MarkCounts marks{};

  // In a campaign with out-of-contract faults on (SeedRequest::out_of_contract), for a seed that
  // did not pass but passes with them off: the out-of-contract kinds it needs (each a kind whose
  // removal alone lets it pass; all of the seed's when none does alone). Empty otherwise: the
  // seed passed, or it fails with them off too (an in-contract failure).
  std::vector<std::string> out_of_contract_needed;

  bool ok() const { return !violation.has_value() && !failure.has_value(); }
  bool failed_only_out_of_contract() const { return !ok() && !out_of_contract_needed.empty(); }
};

class Scenario {
 public:
  virtual ~Scenario() = default;
  virtual const std::string& name() const = 0;
  virtual const std::string& description() const = 0;
  // Deterministic: the same request on the same build gives the same outcome, bit for bit.
  // Must be safe to call concurrently from several threads (each call builds its own world).
  virtual SeedOutcome run(const SeedRequest& request) const = 0;
  // The coverage marks this scenario's workload and faults must reach (`spotcheck run
  // --require-marks` fails a campaign in which one never fired).
  virtual std::vector<platform::Mark> required_marks() const { return {}; }
  // Whether SeedRequest::out_of_contract means anything to this scenario (it runs the protocol
  // against the simulated store through faults/).
  virtual bool takes_out_of_contract() const { return false; }
};

}  // namespace spotcheck::scenarios
