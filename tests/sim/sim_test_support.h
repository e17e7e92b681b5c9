// Small helpers for simulator tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/world.h"

namespace spotcheck::sim::testing {

// Events of one kind, in trace order.
inline std::vector<TraceEvent> events_of_kind(const Trace& trace, std::string_view kind) {
  std::vector<TraceEvent> found;
  for (std::uint64_t i = 0; i < trace.size(); ++i) {
    TraceEvent event = trace.event(i);
    if (event.kind == kind) {
      found.push_back(event);
    }
  }
  return found;
}

inline WorldConfig quiet_config(std::uint64_t seed = 1) {
  WorldConfig config;
  config.seed = seed;
  config.clock_offset_max_us = 0;  // local clocks equal virtual time unless a test drifts them
  return config;
}

}  // namespace spotcheck::sim::testing
