// The event kinds of the harness — emitted by workloads, recorded by scenarios and the fault
// injector, recorded by the simulator — each defined once, here (the Location runtime's own
// vocabulary is impl/location/events/, docs/events.md). docs/properties.md lists every field.
#pragma once

#include <string_view>

namespace spotcheck::properties::kinds {

// ---- emitted by a workload (scenario code, on the node) ----------------------------------------
// A request began: {owner, request (number, unique per host run), deadline_us (the node's local
// clock), optional now_us (local time at the start), optional id}.
inline constexpr std::string_view kRequestStart = "request.start";
// A request ended with a typed outcome: {owner, request, outcome (non-empty text), optional late
// (0/1: the node saw its local clock past deadline_us), optional now_us}.
inline constexpr std::string_view kRequestEnd = "request.end";
// The node ran an object's handler as its owner, right after its admission check passed:
// {id, owner, lease_gen, object_gen, owner_gen, optional kind (actor|spot, default actor),
//  optional now_us and deadline_us (the node's local time and admission deadline)}.
inline constexpr std::string_view kObjectWork = "object.work";

// The host run's owner lease was lost for good; the node asks its supervisor to restart it: {owner}.
inline constexpr std::string_view kNodeGaveUp = "node.gave_up";

// ---- recorded by the scenario on the world (node = kWorldNode) ---------------------------------
// Every fault has healed and none starts again: the liveness phase begins. No fields.
inline constexpr std::string_view kFaultsStopped = "faults.stopped";

// ---- recorded by the simulator (docs/simulator.md) ---------------------------------------------
inline constexpr std::string_view kProcessStart = "start";  // {run}: a new host run begins
inline constexpr std::string_view kProcessKill = "kill";    // {run}: every fiber unwound
inline constexpr std::string_view kProcessExit = "exit";    // {run}: main returned
inline constexpr std::string_view kProcessPause = "pause";
inline constexpr std::string_view kProcessUnpause = "unpause";

}  // namespace spotcheck::properties::kinds
