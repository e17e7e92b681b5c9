// PropertySuite and the registry; checkers attached to a real sim::World whose process emits
// through its platform EventSink.
#include <gtest/gtest.h>

#include <set>

#include "impl/location/events/lease_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/checkers/liveness_checker.h"
#include "properties/property_suite.h"
#include "properties/registry.h"
#include "sim/events/harness_events.h"
#include "sim/world.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::Field;
using platform::millis;
using platform::seconds;

TEST(Registry, ListsEveryPropertyOnceWithADescription) {
  std::set<std::string_view> names;
  for (const PropertyInfo& info : all_properties()) {
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    ASSERT_NE(info.make, nullptr);
    EXPECT_EQ(info.make(PropertyOptions{})->name(), info.name);
    EXPECT_EQ(find_property(info.name), &info);
  }
  EXPECT_EQ(names, (std::set<std::string_view>{"single-owner", "generations", "fencing", "capacity",
                                               "exactly-one-creation", "at-most-once", "instance-first-message",
                                               "object-messages", "object-timers", "route-cache", "store-truth",
                                               "liveness", "creation-liveness"}));
  EXPECT_EQ(find_property("exactly-once"), nullptr);
}

TEST(Suite, AddsByNameOnce) {
  PropertySuite suite;
  EXPECT_TRUE(suite.add("fencing"));
  EXPECT_FALSE(suite.add("fencing"));
  EXPECT_FALSE(suite.add("no-such-property"));
  suite.add_all();
  EXPECT_EQ(suite.names().size(), all_properties().size());
  EXPECT_EQ(suite.names().front(), "fencing");
  EXPECT_NE(suite.find("liveness"), nullptr);
}

TEST(Suite, KeepsOnlyTheFirstViolation) {
  History h;
  Script& s = h.script;
  Row x;
  expect_violation(h, s.work(seconds(1), 0, x), "single-owner", {"without a registered owner lease"});
  const PropertyViolation first = *h.suite.violation();
  EXPECT_EQ(first.event_index, 0u);
  EXPECT_EQ(first.time_us, seconds(1));
  // Later events are not judged, and finish() reports the same violation.
  EXPECT_FALSE(s.work(seconds(2), 0, x).has_value());
  const std::optional<PropertyViolation> at_end = h.suite.finish(RunEnd{seconds(3), s.next_index()});
  ASSERT_TRUE(at_end.has_value());
  EXPECT_EQ(at_end->message, first.message);
}

sim::WorldConfig world_config() {
  sim::WorldConfig config;
  config.seed = 7;
  config.clock_offset_max_us = seconds(5);  // local clocks differ from virtual time
  return config;
}

TEST(SuiteInWorld, StopsTheRunAtTheViolatingEvent) {
  sim::World world(world_config());
  PropertySuite suite(test_options());
  suite.add_all();
  const sim::ProcessId node = world.add_process("n0", 1, [](platform::Platform& p) {
    platform::emit_event(p.events, kinds::kLeaseRegistered,
                         location::events::LeaseAdopted{"owner-a", 1, kEpochMs + 2'000, kEpochMs, 0, 1, 0,
                                                        /*local_before_us=*/0, /*margin_us=*/500'000});
    p.clock.sleep_for(seconds(3));  // past the lease's ExpiresAt (store ms kEpochMs + 2000)
    platform::emit_event(p.events, kinds::kObjectWork, sim::events::ObjectWork{"player:1", "owner-a", 1, 1, 1});
    p.clock.sleep_for(seconds(1));
  });
  suite.attach(world);
  world.start(node);
  const sim::RunOutcome outcome = world.run_until(seconds(10), 100'000);
  ASSERT_EQ(outcome.status, sim::RunStatus::violation) << outcome.problem;
  ASSERT_TRUE(suite.violation().has_value());
  EXPECT_EQ(suite.violation()->property, "single-owner");
  EXPECT_EQ(outcome.problem_event, suite.violation()->event_index);
  EXPECT_EQ(suite.violation()->time_us, seconds(3));
  EXPECT_EQ(outcome.problem.rfind("single-owner: ", 0), 0u) << outcome.problem;
  EXPECT_NE(outcome.problem.find("latest ExpiresAt"), std::string::npos) << outcome.problem;
  // The subjects as data: the work's object and host run, and the lease.registered it cites.
  const ViolationSubjects& subjects = suite.violation()->subjects;
  EXPECT_EQ(subjects.objects, (std::vector<std::string>{"player:1"}));
  EXPECT_EQ(subjects.host_runs, (std::vector<std::string>{"owner-a"}));
  ASSERT_EQ(subjects.events.size(), 1u);
  EXPECT_EQ(world.trace().event(subjects.events[0]).kind, kinds::kLeaseRegistered);
  EXPECT_NE(outcome.problem.find("#" + std::to_string(subjects.events[0])), std::string::npos) << outcome.problem;
  suite.detach();
}

TEST(SuiteInWorld, LegalRunPassesAndLivenessReadsTheNodesClock) {
  // The request carries only the node's local deadline; the suite reads the node's clock
  // through the world to place it in virtual time.
  for (const TimeUs work_us : {millis(500), millis(1'500)}) {
    sim::World world(world_config());
    PropertySuite suite(test_options());
    suite.add_all();
    const sim::ProcessId node = world.add_process("n0", 1, [work_us](platform::Platform& p) {
      const TimeUs deadline_us = p.clock.now_us() + seconds(1);
      p.events.emit(kinds::kRequestStart, {Field::str("owner", "o"), Field::num("request", 1), Field::num("deadline_us", deadline_us)});
      p.clock.sleep_for(work_us);
      p.events.emit(kinds::kRequestEnd, {Field::str("owner", "o"), Field::num("request", 1), Field::str("outcome", "ok")});
    });
    suite.attach(world);
    world.record(kinds::kFaultsStopped, {});
    world.start(node);
    const sim::RunOutcome outcome = world.run_until(seconds(10), 100'000);
    const std::optional<PropertyViolation> verdict = suite.finish(RunEnd{world.now_us(), world.trace().size()});
    if (work_us < seconds(1)) {
      EXPECT_TRUE(outcome.ok()) << outcome.problem;
      EXPECT_FALSE(verdict.has_value()) << verdict->message;
    } else {
      ASSERT_EQ(outcome.status, sim::RunStatus::violation);
      ASSERT_TRUE(verdict.has_value());
      EXPECT_EQ(verdict->property, "liveness");
      // The node's wake-up at 1.5 s is the first event past the deadline (1 s + 1 ms slack).
      EXPECT_NE(verdict->message.find("request 1 of host run o on node 0"), std::string::npos) << verdict->message;
      EXPECT_NE(verdict->message.find("has not ended by its deadline (virtual t=1001ms)"), std::string::npos)
          << verdict->message;
    }
    suite.detach();
  }
}

}  // namespace
}  // namespace spotcheck::properties::testing
