#include "scenarios/location/location_scenario.h"

#include <cassert>
#include <cstdio>
#include <memory>
#include <vector>

#include "impl/location/check.h"
#include "faults/fault_injector.h"
#include "properties/audit/capacity_audit.h"
#include "properties/property_suite.h"
#include "properties/registry.h"
#include "scenarios/common/seed_outcome.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

namespace spotcheck::scenarios::location {

namespace {

constexpr platform::RoutingId kFirstNodeRoutingId = 0x00a1'0000;
constexpr platform::TimeUs kRestartDelayUs = platform::seconds(1);

std::string routing_id_hex(platform::RoutingId rid) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(rid));
  return buffer;
}

}  // namespace

LocationScenario::LocationScenario(LocationScenarioConfig config) : _config(std::move(config)) {
  assert(_config.node_count >= 1);
  assert(!spotcheck::location::validate(_config.protocol).has_value());
  for (const auto& name : _config.properties) {
    assert(properties::find_property(name) != nullptr && "unknown property");
    (void)name;
  }
  assert(_config.workload.traffic_stop_us <= _config.faults_stop_us + _config.liveness_window_us);
}

SeedOutcome LocationScenario::run(const SeedRequest& request) const {
  // A failed protocol invariant ends this seed as a replayable run failure (the simulator catches
  // the exception at the top of the task) instead of aborting the whole campaign.
  const spotcheck::location::ScopedAssertionHandler invariant_guard(&spotcheck::location::throw_invariant_violation);
  sim::WorldConfig world_config;
  world_config.seed = request.seed;
  world_config.trace.keep_events = request.keep_trace;
  // The suite outlives the world (it is declared first) so it can judge until the last event.
  properties::PropertyOptions property_options;
  const sim::StoreServerConfig store_config;
  property_options.store_epoch_ms = store_config.epoch_ms;
  properties::PropertySuite suite(property_options);
  if (_config.properties.empty()) {
    suite.add_all();
  }
  for (const auto& name : _config.properties) {
    const bool added = suite.add(name);
    assert(added && "unknown or repeated property name");
    (void)added;
  }
  sim::World world(world_config);
  sim::StoreServer store(world, store_config);
  suite.attach(world);

  // Node environments must outlive the world's run: the process mains refer to them.
  std::vector<LocationNodeEnv> envs(_config.node_count);
  std::vector<sim::ProcessId> nodes;
  nodes.reserve(_config.node_count);
  for (std::uint32_t i = 0; i < _config.node_count; ++i) {
    const platform::RoutingId rid = kFirstNodeRoutingId + i;
    LocationNodeEnv* env = &envs[i];
    const sim::ProcessId pid = world.add_process("node-" + std::to_string(i), rid,
                                                 [env](platform::Platform& p) { run_location_node(p, *env); });
    env->config = &_config.protocol;
    env->workload = &_config.workload;
    env->routing_id_hex = routing_id_hex(rid);
    env->make_store = [&store, pid] { return store.location_client(pid); };
    env->request_restart = [&world, pid] {
      world.at(world.now_us() + kRestartDelayUs, [&world, pid] {
        if (world.process_state(pid) == sim::ProcessState::dead) {
          world.start(pid);
        }
      });
    };
    nodes.push_back(pid);
  }

  faults::FaultPlan plan = request.swarm ? faults::FaultPlan::swarm(world.stream("swarm"), _config.faults_stop_us)
                                         : _config.plan(_config.faults_stop_us);
  faults::FaultInjector injector(world, store, nodes, plan);
  injector.install();

  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const sim::ProcessId pid = nodes[i];
    world.at(static_cast<platform::TimeUs>(i) * platform::millis(100), [&world, pid] { world.start(pid); });
  }
  const sim::RunOutcome run = world.run_until(_config.faults_stop_us + _config.liveness_window_us, _config.max_steps);
  std::optional<Violation> violation;
  if (run.ok()) {
    // End-of-run checks (e.g. liveness: every request ended before its deadline).
    suite.finish(properties::RunEnd{world.now_us(), world.trace().size()});
  }
  if (const auto& found = suite.violation()) {
    violation = Violation{found->property, found->message, found->time_us, found->event_index};
  } else if (run.ok()) {
    // The store itself, at the end: every capacity counter equals the sum of the allocations of
    // the authority rows on its node (§3.3) — also for writes whose events were never seen
    // (killed nodes, lost replies).
    const auto audit = properties::audit_capacity_counters(store.location_engine(), platform::kNever);
    if (auto problem = audit.violation()) {
      violation = Violation{"capacity", "end-of-run store audit: " + *problem, world.now_us(), world.trace().size()};
    }
  }
  SeedOutcome outcome = make_seed_outcome(request.seed, run, world.trace(), request.keep_trace, violation);
  if (violation.has_value() && !outcome.violation.has_value()) {
    outcome.violation = std::move(violation);  // found by an end-of-run check
  }
  suite.detach();
  return outcome;
}

}  // namespace spotcheck::scenarios::location
