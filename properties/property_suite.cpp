#include "properties/property_suite.h"

#include "impl/check/check.h"
#include "properties/registry.h"
#include "sim/world.h"

namespace spotcheck::properties {

namespace {

// The object and the host runs an event names (ViolationSubjects::kObjectField, kHostRunFields).
void add_named_by(ViolationSubjects& subjects, const sim::TraceEvent& event) {
  if (const auto id = event.text(ViolationSubjects::kObjectField)) {
    subjects.add_object(*id);
  }
  for (const std::string_view key : ViolationSubjects::kHostRunFields) {
    if (const auto owner = event.text(key)) {
      subjects.add_host_run(*owner);
    }
  }
}

}  // namespace

PropertySuite::PropertySuite(PropertyOptions options) : _options(options) {}

PropertySuite::~PropertySuite() {
  detach();
}

bool PropertySuite::add(std::string_view name) {
  const PropertyInfo* info = find_property(name);
  if (info == nullptr || find(name) != nullptr) {
    return false;
  }
  add(info->make(_options));
  return true;
}

void PropertySuite::add_all() {
  for (const PropertyInfo& info : all_properties()) {
    if (find(info.name) == nullptr) {
      add(info.make(_options));
    }
  }
}

void PropertySuite::add(std::unique_ptr<PropertyChecker> checker) {
  SPOTCHECK_ASSERT_ABORT(checker != nullptr);
  SPOTCHECK_ASSERT_ABORT(find(checker->name()) == nullptr);
  SPOTCHECK_ASSERT_ABORT(_events_seen == 0);  // a checker added mid-run would judge a partial trace
  if (_world != nullptr) {
    checker->on_attach(*_world);
  }
  _checkers.push_back(std::move(checker));
}

void PropertySuite::attach(sim::World& world) {
  SPOTCHECK_ASSERT_ABORT(_world == nullptr);
  _world = &world;
  for (const auto& checker : _checkers) {
    checker->on_attach(world);
  }
  world.add_observer(*this);
}

void PropertySuite::detach() {
  if (_world != nullptr) {
    _world->remove_observer(*this);
    _world = nullptr;
  }
}

std::optional<std::string> PropertySuite::on_event(const sim::TraceEvent& event) {
  if (_violation.has_value() || _finished) {
    return std::nullopt;
  }
  ++_events_seen;
  for (const auto& checker : _checkers) {
    checker->forget_cited();
    std::optional<std::string> problem = checker->on_event(event);
    if (problem.has_value()) {
      _violation = PropertyViolation{std::string(checker->name()), std::move(*problem), event.index, event.time_us};
      add_named_by(_violation->subjects, event);
      add_cited(*checker, _violation->subjects);
      return _violation->property + ": " + _violation->message;
    }
  }
  return std::nullopt;
}

std::optional<PropertyViolation> PropertySuite::finish(const RunEnd& end) {
  if (_violation.has_value() || _finished) {
    _finished = true;
    return _violation;
  }
  _finished = true;
  for (const auto& checker : _checkers) {
    checker->forget_cited();
    std::optional<std::string> problem = checker->finish(end);
    if (problem.has_value()) {
      _violation = PropertyViolation{std::string(checker->name()), std::move(*problem), end.next_index, end.time_us};
      add_cited(*checker, _violation->subjects);
      break;
    }
  }
  return _violation;
}

// The events the checker cited, and (when the trace keeps events) what those events name.
void PropertySuite::add_cited(PropertyChecker& checker, ViolationSubjects& subjects) const {
  for (const std::uint64_t index : checker.take_cited()) {
    subjects.add_event(index);
    if (_world != nullptr && _world->trace().keeps_events() && index < _world->trace().size()) {
      add_named_by(subjects, _world->trace().event(index));
    }
  }
}

std::vector<std::string_view> PropertySuite::names() const {
  std::vector<std::string_view> names;
  names.reserve(_checkers.size());
  for (const auto& checker : _checkers) {
    names.push_back(checker->name());
  }
  return names;
}

PropertyChecker* PropertySuite::find(std::string_view name) const {
  for (const auto& checker : _checkers) {
    if (checker->name() == name) {
      return checker.get();
    }
  }
  return nullptr;
}

}  // namespace spotcheck::properties
