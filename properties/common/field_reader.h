// Reads the fields of one event by key and remembers the first required one that was missing,
// so a checker can report a malformed event instead of judging from defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/trace/trace_event.h"

namespace spotcheck::properties {

class FieldReader {
 public:
  explicit FieldReader(const sim::TraceEvent& event) : _event(event) {}

  // Required fields: a missing one reads as empty / 0 and is remembered.
  std::string_view text(std::string_view key);
  std::int64_t number(std::string_view key);
  // Optional fields.
  std::optional<std::string_view> maybe_text(std::string_view key) const { return _event.text(key); }
  std::optional<std::int64_t> maybe_number(std::string_view key) const { return _event.number(key); }

  bool ok() const { return _missing.empty(); }
  // "<kind> #<index> lacks field '<key>'" for the first missing field; empty when ok().
  std::string problem() const;

 private:
  void note_missing(std::string_view key);

  const sim::TraceEvent& _event;
  std::string _missing;
};

}  // namespace spotcheck::properties
