// Turns one finished simulated run into the campaign's SeedOutcome.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "scenarios/registry/scenario.h"
#include "sim/choice/decision_log.h"
#include "sim/run_outcome.h"
#include "sim/trace/trace.h"

namespace spotcheck::scenarios {

// `violation` names the broken property when the run stopped on one (from the property suite).
SeedOutcome make_seed_outcome(std::uint64_t seed, const sim::RunOutcome& run, const sim::Trace& trace,
                              bool keep_trace, std::optional<Violation> violation);

// `outcome` with the run's decision log (when recorded). A replay that left `unread` decisions of
// its log unread did not replay the logged run: it is marked a failure (unless it failed already).
SeedOutcome with_decisions(SeedOutcome outcome, std::shared_ptr<const sim::DecisionLog> log, std::size_t unread);

}  // namespace spotcheck::scenarios
