// One seed's simulated world as every protocol scenario builds it: the world, the in-memory store
// hosted as a store server, the property suite judging every event, the fault plan, and the
// end-of-run checks. A failed protocol invariant ends the seed as a replayable run failure
// instead of aborting the campaign.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "faults/fault_injector.h"
#include "impl/check/check.h"
#include "properties/property_suite.h"
#include "scenarios/registry/scenario.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

namespace spotcheck::scenarios {

class JudgedWorld {
 public:
  // `properties` names the judging properties (properties/registry.h); empty: every property.
  // `options` tells them what the scenario set up (property_options() plus, e.g., the capacity
  // limits the nodes publish, or creation-liveness's settle time).
  JudgedWorld(const SeedRequest& request, const std::vector<std::string>& properties,
              const properties::PropertyOptions& options = property_options());
  // The options every scenario starts from: the store server's clock.
  static properties::PropertyOptions property_options();
  ~JudgedWorld();
  JudgedWorld(const JudgedWorld&) = delete;
  JudgedWorld& operator=(const JudgedWorld&) = delete;

  sim::World& world() { return _world; }
  sim::StoreServer& store() { return _store; }
  // The Relocation Store on a server of its own (issue 11: the two stores fail independently):
  // made on the first call, with a clock up to kRelocationClockSkewMaxMs ahead of or behind the
  // Location Store's (drawn from the seed); install_faults then gives it faults of its own.
  // Scenarios that never call it keep both stores on store().
  sim::StoreServer& relocation_store();
  static constexpr std::int64_t kRelocationClockSkewMaxMs = 2'000;
  // Adds a scenario's own property (one that knows what the scenario set up), judged with the rest.
  void add_checker(std::unique_ptr<properties::PropertyChecker> checker) { _suite.add(std::move(checker)); }

  // The seed's fault plan over `nodes`: `plan` as given, or (swarm) one drawn from the seed's
  // "swarm" stream in the scenario's `swarm` shape; either way faults stop at `faults_stop_us`.
  void install_faults(const std::vector<sim::ProcessId>& nodes, faults::FaultPlan plan,
                      platform::TimeUs faults_stop_us, const faults::SwarmShape& swarm = {});
  // Starts the nodes `gap_us` apart.
  void start_staggered(const std::vector<sim::ProcessId>& nodes, platform::TimeUs gap_us);
  // Runs to `end_us`, then the end-of-run checks: every checker's finish (liveness) and an audit
  // of the store's capacity counters against its authority rows (§3.3).
  SeedOutcome run_and_judge(platform::TimeUs end_us, std::uint64_t max_steps);

 private:
  static sim::WorldConfig world_config(const SeedRequest& request);

  SeedRequest _request;
  spotcheck::check::ScopedAssertionHandler _invariant_guard;
  // Declared before the world: the suite judges until the world's last event.
  properties::PropertySuite _suite;
  sim::World _world;
  sim::StoreServer _store;
  std::optional<sim::StoreServer> _relocation_store;
  std::unique_ptr<faults::FaultInjector> _injector;
  std::string _plan_text;  // the installed plan, described (kept traces only)
};

}  // namespace spotcheck::scenarios
