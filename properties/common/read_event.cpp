#include "properties/common/read_event.h"

namespace spotcheck::properties {

std::string missing_field_problem(const sim::TraceEvent& event, std::string_view key) {
  return std::string(event.kind) + " #" + std::to_string(event.index) + " lacks field '" + std::string(key) +
         "' (docs/events.md)";
}

}  // namespace spotcheck::properties
