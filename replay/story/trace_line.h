// One rendered trace event ("#12 t=1500us node-1 task=4 kind key=value ...", sim/trace/trace.h)
// taken apart for the story.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spotcheck::replay {

struct TraceLine {
  std::uint64_t index = 0;
  std::int64_t time_us = 0;
  std::string node;    // the process name, or "world"
  std::optional<std::uint64_t> task;  // "task=4": the task of the process that emitted it
  std::string kind;    // e.g. "authority.new_owner"
  std::string fields;  // the rest of the line: key=value pairs, text values quoted
};

// nullopt when the line does not have the rendered shape (e.g. "events not kept").
std::optional<TraceLine> parse_trace_line(std::string_view line);
// The number after "<key>=" in the fields ("node=2"), if present.
std::optional<std::int64_t> number_field(const TraceLine& line, std::string_view key);
// The text of `<key>="..."` in the fields (escapes kept as rendered), if present.
std::optional<std::string> text_field(const TraceLine& line, std::string_view key);

}  // namespace spotcheck::replay
