#include "scenarios/creation/creation_scenario.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "faults/planted/unfenced_store.h"
#include "impl/check/check.h"
#include "scenarios/common/judged_world.h"
#include "scenarios/creation/creation_program.h"

namespace spotcheck::scenarios::creation {

namespace {

constexpr platform::RoutingId kFirstNodeRoutingId = 0x00c1'0000;
constexpr platform::TimeUs kRestartDelayUs = platform::seconds(1);
constexpr int kBurstsMax = 10'000;

// Loss on the links between nodes (the store links are the fault injector's): a base loss for
// the whole safety phase plus bursts drawn from the "faults/node-links" stream, and a heavy tail
// of latency; all healed just before faults stop.
void install_node_link_faults(sim::World& world, const std::vector<sim::ProcessId>& nodes,
                              const CreationScenarioConfig& config) {
  auto set_loss = [&world, nodes, tail = config.node_link_tail, tail_max_us = config.node_link_tail_max_us](double loss) {
    sim::LinkConfig link;
    link.loss_probability = loss;
    if (loss > 0.0 && tail > 0.0) {  // the tail lasts as long as the safety phase's loss
      link.tail_probability = tail;
      link.tail_max_us = std::max(tail_max_us, link.latency_max_us);
    }
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
  SPOTCHECK_ASSERT_ABORT(_config.node_count >= 2);
  SPOTCHECK_ASSERT_ABORT(!location::validate(_config.protocol).has_value());
  SPOTCHECK_ASSERT_ABORT(_config.plan);
  SPOTCHECK_ASSERT_ABORT(_config.swarm.valid());
  SPOTCHECK_ASSERT_ABORT(_config.workload.traffic_stop_us <= _config.faults_stop_us + _config.liveness_window_us);
}

SeedOutcome CreationScenario::run(const SeedRequest& request) const {
  properties::PropertyOptions options = JudgedWorld::property_options();
  options.capacity.actors = _config.workload.actors_limit;  // what every node's descriptor publishes
  if (_config.workload.room_limit > 0) {
    options.capacity.spot_types.emplace("userSpot/Room", _config.workload.room_limit);
  }
  // creation-liveness: what the healed world still owes the faulty phase. A Creating row orphaned
  // then is cancelled once its request's deadline (request_deadline_us after a call began) has
  // passed by abandoned_after_ms; a host run killed just before faults stopped keeps its owner
  // lease, and so its place among the placement candidates, for up to a lease TTL (a creation
  // placed on it is cancelled by its successor on the node). The rest is slack for clocks.
  options.creation_liveness.settle_us =
      std::max(_config.workload.request_deadline_us + platform::millis(_config.creation.abandoned_after_ms),
               _config.protocol.owner_lease_ttl_us) +
      platform::seconds(3);
  JudgedWorld judged(request, _config.properties, options);
  sim::World& world = judged.world();
  sim::StoreServer& store = judged.store();

  // Node environments outlive the run: the process mains refer to them.
  std::vector<CreationNodeEnv> envs(_config.node_count);
  std::vector<ClientMemory> memories(_config.node_count);
  std::vector<sim::ProcessId> nodes;
  nodes.reserve(_config.node_count);
  for (std::uint32_t i = 0; i < _config.node_count; ++i) {
    CreationNodeEnv* env = &envs[i];
    const sim::ProcessId pid = world.add_process("node-" + std::to_string(i), kFirstNodeRoutingId + i,
                                                 [env](platform::Platform& p) { run_creation_node(p, *env); });
    env->config = &_config.protocol;
    env->creation = &_config.creation;
    env->workload = &_config.workload;
    env->memory = &memories[i];
    // A planted bug at the store seam (faults/planted/) wraps the host run's client; otherwise it is bare.
    env->make_store = [this, &store, pid] {
      return planted::plant_at_store_seam(store.location_client(pid), _config.protocol.planted_bugs);
    };
    env->request_restart = [&world, pid] {
      world.at(world.now_us() + kRestartDelayUs, [&world, pid] { world.restart(pid); });
    };
    nodes.push_back(pid);
  }

  judged.install_faults(nodes, _config.plan(_config.faults_stop_us), _config.faults_stop_us, _config.swarm);
  install_node_link_faults(world, nodes, _config);
  judged.start_staggered(nodes, platform::millis(50));
  return judged.run_and_judge(_config.faults_stop_us + _config.liveness_window_us, _config.max_steps);
}

}  // namespace spotcheck::scenarios::creation
