// One observable action of a run: (virtual time, node, task, kind, fields).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "impl/platform/event_sink.h"
#include "sim/ids.h"

namespace spotcheck::sim {

struct TraceEvent {
  std::uint64_t index = 0;          // position in the trace, from 0
  TimeUs time_us = 0;               // virtual time
  std::int32_t node = kWorldNode;   // ProcessId, or kWorldNode
  TaskId task = 0;                  // 0 when not emitted from a task
  std::string_view kind;
  std::span<const platform::Field> fields;
  std::uint64_t hash = 0;           // hash of this event alone

  std::optional<std::int64_t> number(std::string_view key) const {
    for (const platform::Field& field : fields) {
      if (field.key == key && !field.is_text) {
        return field.number;
      }
    }
    return std::nullopt;
  }
  std::optional<std::string_view> text(std::string_view key) const {
    for (const platform::Field& field : fields) {
      if (field.key == key && field.is_text) {
        return field.text;
      }
    }
    return std::nullopt;
  }
};

}  // namespace spotcheck::sim
