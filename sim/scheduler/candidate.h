// What the scheduling strategy sees of one live ready entry: its kind and stable identities (a
// task id and a process id are never reused within a run), never a slot or a dead entry.
#pragma once

#include <cstdint>
#include <limits>

#include "sim/ids.h"
#include "sim/scheduler/ready_entry.h"

namespace spotcheck::sim {

inline constexpr ProcessId kNoProcess = std::numeric_limits<ProcessId>::max();

struct ReadyCandidate {
  TaskId task = 0;                 // task and task_timer entries; 0 otherwise
  ActionId action = 0;             // action entries; 0 otherwise
  ProcessId process = kNoProcess;  // task, task_timer and unpause entries
  std::uint32_t link = 0;          // arrival entries: the network link whose head arrives
  EntryKind kind = EntryKind::action;
  WakeReason reason = WakeReason::start;
};

}  // namespace spotcheck::sim
