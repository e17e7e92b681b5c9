// Comparing two runs of one seed event by event (the --check-determinism report).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "scenarios/registry/scenario.h"

namespace spotcheck::scenarios {

struct Divergence {
  std::uint64_t event_index = 0;
  std::string first;   // the event as the first run saw it, or "(end of trace)"
  std::string second;  // the event as the second run saw it, or "(end of trace)"
};

// Both outcomes must have been run with keep_trace. None when the runs agree event for event.
std::optional<Divergence> first_divergence(const SeedOutcome& first, const SeedOutcome& second);

}  // namespace spotcheck::scenarios
