// A set of property checkers judging one run: attaches to a sim::World as one observer, feeds
// every event to each checker in the order they were added, and keeps the first violation as
// {property, message, event index, time}. After a violation it judges nothing more (the world
// stops the run at the end of the step).
//
//   properties::PropertySuite suite(options);
//   suite.add_all();                       // or suite.add("single-owner") ...
//   suite.attach(world);
//   world.run_until(end_us, max_steps);
//   suite.finish({world.now_us(), world.trace().size()});   // end-of-run checks
//   if (const auto& v = suite.violation()) { ... v->property, v->message ... }
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "properties/property_checker.h"
#include "properties/violation_subjects.h"
#include "properties/property_options.h"

namespace spotcheck::sim {
class World;
}

namespace spotcheck::properties {

struct PropertyViolation {
  std::string property;
  std::string message;
  std::uint64_t event_index = 0;  // the event that broke it (RunEnd::next_index for end-of-run checks)
  TimeUs time_us = 0;
  ViolationSubjects subjects{};  // the violating event's object and host runs, and the events cited
};

class PropertySuite final : public sim::TraceObserver {
 public:
  explicit PropertySuite(PropertyOptions options = {});
  ~PropertySuite() override;
  PropertySuite(const PropertySuite&) = delete;
  PropertySuite& operator=(const PropertySuite&) = delete;

  // Adds the registered property `name`; false for an unknown name or one already added.
  bool add(std::string_view name);
  // Adds every registered property not added yet, in registry order.
  void add_all();
  // Adds a checker of one's own (its name must be new).
  void add(std::unique_ptr<PropertyChecker> checker);

  // Subscribes to the world's events. While attached, the world must not call a destroyed
  // suite, and the suite's destructor detaches from the world: so either destroy the suite first,
  // or call detach() before the world is destroyed.
  void attach(sim::World& world);
  void detach();

  std::optional<std::string> on_event(const sim::TraceEvent& event) override;
  // Runs every checker's end-of-run check (once). Returns the first violation of the run, if any.
  std::optional<PropertyViolation> finish(const RunEnd& end);

  const std::optional<PropertyViolation>& violation() const { return _violation; }
  std::vector<std::string_view> names() const;
  PropertyChecker* find(std::string_view name) const;
  std::uint64_t events_seen() const { return _events_seen; }
  const PropertyOptions& options() const { return _options; }

 private:
  void add_cited(PropertyChecker& checker, ViolationSubjects& subjects) const;
  PropertyOptions _options;
  std::vector<std::unique_ptr<PropertyChecker>> _checkers;
  sim::World* _world = nullptr;
  std::optional<PropertyViolation> _violation;
  std::uint64_t _events_seen = 0;
  bool _finished = false;
};

}  // namespace spotcheck::properties
