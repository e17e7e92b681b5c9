// Property checkers subscribe to a world's events. Each sees every event right after it is
// recorded (same order as the trace). Returning a text reports a violation: the world records a
// "violation" event naming the offending event and stops the run at the end of the current step.
#pragma once

#include <optional>
#include <string>

#include "sim/trace/trace_event.h"

namespace spotcheck::sim {

class TraceObserver {
 public:
  virtual ~TraceObserver() = default;
  virtual std::optional<std::string> on_event(const TraceEvent& event) = 0;
};

}  // namespace spotcheck::sim
