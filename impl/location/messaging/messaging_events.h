// Events of the messaging layer (docs/events.md "Creation").
#pragma once

#include <string_view>

namespace spotcheck::location::messaging::events {

// A message that is not a command of this codec: {from, size_bytes}. Dropped.
inline constexpr std::string_view kUndecodable = "messaging.undecodable";
// A command-20 reply nobody waits for (duplicate, or after the caller closed its call):
// {from, request, op_id, outcome}. Dropped: it is never handed to a caller.
inline constexpr std::string_view kLateReply = "messaging.late_reply";

}  // namespace spotcheck::location::messaging::events
