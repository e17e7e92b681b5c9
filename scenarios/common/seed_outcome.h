// Turns one finished simulated run into the campaign's SeedOutcome.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "scenarios/registry/scenario.h"
#include "sim/run_outcome.h"
#include "sim/trace/trace.h"

namespace spotcheck::scenarios {

// `violation` names the broken property when the run stopped on one (from the property suite).
SeedOutcome make_seed_outcome(std::uint64_t seed, const sim::RunOutcome& run, const sim::Trace& trace,
                              bool keep_trace, std::optional<Violation> violation);

}  // namespace spotcheck::scenarios
