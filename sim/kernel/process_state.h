#pragma once

#include <functional>
#include <string_view>

#include "impl/platform/platform.h"

namespace spotcheck::sim {

enum class ProcessState {
  stopped,  // added, never started
  running,
  paused,   // fibers frozen while time moves on
  dead,     // killed or exited; start/restart begins a new host run
};

std::string_view to_string(ProcessState state);

// The program of a process: runs in a fresh task at every (re)start. Keep per-run state in locals
// or in objects it owns, never in the captures (they survive a restart). Returning from main ends
// the host run (its other tasks are unwound), like a real process.
using ProcessMain = std::function<void(platform::Platform&)>;

}  // namespace spotcheck::sim
