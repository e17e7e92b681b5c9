// Identifiers used across the simulator.
#pragma once

#include <cstdint>

#include "impl/platform/time.h"
#include "impl/platform/transport.h"

namespace spotcheck::sim {

using platform::RoutingId;
using platform::TimeUs;

// Index of a process in its world, in the order add_process was called.
using ProcessId = std::uint32_t;
// Unique per world, never reused; 0 means "no task" (world context).
using TaskId = std::uint64_t;
// Handle of a world-level action scheduled with World::at; never reused.
using ActionId = std::uint64_t;

// Trace node number for events that belong to no process.
inline constexpr std::int32_t kWorldNode = -1;

}  // namespace spotcheck::sim
