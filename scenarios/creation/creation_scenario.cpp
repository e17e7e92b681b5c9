#include "scenarios/creation/creation_scenario.h"

#include <cassert>
#include <memory>
#include <vector>

#include "impl/location/check.h"
#include "faults/fault_injector.h"
#include "properties/property_suite.h"
#include "scenarios/common/seed_outcome.h"
#include "scenarios/creation/creation_program.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

namespace spotcheck::scenarios::creation {

namespace {

constexpr platform::RoutingId kFirstNodeRoutingId = 0x00c1'0000;
constexpr platform::TimeUs kRestartDelayUs = platform::seconds(1);
constexpr int kBurstsMax = 10'000;

// Loss on the links between nodes (the store links are the fault injector's): a base loss for
// the whole safety phase plus bursts drawn from the "faults/node-links" stream; all healed just
// before faults stop.
void install_node_link_faults(sim::World& world, const std::vector<sim::ProcessId>& nodes,
                              const CreationScenarioConfig& config) {
  auto set_loss = [&world, nodes](double loss) {
    sim::LinkConfig link;
    link.loss_probability = loss;
    for (const sim::ProcessId from : nodes) {
      for (const sim::ProcessId to : nodes) {
        if (from != to) {
          world.network().set_link_config(world.process_routing_id(from), world.process_routing_id(to), link);
        }
      }
    }
  };
  const platform::TimeUs heal_at = config.faults_stop_us - 1;
  if (config.node_link_loss > 0.0) {
    world.at(0, [set_loss, loss = config.node_link_loss] { set_loss(loss); });
  }
  if (config.node_link_burst_gap_us > 0 && config.node_link_burst_loss > 0.0) {
    platform::Random& random = world.stream("faults/node-links");
    platform::TimeUs t = random.between(config.node_link_burst_gap_us / 2, config.node_link_burst_gap_us);
    for (int i = 0; i < kBurstsMax && t < heal_at; ++i) {
      const platform::TimeUs length =
          std::min(random.between(1, config.node_link_burst_length_us), heal_at - t);
      world.at(t, [set_loss, loss = config.node_link_burst_loss] { set_loss(loss); });
      world.at(t + length, [set_loss, loss = config.node_link_loss] { set_loss(loss); });
      t += length + random.between(config.node_link_burst_gap_us / 2, config.node_link_burst_gap_us);
    }
  }
  world.at(heal_at, [set_loss] { set_loss(0.0); });
}

}  // namespace

CreationScenario::CreationScenario(CreationScenarioConfig config) : _config(std::move(config)) {
  assert(_config.node_count >= 2);
  assert(!location::validate(_config.protocol).has_value());
  assert(_config.plan);
  assert(_config.workload.traffic_stop_us <= _config.faults_stop_us + _config.liveness_window_us);
}

SeedOutcome CreationScenario::run(const SeedRequest& request) const {
  // A failed protocol invariant ends this seed as a replayable run failure (the simulator catches
  // the exception at the top of the task) instead of aborting the whole campaign.
  const spotcheck::location::ScopedAssertionHandler invariant_guard(&spotcheck::location::throw_invariant_violation);
  sim::WorldConfig world_config;
  world_config.seed = request.seed;
  world_config.trace.keep_events = request.keep_trace;
  properties::PropertyOptions property_options;
  const sim::StoreServerConfig store_config;
  property_options.store_epoch_ms = store_config.epoch_ms;
  // The suite outlives the world (declared first) so it can judge until the last event.
  properties::PropertySuite suite(property_options);
  suite.add_all();
  sim::World world(world_config);
  sim::StoreServer store(world, store_config);
  suite.attach(world);

  // Node environments outlive the run: the process mains refer to them.
  std::vector<CreationNodeEnv> envs(_config.node_count);
  std::vector<sim::ProcessId> nodes;
  nodes.reserve(_config.node_count);
  for (std::uint32_t i = 0; i < _config.node_count; ++i) {
    CreationNodeEnv* env = &envs[i];
    const sim::ProcessId pid = world.add_process("node-" + std::to_string(i), kFirstNodeRoutingId + i,
                                                 [env](platform::Platform& p) { run_creation_node(p, *env); });
    env->config = &_config.protocol;
    env->creation = &_config.creation;
    env->workload = &_config.workload;
    env->make_store = [&store, pid] { return store.location_client(pid); };
    env->request_restart = [&world, pid] {
      world.at(world.now_us() + kRestartDelayUs, [&world, pid] { world.restart(pid); });
    };
    nodes.push_back(pid);
  }

  faults::FaultPlan plan = request.swarm ? faults::FaultPlan::swarm(world.stream("swarm"), _config.faults_stop_us)
                                         : _config.plan(_config.faults_stop_us);
  faults::FaultInjector injector(world, store, nodes, plan);
  injector.install();
  install_node_link_faults(world, nodes, _config);

  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const sim::ProcessId pid = nodes[i];
    world.at(static_cast<platform::TimeUs>(i) * platform::millis(50), [&world, pid] { world.start(pid); });
  }
  const sim::RunOutcome run = world.run_until(_config.faults_stop_us + _config.liveness_window_us, _config.max_steps);
  if (run.ok()) {
    suite.finish(properties::RunEnd{world.now_us(), world.trace().size()});  // e.g. liveness
  }
  std::optional<Violation> violation;
  if (const auto& found = suite.violation()) {
    violation = Violation{found->property, found->message, found->time_us, found->event_index};
  }
  SeedOutcome outcome = make_seed_outcome(request.seed, run, world.trace(), request.keep_trace, violation);
  if (violation.has_value() && !outcome.violation.has_value()) {
    outcome.violation = std::move(violation);  // found by an end-of-run check
  }
  suite.detach();
  return outcome;
}

}  // namespace spotcheck::scenarios::creation
