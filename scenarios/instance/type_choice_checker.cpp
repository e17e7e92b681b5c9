#include "scenarios/instance/type_choice_checker.h"

#include <utility>

#include "impl/location/events/instance_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::scenarios::instance {

TypeChoiceChecker::TypeChoiceChecker(std::set<std::string> offered) : _offered(std::move(offered)) {}

std::optional<std::string> TypeChoiceChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind != kinds::kInstanceTypeSelected) {
    return std::nullopt;
  }
  const auto read = properties::read_event<location::events::InstanceTypeSelected>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const location::events::InstanceTypeSelected& selected = read.event;
  if (selected.requested != 0 || selected.outcome != "created") {
    return std::nullopt;  // the caller named the type, or none was selected
  }
  if (_offered.size() == 1 && _offered.contains(std::string(selected.stable_type))) {
    return std::nullopt;
  }
  return properties::where(event) + " instance.type_selected: the type was omitted and '" +
         std::string(selected.stable_type) + "' was auto-selected, but every server publishes " +
         std::to_string(_offered.size()) +
         " Instance Spot types (§7.1: auto-selected only if exactly one type is available; two or more is "
         "InvalidOperation)";
}

}  // namespace spotcheck::scenarios::instance
