#include "scenarios/authority/authority_scenario.h"

#include <cstdio>
#include <memory>
#include <vector>

#include "faults/planted/unfenced_store.h"
#include "impl/check/check.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/limits.h"
#include "properties/registry.h"
#include "scenarios/common/judged_world.h"
#include "scenarios/common/restart_request.h"
#include "sim/world.h"

namespace spotcheck::scenarios::authority {

namespace {

constexpr platform::RoutingId kFirstNodeRoutingId = 0x00a1'0000;
constexpr platform::TimeUs kRestartDelayUs = platform::seconds(1);

std::string routing_id_hex(platform::RoutingId rid) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(rid));
  return buffer;
}

}  // namespace

AuthorityScenario::AuthorityScenario(AuthorityScenarioConfig config) : _config(std::move(config)) {
  SPOTCHECK_ASSERT_ABORT(_config.node_count >= 1);
  SPOTCHECK_ASSERT_ABORT(_config.swarm.valid());
  SPOTCHECK_ASSERT_ABORT(!spotcheck::location::validate(_config.protocol).has_value());
  for (const auto& name : _config.properties) {
    SPOTCHECK_ASSERT_ABORT(properties::find_property(name) != nullptr && "unknown property");
    (void)name;
  }
  SPOTCHECK_ASSERT_ABORT(_config.workload.traffic_stop_us <= _config.faults_stop_us + _config.liveness_window_us);
}

// Before any node starts: puts the object-generation counter near its end, through the store host
// (so the store's account, store.applied, shows the seeding like any other write).
void AuthorityScenario::seed_generations_near_end(sim::World& world, sim::StoreServer& store) const {
  if (_config.generations_near_end_probability <= 0.0) {
    return;
  }
  platform::Random& draw = world.stream("generations");
  if (!draw.chance(_config.generations_near_end_probability)) {
    return;
  }
  const std::uint64_t left = draw.below(std::uint64_t{_config.generations_left_max} + 1);
  store::WriteRequest seed;
  seed.mutations.push_back(store::Put{spotcheck::location::keys::object_generation_counter(),
                                      std::to_string(records::kGenerationMax - left)});
  const store::WriteResult written = store.apply_location_write(sim::kWorldNode, seed);
  SPOTCHECK_ASSERT_ABORT(std::holds_alternative<store::Applied>(written));
}

SeedOutcome AuthorityScenario::run(const SeedRequest& request) const {
  properties::PropertyOptions options = JudgedWorld::property_options();
  options.capacity.actors = _config.workload.actors_limit;  // what every node's descriptor publishes
  JudgedWorld judged(request, _config.properties, options);
  sim::World& world = judged.world();
  sim::StoreServer& store = judged.store();

  // Node environments must outlive the world's run: the process mains refer to them.
  std::vector<AuthorityNodeEnv> envs(_config.node_count);
  std::vector<sim::ProcessId> nodes;
  nodes.reserve(_config.node_count);
  for (std::uint32_t i = 0; i < _config.node_count; ++i) {
    const platform::RoutingId rid = kFirstNodeRoutingId + i;
    AuthorityNodeEnv* env = &envs[i];
    const sim::ProcessId pid = world.add_process("node-" + std::to_string(i), rid,
                                                 [env](platform::Platform& p) { run_authority_node(p, *env); });
    env->config = &_config.protocol;
    env->workload = &_config.workload;
    env->routing_id_hex = routing_id_hex(rid);
    // A planted bug at the store seam (faults/planted/) wraps the host run's client; otherwise it is bare.
    env->make_store = [this, &store, pid] {
      return planted::plant_at_store_seam(store.location_client(pid), _config.protocol.planted_bugs);
    };
    env->request_restart = restart_later(world, pid, kRestartDelayUs);
    nodes.push_back(pid);
  }
  seed_generations_near_end(world, store);
  judged.install_faults(nodes, _config.plan(_config.faults_stop_us), _config.faults_stop_us, _config.swarm);
  judged.start_staggered(nodes, platform::millis(100));
  return judged.run_and_judge(_config.faults_stop_us + _config.liveness_window_us, _config.max_steps);
}

}  // namespace spotcheck::scenarios::authority
