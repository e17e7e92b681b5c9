// The fault injector with the Relocation Store on a server of its own (issue 11): that server meets
// the plan's store faults from streams of its own, so its outages fall apart from the Location
// Store's, and adding it leaves the Location Store's faults as they were.
#include <gtest/gtest.h>

#include <optional>
#include <string_view>
#include <vector>

#include "faults/fault_injector.h"
#include "sim/store_host/store_server.h"
#include "tests/sim/sim_test_support.h"

namespace spotcheck::faults {
namespace {

using platform::seconds;

struct Outages {
  std::vector<TimeUs> location;    // store.outage_begin times of the Location Store's server
  std::vector<TimeUs> relocation;  // ... of the Relocation Store's, when it has its own
};

Outages outages_of_seed(std::uint64_t seed, bool separate) {
  sim::World world{sim::testing::quiet_config(seed)};
  sim::StoreServer location{world, sim::StoreServerConfig{}};
  sim::StoreServerConfig second;
  second.routing_id = location.routing_id() + 1;
  second.name = "relocation-store";
  sim::StoreServer relocation{world, second};
  const sim::ProcessId node = world.add_process("n", 1, [](platform::Platform& p) { p.clock.sleep_for(seconds(90)); });
  FaultPlan plan = FaultPlan::none();
  plan.faults_stop_us = seconds(60);
  plan.store_outage_gap_us = seconds(5);
  plan.store_outage_length_us = seconds(1);
  FaultInjector injector(world, location, {node}, plan, separate ? &relocation : nullptr);
  injector.install();
  world.start(node);
  world.run_until(seconds(61), 1'000'000);
  Outages out;
  for (const sim::TraceEvent& event : sim::testing::events_of_kind(world.trace(), "store.outage_begin")) {
    (event.text("server") == std::optional<std::string_view>("relocation-store") ? out.relocation : out.location)
        .push_back(event.time_us);
  }
  return out;
}

TEST(FaultInjector, TheRelocationStoresServerHasOutagesOfItsOwn) {
  const Outages one = outages_of_seed(11, false);
  const Outages two = outages_of_seed(11, true);
  ASSERT_GE(one.location.size(), 5u);
  EXPECT_TRUE(one.relocation.empty());
  EXPECT_EQ(two.location, one.location);  // the Location Store's faults are as they were
  ASSERT_GE(two.relocation.size(), 5u);
  EXPECT_NE(two.relocation, two.location);  // drawn apart
}

}  // namespace
}  // namespace spotcheck::faults
