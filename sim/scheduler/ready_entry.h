// One thing the scheduler can run at the current instant.
#pragma once

#include <cstdint>

namespace spotcheck::sim {

enum class EntryKind : std::uint8_t {
  task_timer,  // a parked task's deadline passed; claims the wait when picked (if still waiting)
  task,        // a task whose wait was already claimed (gate opened, message, yield, spawn)
  action,      // a world-level action (World::at); token = ActionId
  arrival,     // the head of one network link arrives; index = link
  unpause,     // a pause ends; index = process, token = pause generation
};

// Why a parked task runs again.
enum class WakeReason : std::uint8_t { start, timer, gate, gate_gone, message, yield, killed };

struct ReadyEntry {
  std::uint64_t token = 0;  // wait token (tasks), ActionId, pause generation
  std::uint32_t index = 0;  // task slot, link index, process id
  EntryKind kind = EntryKind::action;
  WakeReason reason = WakeReason::start;
};

}  // namespace spotcheck::sim
