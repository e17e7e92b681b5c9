#include "faults/fault_injector.h"

#include <algorithm>
#include <cassert>

namespace spotcheck::faults {

namespace {

// Bound on the faults of one kind in one run (every loop has a bound).
constexpr int kFaultsPerKindMax = 10'000;

}  // namespace

FaultInjector::FaultInjector(sim::World& world, sim::StoreServer& store, std::vector<sim::ProcessId> nodes,
                             FaultPlan plan)
    : _world(world), _store(store), _nodes(std::move(nodes)), _plan(plan), _random(world.stream("faults")) {
  assert(!_nodes.empty());
}

TimeUs FaultInjector::next_gap(TimeUs mean_gap_us) {
  assert(mean_gap_us > 0);
  // Uniform in [mean/2, 3*mean/2]: irregular, yet bounded and cheap to draw.
  return _random.between(mean_gap_us / 2, mean_gap_us + mean_gap_us / 2) + 1;
}

sim::ProcessId FaultInjector::pick_node() { return _nodes[_random.below(_nodes.size())]; }

void FaultInjector::install() {
  assert(!_installed);
  _installed = true;
  _world.record("faults.plan", {platform::Field::num("stop_us", _plan.faults_stop_us)});
  _store.set_faults(sim::StoreFaults{_plan.store_request_loss, _plan.store_reply_loss, _plan.store_reply_delay});
  if (_plan.network_loss > 0.0) {
    for (const sim::ProcessId node : _nodes) {
      sim::LinkConfig lossy;
      lossy.loss_probability = _plan.network_loss;
      const auto rid = _world.process_routing_id(node);
      _world.network().set_link_config(rid, _store.routing_id(), lossy);
      _world.network().set_link_config(_store.routing_id(), rid, lossy);
    }
  }
  apply_clock_drift();
  schedule_store_outages();
  schedule_node_kills();
  schedule_node_pauses();
  schedule_partitions();
  _world.at(_plan.faults_stop_us, [this] { stop_all_faults(); });
}

void FaultInjector::apply_clock_drift() {
  if (!_plan.enabled(FaultKind::kClockDrift)) {
    return;
  }
  for (const sim::ProcessId node : _nodes) {
    _world.set_clock_drift_ppm(node, _random.between(-_plan.clock_drift_max_ppm, _plan.clock_drift_max_ppm));
  }
}

void FaultInjector::schedule_store_outages() {
  if (!_plan.enabled(FaultKind::kStoreOutage)) {
    return;
  }
  TimeUs t = next_gap(_plan.store_outage_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const TimeUs length = std::min(_random.between(1, _plan.store_outage_length_us), _plan.faults_stop_us - t);
    _world.at(t, [this] { _store.begin_outage(); });
    _world.at(t + length, [this] { _store.end_outage(); });
    t += length + next_gap(_plan.store_outage_gap_us);
  }
}

void FaultInjector::schedule_node_kills() {
  if (!_plan.enabled(FaultKind::kNodeKill)) {
    return;
  }
  TimeUs t = next_gap(_plan.node_kill_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const sim::ProcessId node = pick_node();
    const TimeUs down = _random.between(1, std::max<TimeUs>(1, _plan.node_down_us));
    _world.at(t, [this, node] {
      const auto state = _world.process_state(node);
      if (state == sim::ProcessState::running || state == sim::ProcessState::paused) {
        _world.kill(node);
      }
    });
    // The restart may fall after faults stop: a dead node always comes back.
    _world.at(t + down, [this, node] {
      if (_world.process_state(node) == sim::ProcessState::dead) {
        _world.start(node);
      }
    });
    t += next_gap(_plan.node_kill_gap_us);
  }
}

void FaultInjector::schedule_node_pauses() {
  if (!_plan.enabled(FaultKind::kNodePause)) {
    return;
  }
  TimeUs t = next_gap(_plan.node_pause_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const sim::ProcessId node = pick_node();
    const TimeUs length = std::min(_random.between(1, _plan.node_pause_max_us), _plan.faults_stop_us - t);
    _world.at(t, [this, node, length] {
      if (_world.process_state(node) == sim::ProcessState::running) {
        _world.pause(node, length);
      }
    });
    t += next_gap(_plan.node_pause_gap_us);
  }
}

void FaultInjector::schedule_partitions() {
  if (!_plan.enabled(FaultKind::kNetworkPartition)) {
    return;
  }
  TimeUs t = next_gap(_plan.partition_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const sim::ProcessId node = pick_node();
    const bool one_way = _random.chance(0.5);
    const bool node_to_store = _random.chance(0.5);
    const TimeUs length = std::min(_random.between(1, _plan.partition_length_us), _plan.faults_stop_us - t);
    _world.at(t, [this, node, one_way, node_to_store] {
      const auto rid = _world.process_routing_id(node);
      const auto store = _store.routing_id();
      if (!one_way) {
        const sim::RoutingId a[] = {rid};
        const sim::RoutingId b[] = {store};
        _world.network().partition(a, b);
      } else if (node_to_store) {
        _world.network().partition_one_way(rid, store);
      } else {
        _world.network().partition_one_way(store, rid);
      }
    });
    _world.at(t + length, [this, node] { _world.network().heal(_world.process_routing_id(node), _store.routing_id()); });
    t += length + next_gap(_plan.partition_gap_us);
  }
}

void FaultInjector::stop_all_faults() {
  _store.set_faults(sim::StoreFaults{});
  _store.end_outage();
  _world.network().heal_all();
  for (const sim::ProcessId node : _nodes) {
    const auto rid = _world.process_routing_id(node);
    _world.network().set_link_config(rid, _store.routing_id(), sim::LinkConfig{});
    _world.network().set_link_config(_store.routing_id(), rid, sim::LinkConfig{});
  }
  _world.record(kFaultsStopped, {});
}

}  // namespace spotcheck::faults
