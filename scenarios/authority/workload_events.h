// Events the location workload emits around the protocol's own (docs/events.md).
#pragma once

#include <string_view>

namespace spotcheck::scenarios::authority {

// A workload request began / ended: {owner, request, id, deadline_us} / {owner, request, id, outcome, late}.
inline constexpr std::string_view kRequestStart = "request.start";
inline constexpr std::string_view kRequestEnd = "request.end";
// The node ran the object's handler as its owner: {id, owner, lease_gen, object_gen, owner_gen}.
inline constexpr std::string_view kObjectWork = "object.work";
// The host run's owner lease was lost for good; the node asks to be restarted: {owner}.
inline constexpr std::string_view kNodeGaveUp = "node.gave_up";

}  // namespace spotcheck::scenarios::authority
