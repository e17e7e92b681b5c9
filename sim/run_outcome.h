// How a call to World::run_until ended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/ids.h"

namespace spotcheck::sim {

enum class RunStatus {
  quiescent,   // nothing left to run: no ready entry, no future event
  time_limit,  // the next event lies after end_us; virtual time now equals end_us
  step_limit,  // max_steps scheduler steps ran
  failure,     // World::fail, an exception escaping a task or action, a bound exceeded
  violation,   // an observer reported a violation
};

std::string_view to_string(RunStatus status);

struct RunOutcome {
  RunStatus status = RunStatus::quiescent;
  std::string problem;                         // failure or violation text
  std::optional<std::uint64_t> problem_event;  // trace index of the event that broke a property / failed
  TimeUs end_time_us = 0;                      // virtual time when the run stopped
  std::uint64_t steps = 0;                     // scheduler steps executed by the world so far
  std::uint64_t events = 0;                    // trace events so far
  std::uint64_t trace_hash = 0;                // rolling hash of the whole trace so far

  bool ok() const { return status != RunStatus::failure && status != RunStatus::violation; }
};

}  // namespace spotcheck::sim
