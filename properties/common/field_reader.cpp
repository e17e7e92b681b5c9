#include "properties/common/field_reader.h"

namespace spotcheck::properties {

std::string_view FieldReader::text(std::string_view key) {
  std::optional<std::string_view> value = _event.text(key);
  if (!value.has_value()) {
    note_missing(key);
    return {};
  }
  return *value;
}

std::int64_t FieldReader::number(std::string_view key) {
  std::optional<std::int64_t> value = _event.number(key);
  if (!value.has_value()) {
    note_missing(key);
    return 0;
  }
  return *value;
}

void FieldReader::note_missing(std::string_view key) {
  if (_missing.empty()) {
    _missing = std::string(key);
  }
}

std::string FieldReader::problem() const {
  if (_missing.empty()) {
    return {};
  }
  return std::string(_event.kind) + " #" + std::to_string(_event.index) + " lacks field '" + _missing +
         "' (docs/events.md)";
}

}  // namespace spotcheck::properties
