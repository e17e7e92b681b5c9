// The typed events of the command dispatcher (messaging/dispatcher.cpp, docs/events.md
// "Messaging"): one struct per kind, its fields declared once in fields().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// messaging.undecodable.
struct MessagingUndecodable {
  static constexpr std::size_t kFieldsMax = 2;
  std::string_view from;
  std::int64_t size_bytes = 0;
};
template <class Io, platform::FieldsOf<MessagingUndecodable> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("size_bytes", e.size_bytes);
}

// messaging.late_reply.
struct MessagingLateReply {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view from;
  std::int64_t request = 0;
  std::string_view op_id;
  std::string_view outcome;
};
template <class Io, platform::FieldsOf<MessagingLateReply> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("request", e.request);
  io("op_id", e.op_id);
  io("outcome", e.outcome);
}

}  // namespace spotcheck::location::events
